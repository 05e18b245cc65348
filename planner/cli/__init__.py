"""``cluster-planner``: the command line. No subcommand opens the desktop app.

Each subcommand lives in its own module with ``register(subparsers)``; nothing here imports
Qt or the app: the program's entry point (``cluster_planner``) lends opening the app and the
drawing exports (``Frontends``).
Exit status: 0 fine, 1 the plan has errors, 2 the input cannot be used, 3 an unexpected error.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

from planner import __version__
from planner.errors import PlannerError, one_line
from planner.text import clean_text

# Subcommand modules, in the order ``--help`` lists them.
SUBCOMMANDS = ["templates", "new", "check", "fix", "compare", "sweep", "catalog", "fabrics", "rent", "cables", "export",
               "acceptance", "import-prices", "import-netbox"]


class UsageError(PlannerError):
    """Bad arguments or input: exit status 2."""


class _OneLineParser(argparse.ArgumentParser):
    """Argument errors as one line and exit status 2, like every other unusable input."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {one_line(message)} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(
        prog="cluster-planner",
        description="GPU Cluster Planner: plan racks, power, cooling, network, storage and cost of GPU clusters. "
        "Without a subcommand, opens the desktop app (optionally on PLAN).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--catalog", action="append", default=[], metavar="FILE",
                        help="an extra catalog file of device types (repeatable)")
    parser.add_argument("--smoke", action="store_true", help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        import_module(f"planner.cli.cmd_{name.replace('-', '_')}").register(sub)
    return parser


@dataclass(frozen=True, slots=True)
class Frontends:
    """What the program's entry point (``cluster_planner``) lends the command line: opening the
    desktop app and drawing exports. The core imports neither; without them (``python -m
    planner``) those two say where to find them."""

    open_app: Callable[[list[str]], int] | None = None
    export_drawing: Callable[..., object] | None = None


NO_FRONTENDS = Frontends()


class _TerminalSafe:
    """A text stream whose writes have control characters escaped (``planner.text``): every
    name, label or message printed by any command reaches the terminal inert."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(clean_text(text, "terminal"))

    def status(self, text: str) -> None:
        """A status line kept up to date on a terminal: a carriage return, ``text`` inert, and
        the rest of the line cleared (ANSI erase to end of line)."""
        self._stream.write("\r" + clean_text(text, "terminal") + "\x1b[K")
        self._stream.flush()

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main(argv: list[str] | None = None, *, frontends: Frontends = NO_FRONTENDS) -> int:
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _TerminalSafe(out), _TerminalSafe(err)
    try:
        return _main(argv, frontends)
    finally:
        sys.stdout, sys.stderr = out, err


def _main(argv: list[str] | None, frontends: Frontends) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    route = _route(argv)
    if route == "app":
        return _guarded(lambda: _open_app(argv, frontends))
    if route != "cli":
        print(f"cluster-planner: {route}", file=sys.stderr)
        return 2
    parser = build_parser()
    argv = _attach_negative_values(parser, argv)
    _refuse_unknown_options(parser, argv)
    args, extra = parser.parse_known_args(argv)
    if extra:  # worded by the subcommand's parser, which names its own --help
        command_parser = _subparsers(parser).get(args.command, parser)
        command_parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command is None:
        return _guarded(lambda: _open_app(argv, frontends))
    if isinstance(getattr(args, "output", None), str) and not args.output.strip():  # -o "": nothing to name
        command_parser = _subparsers(parser).get(args.command, parser)
        command_parser.error("-o/--output: no file name was given")
    args.frontends = frontends
    return _guarded(lambda: int(args.run(args) or 0))


def _guarded(run) -> int:
    """``run()``'s exit status; a refusal as one line (2), a bug as one line (3, the traceback
    with PLANNER_DEBUG set), never a traceback in front of the user: the commands and the app
    alike."""
    try:
        return run()
    except PlannerError as exc:
        print(f"cluster-planner: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: one line for the user, the traceback on request
        if os.environ.get("PLANNER_DEBUG"):
            raise
        print(f"cluster-planner: unexpected error ({type(exc).__name__}: {one_line(str(exc))}); "
              "set PLANNER_DEBUG=1 to see the details", file=sys.stderr)
        return 3


APP_OPTIONS = {"--catalog": True, "--smoke": False}
"""The options of the desktop app (whether each takes a value); --smoke is the installer's check."""


def _route(argv: list[str]) -> str:
    """ "cli" (a subcommand, help or an option error argparse words), "app" (no subcommand,
    an existing plan file), or the one-line reason the first argument cannot be used.

    Decided before anything imports Qt: a typo never opens a window."""
    first, unknown, skip = None, [], False
    for a in argv:
        if skip:
            skip = False
        elif a.startswith("-") and a != "-":
            name = a.split("=", 1)[0]
            if name in ("-h", "--help", "--version"):
                return "cli"
            if name in APP_OPTIONS:
                skip = APP_OPTIONS[name] and "=" not in a
            else:
                unknown.append(a)
        elif first is None:
            first = a
    if first in SUBCOMMANDS or (first is None and unknown):
        return "cli"  # argparse words the errors of options before a subcommand
    if unknown:
        return f"unknown option '{unknown[0]}' (see 'cluster-planner --help')"
    if first is None:
        return "app"
    path = Path(first)
    if path.is_file():
        return "app"
    if path.exists():
        return f"not a plan file: {first} (a folder)"
    if path.suffix or os.sep in first or "/" in first:
        return f"no such plan file: {first}"
    close = difflib.get_close_matches(first, SUBCOMMANDS, n=1, cutoff=0.5)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"unknown command '{first}' (commands: {', '.join(SUBCOMMANDS)}){hint}"


def _open_app(argv: list[str], frontends: Frontends) -> int:
    if frontends.open_app is None:
        print("cluster-planner: the desktop app is started by 'cluster-planner' (or 'python -m cluster_planner'); "
              "try 'cluster-planner --help'", file=sys.stderr)
        return 2
    return int(frontends.open_app(argv) or 0)


def aligned(rows: list[list[str]], aligns: str, indent: str = "") -> list[str]:
    """Rows of cells as lines: column i to the left ("l") or right ("r") as ``aligns[i]``
    says, each as wide as its widest cell, two spaces apart, so no two figures run together
    however large ("4,671,210" cables and "125,881,200" m)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(aligns))]
    return [(indent + "  ".join(cell.ljust(w) if a == "l" else cell.rjust(w)
                                for cell, w, a in zip(row, widths, aligns))).rstrip() for row in rows]


def print_json(data: object) -> None:
    """Print ``data`` as strict JSON: NaN or infinity is refused (one line, exit 2), never
    printed as the non-JSON tokens ``NaN``/``Infinity``."""
    import json

    try:
        text = json.dumps(data, indent=1, allow_nan=False)
    except ValueError:
        raise PlannerError("a figure of the report is not a finite number; the plan's values are out of "
                           "range (please report this)") from None
    print(text)


def _attach_negative_values(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """``argv`` with a negative value that carries a unit joined to its option ("--train-tokens
    -5T" as "--train-tokens=-5T"): argparse takes "-5T" for an unknown option, where the
    option's own check words what it takes ("--train-tokens takes 1M to 10,000T tokens")."""
    first = next((a for a in argv if a in SUBCOMMANDS), None)
    command_parser = _subparsers(parser).get(first, parser)
    actions = dict(parser._option_string_actions)
    for p in (command_parser, *_subparsers(command_parser).values()):  # "catalog import --gpu -8x" too
        actions.update(p._option_string_actions)

    def action_of(option: str):
        if option in actions or not option.startswith("--"):
            return actions.get(option)
        named = {a for name, a in actions.items() if name.startswith(option)}  # argparse takes unique prefixes
        return named.pop() if len(named) == 1 else None

    out: list[str] = []
    for a in argv:
        before = action_of(out[-1]) if out else None
        if (a[:1] == "-" and a[1:2].isdigit() and not parser._negative_number_matcher.match(a)
                and before is not None and before.nargs is None and before.option_strings
                and not isinstance(before, (argparse._StoreConstAction, argparse._VersionAction))):
            out[-1] = f"{out[-1]}={a}"
            continue
        out.append(a)
    return out


def _refuse_unknown_options(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """An option no parser knows is named before argparse would complain of a missing argument."""
    first = next((a for a in argv if a in SUBCOMMANDS), None)
    command_parser = _subparsers(parser).get(first, parser)
    known = set(parser._option_string_actions)
    for p in (command_parser, *_subparsers(command_parser).values()):
        known |= set(p._option_string_actions)
    for a in argv:
        if a == "--":
            break
        if not a.startswith("-") or a == "-" or parser._negative_number_matcher.match(a):
            continue
        name = a.split("=", 1)[0]
        if name.startswith("--"):
            ok = any(k.startswith(name) for k in known)  # argparse takes unambiguous prefixes
        else:
            ok = name[:2] in known  # "-ofile": a short option with its value attached
        if not ok:
            command_parser.error(f"unrecognized arguments: {a}")


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(actions[0].choices) if actions else {}


def load_catalog_arg(args) -> object:
    from planner.hardware.catalog import default_catalog, load_catalog

    return load_catalog(args.catalog) if args.catalog else default_catalog()


if __name__ == "__main__":
    sys.exit(main())
