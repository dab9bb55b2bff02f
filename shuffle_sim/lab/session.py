"""One browser session's work: every action in the order it came, none lost, the page never held up.

A session outlives its pages (another court or a loaded file builds a new page, a new ``LabApp``;
the session, its queue and its job stay). Every callback of the page is an ``Action`` that
``Session.submit`` runs at once when it can: nothing queued before it, no job running, and the
kernel groups it needs ready (``warmup``). Otherwise it waits in the queue and the status area says
what waits and for what ("Shoot waits for the kernels of shots: compiling, 40 s so far"); a tick
every half second runs the queue, in order, as soon as it can. An action queued on a page the
session has since replaced runs on the new page: its widget there (found by name) takes the value
that was typed, and the new page's callback for it runs.

A job (``start_job``) is an action's long computation (a shot, noisy copies, the advice): it runs in
a worker thread while the page stays live, the status area says what it is doing and for how long
and its button shows that it is working; its result is shown by the action's ``apply`` back on the
server's loop, and the actions that came meanwhile run after it, in order. Without a server (a
document driven by the tests), jobs run at once, and the queue runs when ``tick`` is called.
"""

from __future__ import annotations

import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from shuffle_sim.lab.warmup import WHAT, WarmUp
from shuffle_sim.messages import counted

#: How often the session looks at its queue, its job and the warm-up (milliseconds).
TICK_MS = 500
#: A job says what it is doing once it has run this long (seconds): a quick one says nothing.
JOB_NOTICE_S = 0.3


@dataclass
class Action:
    """One callback of a page with its arguments.

    ``key``: what it came from, (widget name, property) or (widget name, "click") or ("gesture",
    kind), to find the same callback on a newer page; ``label``: its name in a waiting message;
    ``needs(app)``: the kernel groups it needs on that page; ``counts``: an action in the status
    area's sense (it clears the last failure); ``merge``: a later one with the same key replaces it
    while it waits (a live drag, a keystroke).
    """

    app: Any
    key: tuple[str, str]
    callback: Callable
    args: tuple = ()
    label: str = ""
    needs: Callable[[Any], tuple[str, ...]] = field(default=lambda app: ())
    counts: bool = True
    merge: bool = False


@dataclass
class Job:
    """A computation running in a worker thread for an action; ``apply`` shows its result."""

    label: str
    began: float
    button: Any = None
    button_state: tuple[str, bool] | None = None


#: Each document's session.
_SESSIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def session_of(doc) -> Session | None:
    """The session of a lab's document (None for another document)."""
    return _SESSIONS.get(doc)


class Session:
    """The work of one document (module docstring)."""

    def __init__(self, doc, warmup: WarmUp):
        _SESSIONS[doc] = self
        self.doc = doc
        self.warmup = warmup
        self.app: Any = None
        self.queue: deque[Action] = deque()
        self.job: Job | None = None
        self.threaded = getattr(doc, "session_context", None) is not None
        self.ticking = None
        self.seen_ready: set[str] = set(warmup.ready_groups)

    def attach(self, app) -> None:
        """A new page (the first, or one for another court): the session's work goes on on it."""
        self.app = app
        self.show_progress()
        if not self.warmup.ready.is_set():
            self.keep_ticking()

    # ---- actions ----------------------------------------------------------------------------------
    def submit(self, action: Action) -> None:
        """Run ``action`` now if it can run, else queue it (and say so)."""
        if action.merge:
            self.queue = deque(a for a in self.queue if a.key != action.key)
        if not self.queue and self.job is None and self.can_run(action):
            self.execute(action)
        else:
            self.queue.append(action)
            self.show_progress()
            self.keep_ticking()

    def missing(self, action: Action) -> list[str]:
        """The kernel groups ``action`` needs that are not ready yet."""
        return [g for g in action.needs(self.app) if not self.warmup.is_ready(g)]

    def can_run(self, action: Action) -> bool:
        return not self.missing(action)

    def execute(self, action: Action) -> None:
        """Run an action on the current page (found again there if it came from an earlier one)."""
        app = self.app
        callback = action.callback if action.app is app else app.retarget(action)
        if callback is not None:
            app.run(callback, *action.args, action=action.counts)

    def run_queue(self) -> None:
        """Run the queued actions that can run, in order, up to the first that must wait; then say
        what still waits."""
        while self.queue and self.job is None and self.can_run(self.queue[0]):
            self.execute(self.queue.popleft())
        self.show_progress()

    # ---- jobs -------------------------------------------------------------------------------------
    def start_job(self, label: str, compute: Callable[[], Any], apply: Callable[[Any], None], button=None) -> None:
        """Compute in a worker thread, then ``apply(result)`` on the server's loop (without a server:
        both at once). ``button`` says "working" meanwhile (its label, and it is off)."""
        if not self.threaded:  # called from an action: its errors are the action's
            apply(compute())
            return
        job = Job(label, time.monotonic(), button)
        if button is not None:
            job.button_state = (button.label, button.disabled)
            self.app.set_quietly(button, label=f"{label}\u2026", disabled=True)
        self.job = job
        app = self.app

        def work() -> None:
            try:
                outcome: tuple[Any, BaseException | None] = (compute(), None)
            except Exception as exc:  # shown on the page by ``finish``
                outcome = (None, exc)
            self.doc.add_next_tick_callback(lambda: self.finish(job, app, apply, outcome))

        threading.Thread(target=work, name="shot-lab-job", daemon=True).start()
        self.show_progress()
        self.keep_ticking()

    def finish(self, job: Job, app, apply: Callable[[Any], None], outcome: tuple[Any, BaseException | None]) -> None:
        """A job's result is in: the button back as it was, the result shown, the queue run on."""
        self.job = None
        if job.button is not None and job.button_state is not None:
            app.set_quietly(job.button, label=job.button_state[0], disabled=job.button_state[1])
        result, error = outcome

        def show() -> None:
            if error is not None:
                raise error
            apply(result)

        app.run(show, action=False)
        self.run_queue()

    # ---- the tick: the queue, the progress, the kernels made ready ---------------------------------
    def keep_ticking(self) -> None:
        if self.ticking is None and self.threaded:
            self.ticking = self.doc.add_periodic_callback(self.tick, TICK_MS)

    def tick(self) -> None:
        """Tell the page of kernel groups made ready, run what can run, say what waits; stop
        ticking once nothing waits and every group is ready."""
        if self.app is None:
            return
        ready = set(self.warmup.ready_groups) | (set(self.warmup.order) if self.warmup.ready.is_set() else set())
        if ready - self.seen_ready:
            self.seen_ready |= ready
            self.app.kernels_ready()
        self.run_queue()
        idle = not self.queue and self.job is None and self.warmup.ready.is_set()
        if idle and self.ticking is not None:
            self.doc.remove_periodic_callback(self.ticking)
            self.ticking = None

    def progress_text(self) -> str:
        """What the session is doing, in a line: a job, what waits and for what, the kernels still
        compiling in the background."""
        parts = []
        if self.job is not None and time.monotonic() - self.job.began >= JOB_NOTICE_S:
            parts.append(f"{self.job.label}: {time.monotonic() - self.job.began:.0f} s so far")
        if self.queue:
            first = self.queue[0]
            missing = self.missing(first) if self.job is None else []
            why = (
                f"waits for the kernels of {WHAT[missing[0]]} ({self.warmup.text(missing[0])})"
                if missing
                else "waits for the work before it"
            )
            more = f"; {counted(len(self.queue) - 1, 'more action')} after it" if len(self.queue) > 1 else ""
            parts.append(f"{first.label or 'your last action'} {why}{more}")
        elif self.warmup.cold and not self.warmup.ready.is_set():
            parts.append(f"in the background, {self.warmup.text()}")
        return "; ".join(parts)

    def show_progress(self) -> None:
        if self.app is not None:
            self.app.status.set_progress(self.progress_text())
