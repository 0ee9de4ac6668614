"""Which job of a batch each AR burst, R beat and read-checker violation belongs to, when several jobs are in flight
at once (:class:`dlaverif.platform.control_pipelined.PipelinedJobs`): pure functions over the monitors' records, no
simulator.

* An AR burst belongs to the job whose footprint (its regions, what the read checker enforces) the burst's bytes
  overlap. Jobs are fetched in the order they were handed over (a descriptor queue), so when several footprints
  match (jobs reading the same bytes) the burst goes to the earliest of them not before the previous burst's job;
  a burst that matches no footprint (a stray read, which the read checker reports) stays with the previous burst's
  job (the first job for the first burst).
* An R beat belongs to the burst it answers: AXI4 returns one ID's bursts in order (IHI 0022 A5.3.1), so the beats
  are dealt out in AR order, ``ARLEN + 1`` per burst (``Burst.responses``: NVDLA's DMA answers two atoms a
  response); beats beyond every burst's count go to the last burst's job.
* A read-checker violation names its burst (``str(burst)`` opens the text) and goes with that burst; a violation
  that names its clock cycle (``(cycle N)``: the design's failed assertions, :mod:`dlaverif.platform.assertions`)
  goes to every job in flight in that cycle (:func:`in_flight`: from its hand-over to its close); any other
  (stream) stays with the batch's first job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from dlaverif.footprint import Region


@dataclass
class JobReads:
    """One job's share of a batch's bus records."""

    ar: list[Any] = field(default_factory=list)
    r: list[Any] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)


def _overlaps(burst: Any, regions: Sequence[Region]) -> bool:
    lo = burst.addr - burst.addr % (1 << burst.size)  # the burst's aligned start (its first beat's bus word)
    hi = lo + burst.nbytes
    return any(r.lo < hi and lo < r.hi for r in regions)


def burst_owners(footprints: Sequence[Sequence[Region]], bursts: Sequence[Any]) -> list[int]:
    """The index of the job (into ``footprints``, in hand-over order) each burst belongs to."""
    owners, current = [], 0
    for b in bursts:
        hits = [k for k, regions in enumerate(footprints) if _overlaps(b, regions)]
        later = [k for k in hits if k >= current]
        if later or hits:
            current = (later or hits)[0]
        owners.append(current)
    return owners


#: how a violation names its clock cycle (:meth:`dlaverif.platform.assertions.Failure.describe`)
CYCLE = re.compile(r"\(cycle (\d+)\)")
#: a job's span of cycles: from its hand-over to its close (None: not closed, open to the end)
Span = tuple[int, Optional[int]]


def in_flight(spans: Sequence[Span], cycle: int) -> list[int]:
    """The jobs (indices into ``spans``) in flight at ``cycle``: handed over at or before it and not closed before
    it; when none is, the last job handed over at or before it (what it did may still be on the buses), or the
    first job."""
    hits = [k for k, (lo, hi) in enumerate(spans) if lo <= cycle and (hi is None or cycle <= hi)]
    if hits or not spans:
        return hits
    before = [k for k, (lo, _) in enumerate(spans) if lo <= cycle]
    return [before[-1] if before else 0]


def attribute(
    footprints: Sequence[Sequence[Region]],
    bursts: Sequence[Any],
    beats: Sequence[Any],
    violations: Sequence[str],
    spans: Optional[Sequence[Span]] = None,
) -> list[JobReads]:
    """Each job's AR bursts, R beats and violations (see the module's rules), one :class:`JobReads` per footprint;
    ``spans``: each job's span of cycles, for the violations that name their cycle."""
    shares = [JobReads() for _ in footprints]
    if not shares:
        return shares
    owners = burst_owners(footprints, bursts)
    for b, k in zip(bursts, owners):
        shares[k].ar.append(b)
    dealt = [k for b, k in zip(bursts, owners) for _ in range(b.responses)]  # the job of the i-th R beat
    tail = owners[-1] if owners else 0
    for i, beat in enumerate(beats):
        shares[dealt[i] if i < len(dealt) else tail].r.append(beat)
    by_burst = {str(b): k for b, k in zip(bursts, owners)}
    for v in violations:
        head = v.split(":", 1)[0]
        at = CYCLE.search(v)
        if head not in by_burst and at is not None and spans:
            for k in in_flight(spans, int(at.group(1))):
                shares[k].violations.append(v)
            continue
        shares[by_burst.get(head, 0)].violations.append(v)
    return shares
