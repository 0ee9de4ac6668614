"""The timing knobs of one job (memory latency and named stall profiles) and their random draw."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Knobs:
    """Timing knobs of one job (names end up in coverage and in mismatch reports)."""

    latency: int = 0  # memory read latency, cycles
    ar_stall: str = "none"  # ARREADY withheld: a profile of dlaverif.agents.stalls
    r_gap: str = "none"  # RVALID gaps: a profile of dlaverif.agents.stalls
    backpressure: str = "none"  # TREADY withheld: a profile of dlaverif.agents.stalls

    def __str__(self) -> str:
        return f"latency={self.latency} ar={self.ar_stall} r={self.r_gap} tready={self.backpressure}"

    def stall_factor(self) -> int:
        """How much slower than a quiet job a job may run under these stalls (the hang bounds' factor)."""
        return 1 + 4 * sum(k != "none" for k in (self.ar_stall, self.r_gap, self.backpressure))


#: stall profiles the random knobs draw from (dlaverif.agents.stalls)
STALLS = ("none", "every4", "random", "bursty")


def random_knobs(rng: np.random.Generator, quiet: float = 0.4, heavy: bool = False) -> Knobs:
    """Timing knobs: all quiet with probability ``quiet``, else random stalls and latency."""
    if not heavy and rng.random() < quiet:
        return Knobs()

    def pick() -> str:
        return str(rng.choice(STALLS, p=[0.1, 0.3, 0.3, 0.3] if heavy else [0.4, 0.2, 0.2, 0.2]))

    lat = int(rng.choice([0, 1, 3, 8, 20, 40], p=[0.3, 0.2, 0.2, 0.1, 0.1, 0.1]))
    return Knobs(latency=lat, ar_stall=pick(), r_gap=pick(), backpressure=pick())
