"""What a NetBox in use already holds, read from NetBox's own exports, so an export writes only
the shared objects that are missing.

NetBox's bulk import is all-or-nothing per file: one manufacturer, device role or device type
that "already exists" fails its whole file. ``read_existing`` reads the files a user exports
from NetBox's list views:

- device types, "All data" (YAML, the device-type library's format: ``manufacturer``, ``model``,
  ``slug`` and the component templates ``interfaces``, ``power-ports`` ... NetBox creates on
  every device of the type);
- device types, "Current View" CSV (``Device Type``, ``Manufacturer``: no slug, matched by
  manufacturer and model);
- manufacturers and device roles, CSV (``Name``, ``Slug``).

The export then names them as NetBox does (a manufacturer or role matched by slug under
NetBox's name, a device type by its model) and leaves out the interfaces and power ports the
type's templates already give each device. A plan's device type is the NetBox one when its
slug is the catalog id's, or the slug the community devicetype-library gives the same hardware
(``LIBRARY_SLUGS``), or when manufacturer and model are the same.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from planner.errors import PlannerError
from planner.readfile import YamlLimitError, read_limited, safe_yaml

MAX_EXPORT_BYTES = 20 * 1024 * 1024

# Catalog ids whose hardware the community devicetype-library (github.com/netbox-community/
# devicetype-library, device-types/Nvidia/) holds: (manufacturer, model, slug) as its files name them.
LIBRARY_SLUGS: dict[str, tuple[str, str, str]] = {
    "qm9700": ("Nvidia", "QM9700", "nvidia-qm9700"),
    "qm9700-ndr200": ("Nvidia", "QM9700", "nvidia-qm9700"),
    "q3400": ("Nvidia", "Q3400-RA", "nvidia-q3400-ra"),
    "q3400-400": ("Nvidia", "Q3400-RA", "nvidia-q3400-ra"),
    "sn5600": ("Nvidia", "SN5600", "nvidia-sn5600"),
    "sn5600-400": ("Nvidia", "SN5600", "nvidia-sn5600"),
    "dgx-a100": ("Nvidia", "NVIDIA DGX A100 640GB", "nvidia-dgx-a100-640gb"),
}


def slugify(text: str) -> str:
    """NetBox slugs: letters, digits, hyphens and underscores."""
    return re.sub(r"[^a-z0-9_]+", "-", text.lower()).strip("-")[:100] or "item"


class ExistingExportError(PlannerError):
    """A NetBox export that cannot be read: one line naming the file."""


@dataclass(frozen=True, slots=True)
class ExistingType:
    """A device type NetBox holds, and the component names its templates give every device."""

    manufacturer: str
    model: str
    slug: str
    components: frozenset[tuple[str, str]] = frozenset()  # (kind: "interfaces" / "power-ports" ..., name)


@dataclass(slots=True)
class Existing:
    """The manufacturers and roles (slug: name) and the device types a NetBox holds."""

    manufacturers: dict[str, str] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)
    types: list[ExistingType] = field(default_factory=list)

    def device_type(self, catalog_id: str, vendor: str, model: str) -> ExistingType | None:
        """The NetBox device type of a catalog device, or None when NetBox does not hold it."""
        library = LIBRARY_SLUGS.get(catalog_id)
        for t in self.types:
            if t.slug and t.slug in (slugify(catalog_id), library[2] if library else None):
                return t
        for t in self.types:
            if (t.manufacturer.lower(), t.model.lower()) == (vendor.lower(), model.lower()):
                return t
        return None


def _yaml_documents(text: str, name: str) -> list[dict]:
    docs = []
    for i, part in enumerate(re.split(r"(?m)^---[ \t]*$", text)):
        if not part.strip():
            continue
        try:
            data = safe_yaml(part)
        except (yaml.YAMLError, YamlLimitError):
            raise ExistingExportError(f"{name}: document {i} is not valid YAML") from None
        if not isinstance(data, dict) or "model" not in data or "manufacturer" not in data:
            raise ExistingExportError(f"{name}: document {i} is not a NetBox device type (no manufacturer and model)")
        docs.append(data)
    return docs


def _components(doc: dict) -> frozenset[tuple[str, str]]:
    found = set()
    for kind in ("interfaces", "power-ports", "power-outlets", "console-ports", "console-server-ports"):
        items = doc.get(kind) or ()
        for item in items if isinstance(items, list) else ():  # a list of components, as NetBox writes them
            if isinstance(item, dict) and item.get("name") is not None:
                found.add((kind, str(item["name"])))
    return frozenset(found)


def read_existing(paths: list[str | Path]) -> Existing:
    """What the NetBox exports ``paths`` say exists; ExistingExportError naming a file it cannot read."""
    existing = Existing()
    for path in map(Path, paths):
        try:
            text = read_limited(path, MAX_EXPORT_BYTES, "NetBox export").decode("utf-8-sig")
        except PlannerError as exc:
            raise ExistingExportError(str(exc)) from None
        except UnicodeDecodeError:
            raise ExistingExportError(f"{path.name}: not a UTF-8 text file") from None
        if path.suffix.lower() in (".yaml", ".yml"):
            for doc in _yaml_documents(text, path.name):
                existing.types.append(ExistingType(str(doc["manufacturer"]), str(doc["model"]),
                                                   str(doc.get("slug") or ""), _components(doc)))
                existing.manufacturers.setdefault(slugify(str(doc["manufacturer"])), str(doc["manufacturer"]))
            continue
        rows = list(csv.DictReader(io.StringIO(text)))
        header = set(rows[0]) if rows else set(next(csv.reader(io.StringIO(text)), []))
        if {"Device Type", "Manufacturer"} <= header:
            for r in rows:  # a row shorter than the header reads its missing cells as empty
                maker, model = r.get("Manufacturer") or "", r.get("Device Type") or ""
                existing.types.append(ExistingType(maker, model, ""))
                existing.manufacturers.setdefault(slugify(maker), maker)
        elif {"Name", "Slug", "VM role"} <= header:
            existing.roles.update({r.get("Slug") or "": r.get("Name") or "" for r in rows})
        elif {"Name", "Slug", "Device Types"} <= header:
            existing.manufacturers.update({r.get("Slug") or "": r.get("Name") or "" for r in rows})
        else:
            raise ExistingExportError(f"{path.name}: not a NetBox export of device types (YAML or CSV), "
                                      "manufacturers or device roles")
    return existing
