"""Cable media by reach and speed, and the stock lengths they are sold in.

Reaches (NVIDIA LinkX product specifications, docs.nvidia.com/networking):
- passive copper (DAC): 800G twin-port OSFP 0.5-2 m (MCP4Y10); 400G and 200G 1-3 m
  (MCP7Y00 / MCP7Y10 splitters, MCP7Y60); 100G QSFP28 up to 5 m;
- active copper (ACC): 400G/800G in 4 and 5 m (MCP7Y10 note: "ACC also available for 4 and 5 m");
- active optical cable (AOC): up to 200G, 3-30 m (MFS1S50 200GbE AOC: 3, 5, 10, 15, 20, 30 m);
- beyond: a transceiver at each end and fibre, multimode (SR, 50 m on OM4) or single-mode
  by reach class (IEEE 802.3: DR 500 m, 400GBASE-DR4 in 802.3bs; FR 2 km, 400GBASE-FR4 in
  802.3cu; LR 10 km, 400GBASE-LR8 in 802.3bs and the 100G Lambda MSA's 400G-LR4-10); runs
  past 2 km are ordered to length, and the catalog's optics say how far a speed reaches;
- management (1 GbE): Cat6A patch cords, 100 m (IEEE 802.3 1000BASE-T).
Every run is rounded up to the next stock length of its medium.
"""

from __future__ import annotations

from dataclasses import dataclass

DAC_LENGTHS = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0)
ACC_LENGTHS = (4.0, 5.0)
AOC_LENGTHS = (3.0, 5.0, 10.0, 15.0, 20.0, 30.0)
FIBRE_LENGTHS = (1.0, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 70.0, 100.0, 150.0, 200.0, 300.0,
                 500.0, 1000.0, 2000.0)
CAT6_LENGTHS = (0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 10.0, 15.0, 20.0, 30.0, 50.0, 100.0)

MEDIA = ("DAC", "ACC", "AOC", "MMF", "SMF", "Cat6A")
COPPER = ("DAC", "ACC", "Cat6A")  # the rest carry light: fibre with optics, or an active optical cable
# single-mode optics by reach class, shortest first (IEEE 802.3 PMD names; see above)
SINGLE_MODE_CLASSES = (("DR", 500.0), ("FR", 2000.0), ("LR", 10000.0))


@dataclass(frozen=True, slots=True)
class Medium:
    name: str  # one of MEDIA
    stock_m: float  # the length ordered
    transceivers: int  # optics the link needs (2 for fibre, 0 otherwise)

    def part(self, gbps: float) -> str:
        speed = f"{gbps:g}G" if gbps >= 1 else f"{gbps * 1000:g}M"
        titles = {"DAC": "passive copper DAC", "ACC": "active copper cable", "AOC": "active optical cable",
                  "MMF": "multimode fibre (OM4)", "SMF": "single-mode fibre (OS2)", "Cat6A": "Cat6A patch cord"}
        speed_part = "" if self.name in ("MMF", "SMF") else f"{speed} "
        return f"{speed_part}{titles[self.name]}, {self.stock_m:g} m"


def optic_class(medium: str, length_m: float, gbps: float | None = None) -> str:
    """The optic a fibre run of ``length_m`` needs: SR on multimode; LX for 1 GbE on
    single-mode (1000BASE-LX, IEEE 802.3z); else the shortest single-mode reach class that
    reaches it ("LR" past them all: the schedule's reach check says so)."""
    if medium == "MMF":
        return "SR"
    if gbps is not None and gbps <= 1:
        return "LX"
    return next((name for name, reach in SINGLE_MODE_CLASSES if length_m <= reach + 1e-9),
                SINGLE_MODE_CLASSES[-1][0])


def dac_reach_m(gbps: float) -> float:
    if gbps <= 100:
        return 5.0
    if gbps <= 400:
        return 3.0
    return 2.0


def _stock(lengths: tuple[float, ...], length_m: float) -> float:
    return next(x for x in lengths if x + 1e-9 >= length_m)


def choose_medium(gbps: float, length_m: float) -> Medium:
    """The cheapest medium that reaches ``length_m`` at ``gbps``, in its stock length."""
    if gbps <= 10:
        if length_m <= CAT6_LENGTHS[-1]:
            return Medium("Cat6A", _stock(CAT6_LENGTHS, length_m), 0)
    else:
        if length_m <= dac_reach_m(gbps):
            return Medium("DAC", _stock(DAC_LENGTHS, length_m), 0)
        if gbps >= 400 and length_m <= ACC_LENGTHS[-1]:
            return Medium("ACC", _stock(ACC_LENGTHS, length_m), 0)
        if gbps <= 200 and length_m <= AOC_LENGTHS[-1]:
            return Medium("AOC", _stock(AOC_LENGTHS, length_m), 0)
    if length_m <= 50:
        return Medium("MMF", _stock(FIBRE_LENGTHS, length_m), 2)
    if length_m <= FIBRE_LENGTHS[-1]:
        return Medium("SMF", _stock(FIBRE_LENGTHS, length_m), 2)
    return Medium("SMF", round(length_m + 0.5), 2)  # a custom run beyond 2 km


def _ladder(gbps: float) -> tuple[tuple[float, tuple[float, ...]], ...]:
    """(reach, stock lengths) of the media ``choose_medium`` tries at ``gbps``, in its order,
    without those an earlier one always wins (their reach is within an earlier reach)."""
    if gbps <= 10:
        tried = [(CAT6_LENGTHS[-1], CAT6_LENGTHS)]
    else:
        tried = [(dac_reach_m(gbps), DAC_LENGTHS)]
        if gbps >= 400:
            tried.append((ACC_LENGTHS[-1], ACC_LENGTHS))
        if gbps <= 200:
            tried.append((AOC_LENGTHS[-1], AOC_LENGTHS))
    tried += [(50.0, FIBRE_LENGTHS), (FIBRE_LENGTHS[-1], FIBRE_LENGTHS)]
    out: list[tuple[float, tuple[float, ...]]] = []
    for reach, lengths in tried:
        if not out or reach > out[-1][0]:
            out.append((reach, lengths))
    return tuple(out)


def medium_buckets(gbps: float, lengths_m):
    """For a numpy array of run lengths at ``gbps``: an integer per run, equal for two runs
    exactly when ``choose_medium`` gives them the same medium and stock length (the same
    comparisons, made on whole columns; a big plan routes over a million runs). Runs
    beyond the longest stock length get -1: ``choose_medium`` makes each a custom length."""
    import numpy as np

    ladder = _ladder(gbps)
    reaches = np.array([reach for reach, _ in ladder])
    segment = np.searchsorted(reaches, lengths_m, side="left")  # the first medium with length <= reach
    out = np.full(len(lengths_m), -1, dtype=np.int64)
    offset = 0
    for i, (_, stock) in enumerate(ladder):
        inside = segment == i
        if inside.any():
            # the first stock length x with x + 1e-9 >= length, as _stock compares
            out[inside] = offset + np.searchsorted(np.array(stock) + 1e-9, lengths_m[inside], side="left")
        offset += len(stock)
    return out
