"""stream_dma's checks: each job's bytes, realigned to lane 0 of its transfers, against the memory; only its last
transfer may be short; TUSER (the error flag) clear; its reads and its stream obey the protocol checkers. Its status
(tag, error) is checked by the platform (the binding's ``status``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dlaverif.platform import Expectation, JobScoreboard, config_value, hex_bytes

from .items import DmaJob


@dataclass
class Expected(Expectation):
    data: np.ndarray
    error: int


class RealignedScoreboard(JobScoreboard):
    def expected(self, job: DmaJob) -> Expected:
        return Expected(job.blob.copy(), 0)

    def compare(self, job: DmaJob, exp: Expected) -> list[str]:
        beats = list(job.response().beats)
        got = np.frombuffer(b"".join(bytes(b.data) for b in beats), np.uint8)
        n = min(got.size, exp.data.size)
        diff = np.flatnonzero(got[:n] != exp.data[:n])
        bus = config_value("BUS_BYTES")
        out = []
        if got.size != exp.data.size or diff.size:
            at = int(diff[0]) if diff.size else n
            k = min(at // bus, len(beats) - 1)
            where = f"transfer #{k} of {len(beats)} at cycle {beats[k].cycle}" if beats else "no transfer"
            out.append(
                f"data mismatch: {got.size} bytes, {exp.data.size} expected; first difference at byte {at} "
                f"(address 0x{job.addr + at:x}, {where}): got {hex_bytes(got[at : at + 8])}, "
                f"expected {hex_bytes(exp.data[at : at + 8])}"
            )
        short = [i for i, b in enumerate(beats[:-1]) if len(b.data) != bus]
        if short:
            i = short[0]
            out.append(f"transfer #{i}/{len(beats)} at cycle {beats[i].cycle}: {len(beats[i].data)} bytes, not {bus}")
        wrong = [b for b in beats if b.user != exp.error]
        if wrong:
            out.append(f"TUSER {wrong[0].user} at cycle {wrong[0].cycle}, expected {exp.error} (error flag)")
        return out + job.response().violations  # the read checker's and the stream monitor's, for this job
