"""``byte_dma`` on the platform's pyuvm machinery through its binding only (blocks/selftest_dma/env.py): bursts of
random descriptors with several jobs in flight, under memory latency and TREADY backpressure; every job's bytes and
tag checked, and the output framed into jobs by what the binding says the completion pulse means
(``COMPLETION=issued|drained``)."""

from __future__ import annotations

from dlaverif.platform import ReaderTestBase, declare_sequence_tests

from .env import DmaEnv, DmaTB
from .sequences import DescriptorBurstSeq, ResetInFlightSeq


class DmaTestBase(ReaderTestBase):
    tb_cls = DmaTB
    env_cls = DmaEnv


declare_sequence_tests(
    DmaTestBase,
    2,
    RandomDescriptorBursts=(
        DescriptorBurstSeq,
        "job",
        "Bursts of random descriptors (back to back or with gaps) at up to QUEUE_DEPTH jobs in flight.",
    ),
    ResetWithJobsInFlight=(
        ResetInFlightSeq,
        "job",
        "A reset with several jobs in flight: they are dropped and reported as such, the DUT comes back clean (no "
        "read, transfer or completion after the reset) and the jobs after it are exact.",
    ),
)
