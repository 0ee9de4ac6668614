"""``pin_dma`` (start/done pins) through the same items, sequence, driver, job protocol, scoreboard and coverage
as byte_dma (cocotb test module ``tb.selftest_dma.pin_tests``)."""

from __future__ import annotations

import pyuvm

from tb.platform import ReaderTestBase

from .pins import PinDmaEnv, PinDmaTB
from .sequences import DescriptorBurstSeq


@pyuvm.test(timeout_time=2, timeout_unit="ms")
class RandomPinJobs(ReaderTestBase):
    """The bursts of random jobs of byte_dma's test, one job at a time through go_i / fin_o."""

    tb_cls = PinDmaTB
    env_cls = PinDmaEnv
    sequence = (DescriptorBurstSeq, "job")
