"""desc_reader's checks: the library's for a job of one byte range (its bytes packed from lane 0 of its transfers
against the memory, only its last transfer short), with TUSER carrying the job's id."""

from __future__ import annotations

from dlaverif.platform import ContiguousScoreboard

from .items import ReadJob


class PackedScoreboard(ContiguousScoreboard):
    user_means = "the job's id"

    def user_of(self, job: ReadJob) -> int:
        return job.job_id
