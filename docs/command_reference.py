"""The command reference, drawn from the command line's own parser when the site is built.

The ``shuffle-sim-commands`` directive (in ``commands.rst``) writes a table of every subcommand and
then a section per subcommand: what it does, its usage line and each of its arguments with its help,
its choices and its default, all read from ``shuffle_sim.cli.build_parser()``. A subcommand or an
option added to the parser appears on the page at the next build; none can be left out.

``command_reference`` gives the same content as plain data (``Command`` records), which the tests
check against the parser and the page renders.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

#: The program name the page shows.
PROG = "shuffle-sim"
#: An option's name in a help text.
OPTION = re.compile(r"(--[a-z][a-z0-9-]*)")


@dataclass(frozen=True)
class Argument:
    """One argument of a subcommand as the page shows it: how it is written (``--out DIR``, ``game``)
    and what it means (its help, choices, default and exclusions, in words)."""

    written: str
    meaning: str


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, its one-line summary, what it does, its usage line, its arguments."""

    name: str
    summary: str
    description: str
    usage: str
    arguments: tuple[Argument, ...]

    @property
    def anchor(self) -> str:
        """The section's id on the page (``shuffle-sim-run``)."""
        return nodes.make_id(f"{PROG} {self.name}")


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def _written(action: argparse.Action) -> str:
    """An argument as a user types it: its options and the value it takes, or a positional's name."""
    if not action.option_strings:
        return action.metavar if isinstance(action.metavar, str) else action.dest
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    value = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
    return ", ".join(f"{option} {value}" for option in action.option_strings)


def _meaning(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help of ``action`` with its ``%(...)s`` filled in, then its choices, its default (when the
    help does not give it), whether it repeats, and what it excludes."""
    text = parser._get_formatter()._expand_help(action) if action.help else ""
    parts = [text.rstrip(".")] if text else []
    if action.choices is not None:
        parts.append("one of " + ", ".join(str(c) for c in action.choices))
    if isinstance(action, argparse._AppendAction) and "repeat" not in text:
        parts.append("repeatable")
    shown_default = action.default not in (None, False, argparse.SUPPRESS) and action.option_strings
    if shown_default and "default" not in text:
        parts.append(f"default {action.default}")
    if action.required and action.option_strings:
        parts.append("required")
    for group in parser._mutually_exclusive_groups:
        if action in group._group_actions:
            others = [a.option_strings[0] for a in group._group_actions if a is not action and a.option_strings]
            if others:
                parts.append(f"not with {', '.join(others)}")
    return "; ".join(parts)


#: The width the usage lines are wrapped to (characters), whatever the terminal of the build.
USAGE_WIDTH = 88


def _usage(command: argparse.ArgumentParser) -> str:
    """The usage lines of ``command`` as ``--help`` prints them, wrapped to ``USAGE_WIDTH``."""
    formatter = argparse.HelpFormatter(command.prog, width=USAGE_WIDTH)
    formatter.add_usage(command.usage, command._actions, command._mutually_exclusive_groups, prefix="")
    return formatter.format_help().strip()


def _with_options(text: str) -> nodes.paragraph:
    """``text`` as a paragraph whose option names (``--dask``) are set as code, so that they read as
    typed (no typographic dash)."""
    paragraph = nodes.paragraph()
    for k, part in enumerate(OPTION.split(text)):
        if part:
            paragraph += nodes.literal(text=part) if k % 2 else nodes.Text(part)
    return paragraph


def command_reference(parser: argparse.ArgumentParser) -> list[Command]:
    """Every subcommand of ``parser`` (``shuffle_sim.cli.build_parser()``), in ``--help`` order."""
    sub = _subparsers(parser)
    summaries = {a.dest: a.help or "" for a in sub._choices_actions}
    commands = []
    for name, command in sub.choices.items():
        arguments = tuple(
            Argument(_written(action), _meaning(command, action))
            for action in command._actions
            if not isinstance(action, argparse._HelpAction)
        )
        commands.append(Command(name, summaries.get(name, ""), command.description or "", _usage(command), arguments))
    return commands


def _table(header: tuple[str, str], rows: list[tuple[nodes.Node, nodes.Node]], widths=(35, 65)) -> nodes.table:
    """A two-column table of ``rows`` (cell contents), with ``header``."""
    table = nodes.table(classes=["command-table"])
    group = nodes.tgroup(cols=2)
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)
    head = nodes.thead()
    group += head
    head += nodes.row("", *(nodes.entry("", nodes.paragraph(text=h)) for h in header))
    body = nodes.tbody()
    group += body
    for left, right in rows:
        body += nodes.row("", nodes.entry("", left), nodes.entry("", right))
    return table


class CommandsDirective(SphinxDirective):
    """``.. shuffle-sim-commands::``: the summary table and a section per subcommand."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from shuffle_sim.cli import build_parser

        commands = command_reference(build_parser())
        summary_rows = []
        for command in commands:
            link = nodes.reference("", "", nodes.literal(text=f"{PROG} {command.name}"), refid=command.anchor)
            summary_rows.append((nodes.paragraph("", "", link), nodes.paragraph(text=command.summary)))
        out: list[nodes.Node] = [_table(("command", "what it does"), summary_rows, widths=(30, 70))]
        for command in commands:
            section = nodes.section(ids=[command.anchor], names=[f"{PROG} {command.name}"])
            section += nodes.title("", "", nodes.literal(text=f"{PROG} {command.name}"))
            section += nodes.paragraph(text=command.summary[:1].upper() + command.summary[1:] + ".")
            if command.description:
                section += _with_options(command.description)
            section += nodes.literal_block(text=command.usage, language="text")
            rows = [
                (nodes.paragraph("", "", nodes.literal(text=a.written)), _with_options(a.meaning))
                for a in command.arguments
            ]
            if rows:
                section += _table(("argument", "meaning"), rows)
            self.state.document.note_implicit_target(section, section)
            out.append(section)
        return out


def setup(app):
    """Register the directive (a Sphinx extension)."""
    app.add_directive("shuffle-sim-commands", CommandsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
