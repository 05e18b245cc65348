"""Drag payloads: a catalog device from the palette, or a placed device being moved."""

from __future__ import annotations

import json
from dataclasses import dataclass

from PySide6.QtCore import QMimeData

DEVICE_MIME = "application/x-gpu-cluster-planner-device"


@dataclass(frozen=True, slots=True)
class DragPayload:
    device: str
    """Catalog device type id."""
    placement: str | None = None
    """The placed device being moved, or None for a new one from the palette."""
    grab_u: int = 0
    """Which of the device's U (0 = bottom) the pointer holds, so it does not jump when picked up."""


def to_mime(payload: DragPayload) -> QMimeData:
    mime = QMimeData()
    data = {"device": payload.device, "placement": payload.placement, "grab_u": payload.grab_u}
    mime.setData(DEVICE_MIME, json.dumps(data).encode("utf-8"))
    mime.setText(payload.device)
    return mime


def from_mime(mime: QMimeData) -> DragPayload | None:
    if not mime.hasFormat(DEVICE_MIME):
        return None
    try:
        data = json.loads(bytes(mime.data(DEVICE_MIME)).decode("utf-8"))
        return DragPayload(str(data["device"]), data.get("placement"), int(data.get("grab_u", 0)))
    except (ValueError, KeyError, TypeError):
        return None
