"""Write ``check --json`` and ``fabrics --json`` of every template into tests/data/check_json/.

The files are the contract scripts rely on: ``tests/planner/test_check_json_contract.py``
compares today's output against them and allows only added keys. Regenerate them only
when a change to a template's figures is intended, and say so in the commit:

    PYTHONPATH=. python tests/data/make_check_fixtures.py
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "check_json"


def cli_json(*argv: str) -> dict:
    """Run a subcommand in-process and parse what it prints."""
    from planner.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main(list(argv))
    return json.loads(buf.getvalue())


def outputs(name: str) -> dict[str, dict]:
    """``check --json`` and ``fabrics --json`` of the template ``name`` built by ``new``."""
    from planner.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / f"{name}.json")
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["new", "--template", name, "-o", path]) == 0
        return {"check": cli_json("check", path, "--json"), "fabrics": cli_json("fabrics", path, "--json")}


def main() -> int:
    from planner.design.templates import template_names

    OUT.mkdir(exist_ok=True)
    for name in template_names():
        for kind, data in outputs(name).items():
            (OUT / f"{name}.{kind}.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            print(f"wrote {name}.{kind}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
