"""The checks of a job that reads one contiguous byte range (:class:`~dlaverif.platform.tb.ContiguousReaderTB`'s
jobs: ``addr``, ``blob``), written once for any such DMA or descriptor reader:

* its bytes, packed from lane 0 of its transfers, against the bytes the memory holds there (``blob``): one line
  with the first difference, its address and the transfer that carried it;
* only its last transfer may be short (every other one carries the bus's ``BUS_BYTES``);
* every transfer's TUSER is the job's value (:meth:`ContiguousScoreboard.user_of`: its id, an error flag of 0, ...);
* plus what the platform's checkers saw of the job (the read checker, the stream monitor, its assertions).

A block subclasses :class:`ContiguousScoreboard` with what its TUSER carries; its scoreboard self-tests corrupt the
expected answer with :func:`flip_byte` and :func:`flip_user`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dlaverif.platform.job import Expectation
from dlaverif.platform.reporting import hex_bytes
from dlaverif.platform.scoreboard import JobScoreboard
from dlaverif.platform.sequences import config_value


@dataclass
class ContiguousExpectation(Expectation):
    """What a job of one byte range must give: its bytes, in address order, and the TUSER of every transfer."""

    data: np.ndarray
    user: int


class ContiguousScoreboard(JobScoreboard):
    """The scoreboard of jobs that read one contiguous byte range each (the module's checks)."""

    #: what TUSER carries, named in the report of a wrong one ("the job's id", "the error flag")
    user_means = "TUSER"

    def user_of(self, job) -> int:
        """The TUSER every transfer of ``job`` carries (default 0)."""
        return 0

    def expected(self, job) -> ContiguousExpectation:
        return ContiguousExpectation(job.blob.copy(), self.user_of(job))

    def compare(self, job, exp: ContiguousExpectation) -> list[str]:
        beats = list(job.response().beats)
        got = np.frombuffer(b"".join(bytes(b.data) for b in beats), np.uint8)
        n = min(got.size, exp.data.size)
        diff = np.flatnonzero(got[:n] != exp.data[:n])
        bus = config_value("BUS_BYTES")
        out = []
        if got.size != exp.data.size or diff.size:
            at = int(diff[0]) if diff.size else n
            sizes = np.cumsum([len(b.data) for b in beats])
            k = min(int(np.searchsorted(sizes, at, side="right")), len(beats) - 1)
            where = f"transfer #{k} of {len(beats)} at cycle {beats[k].cycle}" if beats else "no transfer"
            out.append(
                f"data mismatch: {got.size} bytes, {exp.data.size} expected; first difference at byte {at} "
                f"(address 0x{job.addr + at:x}): got {hex_bytes(got[at : at + 8])}, "
                f"expected {hex_bytes(exp.data[at : at + 8])}; in {where}"
            )
        short = [i for i, b in enumerate(beats[:-1]) if len(b.data) != bus]
        if short:
            i = short[0]
            out.append(
                f"transfer #{i}/{len(beats)} at cycle {beats[i].cycle}: {len(beats[i].data)} bytes, not {bus} "
                "(only the last may be short)"
            )
        wrong = [b for b in beats if b.user != exp.user]
        if wrong:
            out.append(f"TUSER {wrong[0].user} at cycle {wrong[0].cycle}, expected {exp.user} ({self.user_means})")
        return out + job.response().violations  # the read checker's and the stream monitor's, for this job


def flip_byte(job, exp: ContiguousExpectation, rng: np.random.Generator) -> str:
    """A scoreboard self-test's corruption: one random expected byte flipped; reported as a data mismatch."""
    exp.data[int(rng.integers(0, exp.data.size))] ^= 0xA5
    return "data mismatch"


def flip_user(job, exp: ContiguousExpectation, rng: np.random.Generator) -> str:
    """A scoreboard self-test's corruption: the expected TUSER's low bit flipped; reported as a wrong TUSER."""
    exp.user ^= 1
    return "TUSER"
