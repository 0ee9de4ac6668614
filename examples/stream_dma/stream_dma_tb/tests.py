"""stream_dma's tests (the cocotb module of testplan.yaml): random job bursts, and the scoreboard's self-tests."""

from __future__ import annotations

import numpy as np
import pyuvm

from dlaverif.platform import CorruptModelBase, ScoreboardSelfTestBase, SmallJobs

from .bench import StreamDmaTest
from .scoreboard import Expected
from .sequences import RandomJobsSeq


@pyuvm.test(timeout_time=4, timeout_unit="ms")
class RandomJobBursts(StreamDmaTest):
    """COUNT random jobs at any byte address in bursts, up to four in flight, under memory latency, R gaps and
    TREADY backpressure: every job's bytes, its TUSER, its status (tag, error) checked."""

    sequence = (RandomJobsSeq, "job")


def _flip_byte(job, exp: Expected, rng: np.random.Generator) -> str:
    exp.data[int(rng.integers(0, exp.data.size))] ^= 0x5A
    return "data mismatch"


def _error_flag(job, exp: Expected, rng: np.random.Generator) -> str:
    exp.error ^= 1
    return "TUSER"


class _SelfTest(StreamDmaTest, ScoreboardSelfTestBase):
    corruptions = (_flip_byte, _error_flag)
    small_jobs = SmallJobs(RandomJobsSeq, lambda seq, i: seq.send(seq.random_item(seq.next_name(), 0)))


@pyuvm.test(timeout_time=2, timeout_unit="ms")
class ScoreboardSelfTest(_SelfTest):
    """Each corruption of the expected answer is reported for exactly the corrupted job, with jobs in flight."""


@pyuvm.test(timeout_time=2, timeout_unit="ms", expect_fail=True)
class CorruptModelIsCaught(_SelfTest, CorruptModelBase):
    """expect_fail twin: a flipped byte in the expected answer must fail the test."""
