"""cluster-planner templates: the reference designs, one line each."""

from planner.design.templates import list_templates


def register(sub) -> None:
    p = sub.add_parser("templates", help="list the reference designs")
    p.set_defaults(run=run)


def run(args) -> int:
    templates = list_templates()
    width = max(len(t.name) for t in templates)
    for t in templates:
        print(f"{t.name:<{width}}  {t.title}")
    return 0
