"""``pin_dma`` (start/done pins) through the same items, sequence, driver, job protocol, scoreboard and coverage
as byte_dma (cocotb test module ``blocks.selftest_dma.pin_tests``)."""

from __future__ import annotations

from dlaverif.platform import ReaderTestBase, declare_sequence_tests

from .pins import PinDmaEnv, PinDmaTB
from .sequences import DescriptorBurstSeq


class PinTestBase(ReaderTestBase):
    tb_cls = PinDmaTB
    env_cls = PinDmaEnv


declare_sequence_tests(
    PinTestBase,
    2,
    RandomPinJobs=(
        DescriptorBurstSeq,
        "job",
        "The bursts of random jobs of byte_dma's test, one job at a time through go_i / fin_o.",
    ),
)
