"""cluster-planner acceptance: the acceptance pack a vendor signs (commands, expected figures,
pass thresholds) into a folder, or, with --results, the measured logs judged against it."""

from __future__ import annotations

from planner.acceptance.criteria import acceptance_pack
from planner.acceptance.pack import write_pack
from planner.cli import UsageError, load_catalog_arg, print_json
from planner.plan.fileio import open_plan


def register(sub) -> None:
    p = sub.add_parser("acceptance", help="write the acceptance tests of a plan (nccl-tests, ib_write_bw, fio, DCGM; "
                                          "on AMD Instinct: rccl-tests and the ROCm Validation Suite) or judge "
                                          "measured results against them")
    p.add_argument("file", metavar="FILE", help="a plan file (.json)")
    p.add_argument("-o", "--output", metavar="DIR", help="write the runbook, tests JSON and fio job files into DIR")
    p.add_argument("--results", metavar="DIR", help="a folder of measured logs (nccl-tests stdout, fio JSON, "
                                                    "ib_write_bw output, DCGM diagnostic JSON), each recognised by "
                                                    "its content; status 0 only when every test of the pack passed")
    p.add_argument("--json", action="store_true", help="with --results: print the verdicts as JSON")
    p.add_argument("--as-built", action="store_true",
                   help="with --results: record the measured fabric efficiency and storage bandwidth as the plan's "
                        "'As built' variant (the plan file is saved, its previous version kept as a backup)")
    p.set_defaults(run=run)


def run(args) -> int:
    if bool(args.output) == bool(args.results):
        raise UsageError("give -o DIR (write the acceptance pack) or --results DIR (judge measured logs)")
    if (args.json or args.as_built) and not args.results:
        raise UsageError("--json and --as-built go with --results DIR")
    catalog = load_catalog_arg(args)
    plan = open_plan(args.file, catalog)
    pack = acceptance_pack(plan, catalog)
    if args.output:
        names = write_pack(pack, args.output)
        print(f"wrote {len(pack.tests)} acceptance tests ({len(names)} files) to {args.output}")
        return 0
    from planner.acceptance.results import judge_folder

    results = judge_folder(pack, args.results)
    verdicts = list(results.verdicts)
    built = _as_built(plan, catalog, pack, verdicts, args.file) if args.as_built else None
    if args.json:
        print_json({"results": [v.as_dict() for v in verdicts], "missing": [m.as_dict() for m in results.missing],
                    "all_passed": results.all_passed, **({"as_built": built} if built else {})})
    else:
        for v in verdicts:
            print(v.line())
        for m in results.missing:
            print(m.line())
        for note in (built or {}).get("recorded", []):
            print(f"as built: {note}")
        if built:
            print(f"training throughput planned {_tokens(built['tokens_per_s_planned'])}, as built "
                  f"{_tokens(built['tokens_per_s_as_built'])}")
        print(_summary(pack, results))
    return 0 if results.all_passed else 1


def _summary(pack, results) -> str:
    """One line: how many of the pack's tests passed, failed and are missing."""
    judged = [v for v in results.verdicts if v.passed is not None]
    failed = {v.test_id for v in judged if not v.passed}
    passed = {v.test_id for v in judged} - failed - {m.test_id for m in results.missing}
    verdict = "all passed" if results.all_passed else "not accepted"
    return (f"{len(pack.tests)} tests: {len(passed)} passed, {len(failed)} failed, {len(results.missing)} missing: "
            f"{verdict}")


def _as_built(plan, catalog, pack, verdicts, path) -> dict:
    from planner.acceptance.asbuilt import AS_BUILT, record_as_built
    from planner.plan.fileio import save_plan
    from planner.plan.variants import resolve_variant
    from planner.report.evaluate import evaluate

    notes = record_as_built(plan, catalog, pack, verdicts)
    save_plan(plan, path)

    def tokens(name: str):
        w = evaluate(resolve_variant(plan, name), catalog).workload
        return w.tokens_per_s if w is not None else None

    return {"variant": AS_BUILT, "recorded": notes, "tokens_per_s_planned": tokens(plan.current_variant),
            "tokens_per_s_as_built": tokens(AS_BUILT)}


def _tokens(value) -> str:
    """A throughput as check prints it ("121,198 tokens/s"); "-" where the plan trains nothing."""
    return "-" if value is None else f"{value:,.0f} tokens/s"
