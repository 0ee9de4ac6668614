"""desc_reader's tests (the cocotb module of testplan.yaml): random job bursts, and the scoreboard's self-tests."""

from __future__ import annotations

import numpy as np
import pyuvm

from dlaverif.platform import CorruptModelBase, ScoreboardSelfTestBase, SmallJobs

from .bench import DescReaderTest
from .scoreboard import Expected
from .sequences import RandomJobsSeq


@pyuvm.test(timeout_time=2, timeout_unit="ms")
class RandomJobBursts(DescReaderTest):
    """Bursts of random jobs at unaligned addresses, up to three in flight, under memory latency, R gaps and
    TREADY backpressure: every job's bytes and id checked."""

    sequence = (RandomJobsSeq, "job")


def _flip_byte(job, exp: Expected, rng: np.random.Generator) -> str:
    exp.data[int(rng.integers(0, exp.data.size))] ^= 0xA5
    return "data mismatch"


def _other_id(job, exp: Expected, rng: np.random.Generator) -> str:
    exp.job_id ^= 1
    return "TUSER"


class _SelfTest(DescReaderTest, ScoreboardSelfTestBase):
    corruptions = (_flip_byte, _other_id)
    small_jobs = SmallJobs(RandomJobsSeq, lambda seq, i: seq.send(seq.random_item(seq.next_name(), 0)))


@pyuvm.test(timeout_time=2, timeout_unit="ms")
class ScoreboardSelfTest(_SelfTest):
    """Each corruption of the expected answer is reported for exactly the corrupted job, with jobs in flight."""


@pyuvm.test(timeout_time=2, timeout_unit="ms", expect_fail=True)
class CorruptModelIsCaught(_SelfTest, CorruptModelBase):
    """expect_fail twin: a flipped byte in the expected answer must fail the test."""
