"""cluster-planner acceptance: the acceptance pack a vendor signs (commands, expected figures,
pass thresholds) into a folder, or, with --results, the measured logs judged against it."""

from __future__ import annotations

from planner.acceptance.criteria import acceptance_pack
from planner.acceptance.pack import write_pack
from planner.cli import UsageError, load_catalog_arg, print_json
from planner.plan.fileio import open_plan


def register(sub) -> None:
    p = sub.add_parser("acceptance", help="write the acceptance tests of a plan (nccl-tests, ib_write_bw, fio, DCGM) "
                                          "or judge measured results against them")
    p.add_argument("file", metavar="FILE", help="a plan file (.json)")
    p.add_argument("-o", "--output", metavar="DIR", help="write the runbook, tests JSON and fio job files into DIR")
    p.add_argument("--results", metavar="DIR", help="a folder of measured logs (nccl-tests stdout, fio JSON, "
                                                    "ib_write_bw output), each recognised by its content")
    p.add_argument("--json", action="store_true", help="with --results: print the verdicts as JSON")
    p.set_defaults(run=run)


def run(args) -> int:
    if bool(args.output) == bool(args.results):
        raise UsageError("give -o DIR (write the acceptance pack) or --results DIR (judge measured logs)")
    catalog = load_catalog_arg(args)
    pack = acceptance_pack(open_plan(args.file, catalog), catalog)
    if args.output:
        names = write_pack(pack, args.output)
        print(f"wrote {len(pack.tests)} acceptance tests ({len(names)} files) to {args.output}")
        return 0
    from planner.acceptance.results import judge_folder

    verdicts = judge_folder(pack, args.results)
    if args.json:
        print_json({"results": [v.as_dict() for v in verdicts]})
    else:
        for v in verdicts:
            print(v.line())
    return 0 if all(v.passed for v in verdicts) else 1
