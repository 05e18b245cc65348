"""The cost model and the workbook export are core code: importing them loads no Qt."""

import subprocess
import sys


def test_cost_and_xlsx_modules_do_not_import_qt():
    code = ("import sys; import planner.costs.model, planner.costs.bom, planner.costs.section, planner.export.xlsx, "
            "planner.cli.cmd_export, planner.cli.cmd_rent; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'ui')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
