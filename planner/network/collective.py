"""Collective communication: bytes and time of all-reduce, reduce-scatter and all-gather.

Definitions follow NVIDIA nccl-tests ``doc/PERFORMANCE.md``: for a collective on ``n``
ranks moving ``S`` bytes per rank in time ``t``, algbw = S / t and

- all-reduce:      busbw = algbw x 2(n-1)/n   (a ring sends 2(n-1)/n x S per rank)
- reduce-scatter:  busbw = algbw x (n-1)/n
- all-gather:      busbw = algbw x (n-1)/n

so that busbw is comparable with the link bandwidth ``B`` whatever ``n`` is. A ring
all-reduce therefore takes t = 2(n-1) alpha + 2(n-1)/n x S / B (alpha: per-step latency).

With in-network reduction (NVIDIA SHARP) each rank sends its S bytes to the switch once
and receives the result once: S bytes instead of 2(n-1)/n x S, about half for large n,
with two latency steps (up and down the tree) instead of 2(n-1).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Collective:
    """One collective on one level (NVLink inside a node, or the fabric between nodes).

    ``wire_bytes``: bytes each rank sends; ``bus_bytes``: the ring-equivalent bytes NCCL
    divides by the time to report bus bandwidth (equal to wire_bytes without SHARP)."""

    kind: str
    ranks: int
    wire_bytes: float
    bus_bytes: float
    time_s: float

    @property
    def bus_bandwidth_gbs(self) -> float | None:
        """nccl-tests' busbw: ring-equivalent bytes / time. With SHARP it exceeds the link
        rate (the ring bytes are not what the GPU sends)."""
        return self.bus_bytes / self.time_s / 1e9 if self.time_s > 0 else None

    @property
    def effective_bandwidth_gbs(self) -> float | None:
        """Bytes this rank actually sends / time: never above the link bandwidth B."""
        return self.wire_bytes / self.time_s / 1e9 if self.time_s > 0 else None


NONE = Collective("none", 1, 0.0, 0.0, 0.0)


def ring_factor(kind: str, n: int) -> float:
    """Bytes each rank sends per byte of payload in a ring (nccl-tests PERFORMANCE.md)."""
    if n <= 1:
        return 0.0
    if kind == "all_reduce":
        return 2.0 * (n - 1) / n
    if kind in ("reduce_scatter", "all_gather"):
        return (n - 1) / n
    raise ValueError(f"unknown collective '{kind}'")


def latency_steps(kind: str, n: int) -> int:
    """Latency-bound steps of a ring: 2(n-1) for all-reduce, n-1 for the others."""
    if n <= 1:
        return 0
    return 2 * (n - 1) if kind == "all_reduce" else n - 1


def collective(kind: str, n: int, size_bytes: float, bandwidth_gbs: float, alpha_s: float,
               *, sharp: bool = False, calls: int = 1) -> Collective:
    """Time of collectives moving ``size_bytes`` per rank in total on ``n`` ranks, issued
    as ``calls`` separate operations (each pays its latency steps).

    Ring: t = calls x steps x alpha + ring_factor x S / B with B the per-rank bandwidth
    (GB/s). SHARP (all-reduce only): t = calls x 2 alpha + S / B; NCCL still reports
    busbw with the ring factor, so SHARP shows a bus bandwidth above B.
    """
    if n <= 1 or size_bytes <= 0:
        return Collective(kind, max(n, 1), 0.0, 0.0, 0.0)
    if bandwidth_gbs <= 0:
        raise ValueError("a collective needs a positive bandwidth")
    bus = ring_factor(kind, n) * size_bytes
    if sharp and kind == "all_reduce":
        wire = size_bytes
        steps = 2
    else:
        wire = bus
        steps = latency_steps(kind, n)
    t = max(calls, 1) * steps * alpha_s + wire / (bandwidth_gbs * 1e9)
    return Collective(kind, n, wire, bus, t)


def ring_allreduce_time(n: int, size_bytes: float, bandwidth_gbs: float, alpha_s: float) -> float:
    """t = 2(n-1) alpha + 2(n-1)/n x S / B (ring all-reduce, nccl-tests PERFORMANCE.md)."""
    return collective("all_reduce", n, size_bytes, bandwidth_gbs, alpha_s).time_s


def bus_bandwidth(kind: str, n: int, size_bytes: float, time_s: float) -> float:
    """busbw (GB/s) = algbw x ring factor, algbw = S / t (nccl-tests PERFORMANCE.md)."""
    if time_s <= 0:
        raise ValueError("time must be positive")
    return size_bytes / time_s * ring_factor(kind, n) / 1e9


def total_time(collectives: list[Collective]) -> float:
    return sum(c.time_s for c in collectives)


def total_bus_bandwidth_gbs(collectives: list[Collective]) -> float | None:
    """Bus bandwidth of a sequence of collectives: their ring-equivalent bytes over their time."""
    t = total_time(collectives)
    return sum(c.bus_bytes for c in collectives) / t / 1e9 if t > 0 else None


def total_effective_bandwidth_gbs(collectives: list[Collective]) -> float | None:
    """Effective bandwidth of a sequence of collectives: bytes each rank actually sends
    over their time (at most the per-rank link bandwidth, latency only lowers it)."""
    t = total_time(collectives)
    return sum(c.wire_bytes for c in collectives) / t / 1e9 if t > 0 else None
