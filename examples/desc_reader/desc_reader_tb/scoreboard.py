"""desc_reader's checks: each job's bytes, packed from lane 0 of its transfers, against the memory; only its last
transfer may be short; TUSER carries its id."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dlaverif.platform import Expectation, JobScoreboard, config_value, hex_bytes

from .items import ReadJob


@dataclass
class Expected(Expectation):
    data: np.ndarray
    job_id: int


class PackedScoreboard(JobScoreboard):
    def expected(self, job: ReadJob) -> Expected:
        return Expected(job.blob.copy(), job.job_id)

    def compare(self, job: ReadJob, exp: Expected) -> list[str]:
        beats = list(job.response().beats)
        got = np.frombuffer(b"".join(bytes(b.data) for b in beats), np.uint8)
        n = min(got.size, exp.data.size)
        diff = np.flatnonzero(got[:n] != exp.data[:n])
        out = []
        if got.size != exp.data.size or diff.size:
            at = int(diff[0]) if diff.size else n
            out.append(
                f"data mismatch: {got.size} bytes, {exp.data.size} expected; first difference at byte {at} "
                f"(address 0x{job.addr + at:x}): got {hex_bytes(got[at : at + 8])}, "
                f"expected {hex_bytes(exp.data[at : at + 8])}"
            )
        bus = config_value("BUS_BYTES")
        short = [i for i, b in enumerate(beats[:-1]) if len(b.data) != bus]
        if short:
            i = short[0]
            out.append(f"transfer #{i}/{len(beats)}: {len(beats[i].data)} bytes, not {bus} (only the last is short)")
        wrong = [b for b in beats if b.user != exp.job_id]
        if wrong:
            out.append(f"TUSER {wrong[0].user} at cycle {wrong[0].cycle}, the job's id is {exp.job_id}")
        return out + job.response().violations  # the read checker's and the stream monitor's, for this job
