"""Which job each output transfer belongs to, and when each job closed, by what the binding says its completion
signal means (:class:`~dlaverif.platform.binding.Completion`): pure functions over cycle-stamped records, no simulator.

Transfers are framed into jobs in job order by TLAST (a job's last transfer carries it). A job then *closes*:

* ``DRAINED``: at its completion (the DUT's DONE / done pulse, the k-th completion for the k-th job): every transfer
  of the job must have been accepted at or before that cycle;
* ``ISSUED``: at its last transfer (TLAST); the completion only says the DUT issued the job's work.

A transfer that arrives for a job already closed is a :class:`ProtocolError` naming the job, the transfer and the
cycle, reported once per job (with how many more came late), never a data mismatch: the transfer is still counted
in its own job, so the data check sees every job whole. Completions without a job, jobs without a completion and
transfers after the last job's TLAST are protocol errors too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np

from dlaverif.agents.stream import BeatBatch
from dlaverif.platform.binding import Completion

#: how a job closed, as a report says it
CLOSED_BY = {
    Completion.DRAINED: "by its completion (the binding says completion means 'drained': output delivered)",
    Completion.ISSUED: "at its last transfer (the binding says completion means 'issued')",
}


@dataclass(frozen=True)
class ProtocolError:
    """A protocol error of one job (``job``: its name, or "" when no job can own it)."""

    job: str
    cycle: int
    text: str

    def __str__(self) -> str:
        return f"protocol error: {self.text}"


@dataclass
class FramedJob:
    """One job's share of the stream: its transfers (``dlaverif.agents.stream.Beat``: ``data``, ``last``, ``user``,
    ``cycle``), the cycle of its completion and the cycle it closed (None: never)."""

    name: str
    beats: list[Any] = field(default_factory=list)
    completed: Optional[int] = None
    closed: Optional[int] = None


@dataclass
class Framing:
    """The jobs with their transfers, and the protocol errors found while framing them."""

    jobs: list[FramedJob]
    errors: list[ProtocolError]


def frame(
    names: Sequence[str],
    beats: Sequence[Any],
    completions: Sequence[int],
    meaning: Completion,
    tags: Optional[Sequence[int]] = None,
) -> Framing:
    """Frame ``beats`` (in stream order) into the jobs ``names`` (in the order the DUT accepted them), with the
    DUT's ``completions`` (cycles, in job order), closing each job as ``meaning`` says (module docstring).

    ``tags``: the jobs' tags, when the stream carries its job's tag in TUSER: each transfer then goes to the oldest
    job with its tag whose TLAST has not been seen (jobs may interleave on the stream); without tags the stream
    delivers the jobs one after the other, in job order."""
    jobs = [FramedJob(n) for n in names]
    errors: list[ProtocolError] = []
    for job, cycle in zip(jobs, completions):
        job.completed = cycle
        if meaning is Completion.DRAINED:
            job.closed = cycle
    for cycle in completions[len(jobs) :]:
        errors.append(ProtocolError("", cycle, f"completion at cycle {cycle} with no job in flight"))
    open_jobs = list(range(len(jobs)))  # the jobs whose TLAST has not been seen, in job order
    for i, beat in enumerate(beats):
        at = _owner(open_jobs, tags, beat.user)
        if at is None:
            errors.append(
                ProtocolError(
                    "",
                    beat.cycle,
                    f"transfer #{i} at cycle {beat.cycle} belongs to no job: "
                    + _why_orphan(jobs, open_jobs, tags, beat.user),
                )
            )
            continue
        job = jobs[open_jobs[at]]
        job.beats.append(beat)
        if beat.last:
            if meaning is Completion.ISSUED:
                job.closed = beat.cycle
            del open_jobs[at]
    for job in jobs:
        errors += _late(job, meaning)
    return Framing(jobs, errors)


def _owner(open_jobs: list[int], tags: Optional[Sequence[int]], tag: int) -> Optional[int]:
    """The position in ``open_jobs`` of the job a transfer with TUSER ``tag`` belongs to (None: no open job)."""
    if not open_jobs:
        return None
    if tags is None:
        return 0
    return next((p for p, j in enumerate(open_jobs) if tags[j] == tag), None)


def _why_orphan(jobs: list[FramedJob], open_jobs: list[int], tags: Optional[Sequence[int]], tag: int) -> str:
    if not jobs:
        return "no job was started"
    if open_jobs and tags is not None:
        return f"its tag {tag} is the tag of no job in flight"
    last = jobs[-1]
    return f"the last job {last.name} closed at cycle {last.closed}"


def _late(job: FramedJob, meaning: Completion) -> list[ProtocolError]:
    """The job's transfers after it closed (one error naming the first), or its missing completion."""
    if job.completed is None:
        return [ProtocolError(job.name, -1, f"job {job.name} never completed ({len(job.beats)} transfer(s) seen)")]
    if job.closed is None:
        return []
    return late_transfers(job.name, job.beats, job.closed, meaning)


def late_transfers(job: str, beats: Any, closed: int, meaning: Completion) -> list[ProtocolError]:
    """One error naming the first of ``beats`` (a list of ``Beat`` or a ``BeatBatch``: the transfers of ``job``)
    accepted after cycle ``closed``, when the job closed, with how many more did; [] if none did."""
    cycles = beats.cycle if isinstance(beats, BeatBatch) else np.fromiter((b.cycle for b in beats), np.int64)
    late = np.flatnonzero(cycles > closed)
    if not late.size:
        return []
    j = int(late[0])
    more = f"; {late.size - 1} more of its transfers came after it" if late.size > 1 else ""
    return [
        ProtocolError(
            job,
            int(cycles[j]),
            f"job {job} closed at cycle {closed} {CLOSED_BY[meaning]}, but its transfer #{j} of {len(cycles)} "
            f"arrived at cycle "
            f"{int(cycles[j])}{more}",
        )
    ]


def summary(errors: Sequence[ProtocolError]) -> str:
    """One sentence for a test's protocol errors: the first in full, and how many other jobs had one ("" if none)."""
    if not errors:
        return ""
    first = errors[0]
    others = len({e.job for e in errors if e.job != first.job})
    return f"{first}" + (f" ({others} more job(s) affected)" if others else "")
