"""``cluster-planner``: the command line. No subcommand opens the desktop app.

Each subcommand lives in its own module with ``register(subparsers)``; nothing on these
paths imports Qt, except opening the app and the exports that draw with Qt.
Exit status: 0 fine, 1 the plan has errors, 2 the input cannot be used, 3 an unexpected error.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module

from planner import __version__
from planner.errors import PlannerError, one_line

# Subcommand modules, in the order ``--help`` lists them.
SUBCOMMANDS = ["templates", "new", "check", "catalog", "fabrics", "rent", "cables", "export"]


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
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        import_module(f"planner.cli.cmd_{name.replace('-', '_')}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if _wants_app(argv):
        return _open_app(argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        return _open_app(argv)
    try:
        return int(args.run(args) or 0)
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
        print(f"cluster-planner: unexpected error ({type(exc).__name__}: {exc}); "
              "set PLANNER_DEBUG=1 to see the details", file=sys.stderr)
        return 3


def _wants_app(argv: list[str]) -> bool:
    """No subcommand (only a plan file and app options): open the desktop app."""
    if any(a in ("-h", "--help", "--version") for a in argv):
        return False
    positionals, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--catalog":
            skip = True
        elif not a.startswith("-"):
            positionals.append(a)
    return not positionals or positionals[0] not in SUBCOMMANDS


def _open_app(argv: list[str]) -> int:
    try:
        app = import_module("ui.app")
    except ImportError as exc:
        print(f"cluster-planner: the desktop app is not available ({exc}); try 'cluster-planner --help'",
              file=sys.stderr)
        return 2
    return int(app.run(argv) or 0)


def load_catalog_arg(args) -> object:
    from planner.hardware.catalog import default_catalog, load_catalog

    return load_catalog(args.catalog) if args.catalog else default_catalog()


if __name__ == "__main__":
    sys.exit(main())
