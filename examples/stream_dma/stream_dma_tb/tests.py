"""stream_dma's tests (the cocotb module of testplan.yaml): random job bursts, and the scoreboard's self-tests."""

from __future__ import annotations

import pyuvm

from dlaverif.platform import SmallJobs, declare_scoreboard_selftests, flip_byte, flip_user

from .bench import StreamDmaTest
from .sequences import RandomJobsSeq


@pyuvm.test(timeout_time=4, timeout_unit="ms")
class RandomJobBursts(StreamDmaTest):
    """COUNT random jobs at any byte address in bursts, up to four in flight, under memory latency, R gaps and
    TREADY backpressure: every job's bytes, its TUSER, its status (tag, error) checked."""

    sequence = (RandomJobsSeq, "job")


declare_scoreboard_selftests(
    StreamDmaTest,
    2,
    (flip_byte, flip_user),
    SmallJobs(RandomJobsSeq, lambda seq, i: seq.send(seq.random_item(seq.next_name(), 0))),
    "a flipped byte, another TUSER",
)
