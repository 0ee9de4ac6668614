"""nvdla_reader's tests (the cocotb module of testplan.yaml): bursts of random cubes checked against
``models.nvdla.feature``, and the scoreboard's self-tests with the generic NVDLA client's corruptions."""

from __future__ import annotations

import pyuvm

from dlaverif.platform import CorruptModelBase, ScoreboardSelfTestBase, SmallJobs
from dlaverif.platform.nvdla_client import CORRUPTIONS

from .bench import NvdlaReaderTest
from .items import CubeJob
from .sequences import CubeSeq


@pyuvm.test(timeout_time=2, timeout_unit="ms")
class RandomCubes(NvdlaReaderTest):
    """Random cubes (int8, int16, fp16; channels on and off an atom's multiple; strides with gaps; bases across
    4 GB) under memory latency, response gaps, request stalls and output backpressure; posted and non-posted CSB
    writes, some read back: every request, word, flag, done pulse and readback checked."""

    sequence = (CubeSeq, "cube")


class _NonPostedSeq(CubeSeq):
    """Every register written non-posted: the enable's response comes after the cube's first request is out."""

    def random_item(self, name: str, burst: int) -> CubeJob:
        job = super().random_item(name, burst)
        job.nposted = True
        return job


@pyuvm.test(timeout_time=2, timeout_unit="ms")
class NonPostedBursts(NvdlaReaderTest):
    """Bursts of cubes programmed with non-posted writes only: each burst's first cube starts reading while its
    enable still waits for its response, and its requests stay its own (not the previous burst's)."""

    sequence = (_NonPostedSeq, "nposted")


class _SelfTest(NvdlaReaderTest, ScoreboardSelfTestBase):
    corruptions = CORRUPTIONS
    small_jobs = SmallJobs(CubeSeq, lambda seq, i: seq.send(seq.random_item(seq.next_name(), 0)))


@pyuvm.test(timeout_time=2, timeout_unit="ms")
class ScoreboardSelfTest(_SelfTest):
    """Each corruption of the model's answer is reported for exactly the corrupted cube."""


@pyuvm.test(timeout_time=2, timeout_unit="ms", expect_fail=True)
class CorruptModelIsCaught(_SelfTest, CorruptModelBase):
    """expect_fail twin: a flipped byte in the model's answer must fail the test."""
