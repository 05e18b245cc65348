"""Killing a process in the middle of saving never leaves a partial plan on disk."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from planner.design.templates import build_template
from planner.plan.fileio import load_plan, plan_to_json

ROOT = Path(__file__).resolve().parents[2]

# The child saves the two plans alternately, as fast as it can, with backups, forever.
CHILD = """
import sys
from pathlib import Path
from planner.plan.fileio import atomic_write_bytes
a, b, target = Path(sys.argv[1]).read_bytes(), Path(sys.argv[2]).read_bytes(), sys.argv[3]
print("ready", flush=True)
i = 0
while True:
    atomic_write_bytes(target, a if i % 2 else b, keep=2)
    i += 1
"""


def test_sigkill_during_save_leaves_the_complete_old_or_new_plan(tmp_path):
    # Two large plans of different sizes: 4,000 and 5,000 8-GPU nodes (~1 MB of JSON each).
    plan_a = build_template("massive", nodes=4000)
    plan_b = build_template("massive", nodes=5000)
    plan_b.name = "the other plan"
    a, b = plan_to_json(plan_a).encode(), plan_to_json(plan_b).encode()
    assert len(a) > 500_000 and len(b) > len(a)
    (tmp_path / "a").write_bytes(a)
    (tmp_path / "b").write_bytes(b)
    target = tmp_path / "plan.json"
    target.write_bytes(a)
    rng = random.Random(7)
    seen = set()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(12):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path / "a"), str(tmp_path / "b"), str(target)],
                                 stdout=subprocess.PIPE, env=env, cwd=tmp_path)
        assert child.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.0, 0.25))  # a few saves in, at a random moment of one
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        for path in [target, tmp_path / "plan.json.1.bak", tmp_path / "plan.json.2.bak"]:
            if path.exists():
                data = path.read_bytes()
                assert data in (a, b), f"{path.name} holds {len(data)} bytes: a partial plan"
                seen.add(data == b)
        assert load_plan(target).name in (plan_a.name, "the other plan")
    # The kills landed while both plans were being written, not only before the first save.
    assert seen == {True, False}
