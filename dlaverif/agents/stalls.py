"""Stall patterns for every agent's handshake knobs (ARREADY, RVALID, TREADY), with one convention.

A pattern is an iterator of 0/1 per clock cycle where **1 means stall** (the agent withholds its ready or valid
that cycle), which is the meaning of cocotbext-axi's pause generators. :func:`profile` turns a knob name into a
fresh pattern, so sequences, directed tests and coverage all speak of the same named profiles.
"""

from __future__ import annotations

import itertools
from typing import Iterable, Iterator, Optional

import numpy as np

#: the named profiles of :func:`profile` (the coverage bins of every stall knob)
PROFILES = ("none", "every4", "quarter", "random", "half", "bursty")

#: ``held``: a directed profile outside :data:`PROFILES` (no random knob draws it, no coverage bin counts it) - the
#: first HELD_CYCLES cycles of a job stalled, then none, so a consumer's queues fill to what the reads can bring
HELD_CYCLES = 8192


def every_nth(n: int, stall: int = 1) -> Iterator[int]:
    """``stall`` stalled cycles out of every ``n``."""
    return itertools.cycle([1] * stall + [0] * (n - stall))


def random_stalls(rng: np.random.Generator, p: float, chunk: int = 4096) -> Iterator[int]:
    """Stall with probability ``p`` each cycle (drawn in numpy chunks to stay cheap)."""
    while True:
        yield from (rng.random(chunk) < p).astype(np.int8).tolist()


def bursty(rng: np.random.Generator, on: int = 8, off: int = 8) -> Iterator[int]:
    """Alternating runs of ready and stalled cycles with random lengths up to ``on``/``off``."""
    while True:
        yield from itertools.repeat(0, int(rng.integers(1, on + 1)))
        yield from itertools.repeat(1, int(rng.integers(1, off + 1)))


def pattern(values: Iterable[int]) -> Iterator[int]:
    """A fixed pattern repeated forever."""
    return itertools.cycle(list(values))


def profile(name: str, rng: np.random.Generator) -> Optional[Iterator[int]]:
    """The pattern of a named profile (None for ``none``): ``every4`` stalls 1 cycle in 4, ``quarter`` 1 in 4 at
    the end of each group, ``random`` 30 % of cycles, ``half`` 50 %, ``bursty`` runs of up to 12 ready and 6
    stalled cycles, ``held`` (directed only) the first :data:`HELD_CYCLES` cycles. ``rng`` seeds the random ones
    (a child generator is drawn, so ``rng`` advances once)."""
    if name == "none":
        return None
    if name == "every4":
        return every_nth(4, 1)
    if name == "quarter":
        return pattern([0, 0, 0, 1])
    if name == "held":
        return itertools.chain(itertools.repeat(1, HELD_CYCLES), itertools.repeat(0))
    child = np.random.default_rng(int(rng.integers(1 << 32)))
    if name == "random":
        return random_stalls(child, 0.3)
    if name == "half":
        return random_stalls(child, 0.5)
    if name == "bursty":
        return bursty(child, 12, 6)
    raise ValueError(f"unknown stall profile {name!r}; profiles: {', '.join(PROFILES)}")
