"""byte_dma's scoreboard self-tests, declared as data on the platform's scaffold (cocotb test module
``blocks.selftest_dma.selftests``): the same two tests as our readers', with several jobs in flight."""

from __future__ import annotations

import numpy as np

from dlaverif.platform import SmallJobs, declare_scoreboard_selftests

from .env import Expected
from .sequences import DescriptorBurstSeq
from .tests import DmaTestBase


def _flip_byte(item, exp: Expected, rng: np.random.Generator) -> str:
    i = int(rng.integers(0, exp.data.size))
    exp.data[i] ^= 0x5A
    return f"first difference at {i}"


def _other_tag(item, exp: Expected, rng: np.random.Generator) -> str:
    exp.tag ^= 0x80
    return "TUSER"


def _one_word_more(item, exp: Expected, rng: np.random.Generator) -> str:
    exp.words = np.append(exp.words, exp.words[-1] + 1)
    return "its AR bursts read bus words"


declare_scoreboard_selftests(
    DmaTestBase,
    2,
    corruptions=(_flip_byte, _other_tag, _one_word_more),
    small_jobs=SmallJobs(DescriptorBurstSeq, lambda seq, i: seq.send(seq.random_item(seq.next_name(), 0))),
    what="a flipped byte, another tag, one bus word more to read; the jobs in flight at the same time",
)
