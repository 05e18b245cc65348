"""What NetBox's Export > All data gives back after importing the planner's NetBox files.

``site_export(import_folder, out)`` reads the planner's bulk-import files (``export --netbox``)
and writes the files ``import-netbox`` reads, with NetBox 4.4's column titles and display
values as the samples in tests/data/netbox_samples show them ("42U", "1360 kg", "Front",
"Primary", "Three-phase", "80%"), and the device types as the device-type YAML export. Only
the columns the import reads are written; NetBox numbers objects (the ID column) from 1.
"""

from __future__ import annotations

import csv
from pathlib import Path

import yaml


def _rows(folder: Path, kind: str) -> list[dict]:
    """Every row of the planner's files of one kind ("racks": 06-racks.csv, or its parts)."""
    out: list[dict] = []
    for path in sorted(folder.glob("*.csv")):
        if path.stem[3:].rstrip("0123456789").rstrip("-") == kind:
            with open(path, newline="", encoding="utf-8") as f:
                out += list(csv.DictReader(f))
    return out


def _write(path: Path, header: list[str], rows: list[list]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def site_export(folder: Path, out: Path) -> Path:
    """NetBox's export of the one site the planner's files in ``folder`` describe, into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    sites = _rows(folder, "sites")
    _write(out / "sites.csv", ["Name", "Slug", "Description", "Comments"],
           [[s["name"], s["slug"], s["description"], s.get("comments", "")] for s in sites])
    _write(out / "locations.csv", ["Name", "Parent", "Slug", "Description"],
           [[r["name"], r["parent"], r["slug"], r["description"]] for r in _rows(folder, "locations")])
    _write(out / "racks.csv", ["Name", "Location", "Height", "Max Weight", "Starting unit", "Description"],
           [[r["name"], r["location"], f"{r['u_height']}U", f"{r['max_weight']} {r['weight_unit']}" if r["max_weight"]
             else "", "1", r["description"]] for r in _rows(folder, "racks")])
    _write(out / "devices.csv", ["ID", "Name", "Location", "Rack", "Position", "Rack face", "Manufacturer", "Type"],
           [[i, d["name"], d["location"], d["rack"], d["position"], d["face"].title(), d["manufacturer"],
             d["device_type"]] for i, d in enumerate(_rows(folder, "devices"), 1)])
    _write(out / "power-feeds.csv", ["Name", "Power Panel", "Rack", "Type", "Voltage", "Amperage", "Phase",
                                     "Max Utilization"],
           [[f["name"], f["power_panel"], f["rack"], f["type"].title(), f["voltage"], f["amperage"],
             f["phase"].capitalize(), f"{f['max_utilization']}%"] for f in _rows(folder, "power-feeds")])
    _write(out / "power-ports.csv", ["Name", "Device", "Maximum draw (W)", "Allocated draw (W)"],
           [[p["name"], p["device"], p["maximum_draw"], p["allocated_draw"]] for p in _rows(folder, "power-ports")])
    _write(out / "interfaces.csv", ["Name", "Device", "Type", "Management Only"],
           [[i["name"], i["device"], i["type"], i.get("mgmt_only", "") == "true"]
            for i in _rows(folder, "interfaces")])
    cables = _rows(folder, "cables") + _rows(folder, "power-cables")
    _write(out / "cables.csv", ["ID", "Device A", "Termination A", "Device B", "Termination B"],
           [[i, c["side_a_device"], c["side_a_name"], c["side_b_device"], c["side_b_name"]]
            for i, c in enumerate(cables, 1)])
    docs = [{"manufacturer": t["manufacturer"], "model": t["model"], "slug": t["slug"], "part_number": "",
             "u_height": float(t["u_height"]), "is_full_depth": True,
             "weight": float(t["weight"]) if t["weight"] else None, "weight_unit": t["weight_unit"] or None,
             "comments": t["comments"]} for t in _rows(folder, "device-types")]
    (out / "device-types.yaml").write_text("---\n".join(yaml.safe_dump(d, sort_keys=False) for d in docs),
                                           encoding="utf-8")
    return out
