"""NVIDIA's PDP read DMA against ``models.nvdla`` feature cubes (blocks/pdp_rdma/env.py): random layers in bursts of two
in flight, every request, output word, flag, done pulse and credit checked; and the scoreboard's self-tests."""

from __future__ import annotations

import numpy as np
import pyuvm

from dlaverif.platform import CorruptModelBase, ReaderTestBase, ScoreboardSelfTestBase, SmallJobs
from dlaverif.platform.nvdla_client import CORRUPTIONS, ClientExpected

from .env import STREAM, PdpEnv, PdpTB
from .items import PdpItem
from .sequences import LayerSeq, LongLineSeq, StressSeq


class PdpTestBase(ReaderTestBase):
    tb_cls = PdpTB
    env_cls = PdpEnv
    default_count = 8


#: simulated-time bounds (hang detection only): COUNT 24 of RandomLayers takes about 50 us, COUNT 8 of LongLines
#: about 320 us; a hung layer costs the platform's settle bound (100,000 cycles, 1 ms) per batch
@pyuvm.test(timeout_time=2, timeout_unit="ms")
class RandomLayers(PdpTestBase):
    """Random cubes (int8, int16, fp16; channels on and off the atom; strides with gaps; bases across 4 GB; MC and
    CV) in bursts of back-to-back layers through both register groups, quiet and under latency, gaps, stalls and
    backpressure; posted and non-posted register writes, some read back."""

    sequence = (LayerSeq, "layer")


@pyuvm.test(timeout_time=2, timeout_unit="ms")
class StressLayers(PdpTestBase):
    """The same layers with heavy random knobs on every handshake (request ready, response valid, output ready)."""

    sequence = (StressSeq, "stress")


@pyuvm.test(timeout_time=5, timeout_unit="ms")
class LongLines(PdpTestBase):
    """Lines of hundreds of atoms among short ones (the 4-bit position field wraps many times); under output
    backpressure the block holds all 61 credits and the memory must wait for them."""

    sequence = (LongLineSeq, "long")

    async def body(self) -> None:
        await super().body()
        waits = self.tb.mem.credit_waits()
        self.logger.info("responses held back for credits: %d cycles", waits)
        assert waits > 0, "the block never held all its credits: the latency FIFO limit was not reached"


def _drop_flag(item, exp: ClientExpected, rng: np.random.Generator) -> str:
    exp.flags[-1] &= ~np.uint64(1 << STREAM.lsb("cube_end"))
    return "cube_end=1 (expected 0)"


class _PdpSelfTest(PdpTestBase, ScoreboardSelfTestBase):
    corruptions = (*CORRUPTIONS, _drop_flag)
    small_jobs = SmallJobs(LayerSeq, lambda seq, i: seq.send(seq.random_item(seq.next_name(), 0)))


@pyuvm.test(timeout_time=2, timeout_unit="ms")
class ScoreboardSelfTest(_PdpSelfTest):
    """Each corruption of the model's answer (a data byte, a flag, a request address, a missing word, the cube_end
    flag) is reported for exactly the corrupted layer, with two layers in flight."""


@pyuvm.test(timeout_time=2, timeout_unit="ms", expect_fail=True)
class CorruptModelIsCaught(_PdpSelfTest, CorruptModelBase):
    """expect_fail twin: a flipped byte in the model's answer must fail the test."""


class _OneLayer(LayerSeq):
    """One fixed layer: int8, C=32, H=1, W=3 at 0x1000, packed, MC (the cube of the pos_w finding)."""

    async def body(self) -> None:
        item = PdpItem("pos_w_layer")
        item.tensor = np.arange(96, dtype=np.int8).reshape(32, 1, 3)
        item.base, item.ram = 0x1000, "MC"
        self.item = item
        await self.send(item)


@pyuvm.test(timeout_time=2, timeout_unit="ms")
class NvidiaFindings(PdpTestBase):
    """The two places where NVIDIA's RTL and NVIDIA's description differ (docs/nvidia_pdp_rdma.md, Findings), as
    observed: (1) the .rdl declares D_SRC_LINE_STRIDE writable in [31:0] but the register keeps [31:5] (a read
    returns the low five bits as 0); (2) pos_w of an output word counts the word within the line modulo the width
    (``width_cnt - beat_cnt``), not the atom the word's bytes come from (the scoreboard checks every word of every
    layer so; here one layer is logged word by word)."""

    async def body(self) -> None:
        tb, regs = self.tb, self.tb.regs
        addr = regs.address("D_SRC_LINE_STRIDE")
        await tb.csb.write(addr, 0xFFFFFFFF)
        got = await tb.csb.read(addr)
        declared = regs.writable_mask("D_SRC_LINE_STRIDE")
        self.logger.info(
            "finding 1: D_SRC_LINE_STRIDE written 0xffffffff reads 0x%08x; the .rdl's mask 0x%08x", got, declared
        )
        assert declared == 0xFFFFFFFF and got == 0xFFFFFFE0, (hex(declared), hex(got))
        seq = _OneLayer("pos_w")
        await self.run_seq(seq)
        await self.env.driver.settle()
        beats = seq.item.response().beats
        fields = STREAM.decode(np.array([b.user for b in beats], np.uint64))
        atoms = [i // 4 for i in range(len(beats))]
        self.logger.info(
            "finding 2: word: atom of its bytes / pos_w: %s",
            " ".join(f"{i}:{a}/{int(p)}" for i, (a, p) in enumerate(zip(atoms, fields["pos_w"]))),
        )
        assert [int(p) for p in fields["pos_w"]] == [i % 3 for i in range(12)]
