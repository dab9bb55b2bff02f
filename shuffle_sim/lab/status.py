"""The lab's one status area, beside the controls: what is wrong now, and what just happened.

A message has a cause. A *problem* belongs to something that stays wrong until it is fixed (a field
holding a bad number, the kernels still compiling): it shows until its cause is fixed, and only
then (``solved``). A *failure* belongs to one action that could not be done (a disc dropped on
another, Delete with nothing selected): it shows until the next action that succeeds. An action
refused because of a field (Shoot while the speed field holds a bad number) is that field's
problem: it shows while the field is bad, and goes the moment the field is fixed, with the field's
red outline (a message and the field's colour always agree). A *note* says what the last action
did (a shot played and what the rules removed): the next action replaces it. Problems and failures
are red, notes green, a progress notice blue; the newest failure first.
"""

from __future__ import annotations

import html

#: The cause of a failed action (there is one at a time: the last).
ACTION = "action"
COLOURS = {"problem": "#b71c1c", "note": "#1b5e20", "progress": "#0d47a1"}


class Status:
    """The messages of one page, rendered into a Bokeh ``Div`` (``div.text``)."""

    def __init__(self, div):
        self.div = div
        self.problems: dict[str, str] = {}
        self.progress = ""
        self.note = ""
        self.render()

    def problem(self, cause: str, text: str) -> None:
        """``cause`` is wrong until ``solved``; a field's cause is its name."""
        self.problems[cause] = text
        self.render()

    def solved(self, cause: str) -> None:
        if self.problems.pop(cause, None) is not None:
            self.render()

    def failed(self, text: str, cause: str | None = None) -> None:
        """The action just tried could not be done; it says why until the next success, or, when a
        field's bad value is the ``cause``, until that field is fixed."""
        self.problems[cause or ACTION] = text
        self.note = ""
        self.render()

    def succeeded(self, note: str | None = None) -> None:
        """An action was done: its failure (if any) is gone, and ``note`` (if given) replaces the last note."""
        self.problems.pop(ACTION, None)
        if note is not None:
            self.note = note
        self.render()

    def set_progress(self, text: str) -> None:
        self.progress = text
        self.render()

    def has(self, cause: str) -> bool:
        return cause in self.problems

    def render(self) -> None:
        lines = []
        if self.progress:
            lines.append(("progress", self.progress))
        if ACTION in self.problems:
            lines.append(("problem", self.problems[ACTION]))
        lines += [("problem", text) for cause, text in self.problems.items() if cause != ACTION]
        if self.note:
            lines.append(("note", self.note))
        self.div.text = "".join(
            f'<div class="lab-{kind}" style="color:{COLOURS[kind]}">{html.escape(text)}</div>' for kind, text in lines
        )

    def text(self) -> str:
        """Everything shown, as plain text (for the tests)."""
        parts = [self.progress] if self.progress else []
        if ACTION in self.problems:
            parts.append(self.problems[ACTION])
        parts += [t for c, t in self.problems.items() if c != ACTION]
        return "\n".join(parts + ([self.note] if self.note else []))
