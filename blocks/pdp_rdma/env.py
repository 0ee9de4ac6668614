"""NVIDIA's PDP read DMA on the platform: its binding (CSB control, the two NVDLA DMA read ports, the flagged output
word), its TB hooks (footprint, memory, register values from NVIDIA's ``.rdl``), its scoreboard against
``models.nvdla.feature`` and its coverage.

What the block does (nvdla/hw nvdlav1, ``vmod/nvdla/pdp/``), and so what the scoreboard expects, from the model's
description of the cube (``models.nvdla.feature.descriptor``: every atom's address; ``gather``: its bytes):

* requests (``NV_NVDLA_PDP_RDMA_ig.v:361-427, 778-810``): one per line, surface by surface and line by line, at the
  line's first atom with the line's width in atoms (size field W - 1), on the port of the RAM type (MC: MCIF);
* output (``NV_NVDLA_PDP_RDMA_eg.v:959-1364``): each line's bytes in address order, 8 per word (4 W words a line).
  Flags per word ``i`` of a line: ``pos_c = i mod 4`` (the 8-byte quarter of the atom), ``pos_w = i mod W`` on 4
  bits (the RTL's count of ``width_cnt - beat_cnt``: see docs/nvidia_pdp_rdma.md, it is not the atom's ``w``),
  ``b_sync`` on the line's last word, ``line_end`` on every word, ``surf_end`` on every word of a surface's last
  line, ``split_end`` and ``cube_end`` on every word of the cube's last line (no split-width mode);
* ``rdma2wdma_done`` once per layer, at its last word; one credit pulse per response on the port it came from.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import numpy as np
from cocotb_coverage.coverage import CoverCross, CoverPoint, coverage_section

from dlaverif.agents.nvdla.csb import readback_problems
from dlaverif.agents.nvdla.dma_read import ATOM, BEAT_ATOMS, NvdlaBackend, NvdlaReadPort
from dlaverif.agents.nvdla.flagged_stream import FlaggedStream
from dlaverif.agents.stream import payload as stream_payload, sidebands
from dlaverif.footprint import Region, words_of_runs
from dlaverif.platform import CoverageSubscriber, Expectation, JobScoreboard, ReaderEnv, ReaderTB, hex_bytes
from dlaverif.platform.binding import Completion, CsbControl, DutBinding, ResetPin
from dlaverif.thirdparty import nvdla_rdl

from .items import FORMATS, PdpItem

WORD = 8  # data bytes of an output word
WORDS_PER_ATOM = ATOM // WORD

#: the client's two DMA read ports, in the order of their ``arid`` on the request analysis port
PORTS = (
    NvdlaReadPort("pdp2mcif_rd_req", "mcif2pdp_rd_rsp", "pdp2mcif_rd_cdt_lat_fifo_pop"),
    NvdlaReadPort("pdp2cvif_rd_req", "cvif2pdp_rd_rsp", "pdp2cvif_rd_cdt_lat_fifo_pop"),
)
PORT_OF_RAM = {"MC": 0, "CV": 1}
#: ``pdp_rdma2dp_pd`` (``NV_NVDLA_PDP_RDMA_eg.v:1356-1364``): 8 bytes, then the flags
STREAM = FlaggedStream(
    "pdp_rdma2dp",
    64,
    (("pos_w", 4), ("pos_c", 3), ("b_sync", 1), ("line_end", 1), ("surf_end", 1), ("split_end", 1), ("cube_end", 1)),
    last=("b_sync", "cube_end"),
)
#: NVIDIA's register map of the block, from its .rdl in $NVDLA_HW (dlaverif/thirdparty/nvdla_rdl.py; the fixed copy
#: goes to the run's folder)
REGS = nvdla_rdl.RdlFile(unit="NVDLA_PDP_RDMA")
BINDING = DutBinding(
    control=CsbControl(
        req="csb2pdp_rdma_req",
        resp="pdp_rdma2csb_resp",
        regs=REGS,
        enable=("D_OP_ENABLE", "OP_EN"),
        pointer=("S_POINTER", "PRODUCER"),
        done="rdma2wdma_done",
    ),
    clock="nvdla_core_clk",
    reset=ResetPin("nvdla_core_rstn", active_high=False),
    axi_master="",
    streams=(STREAM.prefix,),
    completion=Completion(os.getenv("COMPLETION", "").strip() or "drained"),
    backend=NvdlaBackend.of(PORTS, STREAM),
)
#: inputs of the block that are no job's business: clock-gating overrides off, RAM power-down off
TIE_OFF = {
    "dla_clk_ovr_on_sync": 0,
    "global_clk_ovr_on_sync": 0,
    "tmc2slcg_disable_clock_gating": 0,
    "pwrbus_ram_pd": 0,
}


class PdpTB(ReaderTB):
    """The platform's TB on the PDP read DMA's binding; what a layer reads, holds and is programmed with."""

    binding = BINDING

    def __init__(self, dut, rng=None) -> None:
        for name, value in TIE_OFF.items():
            self.binding.signal(dut, name).value = value
        super().__init__(dut, rng)
        self.regs = REGS()  # NVIDIA's register map (dlaverif.thirdparty.nvdla_rdl; compiled once, the control's own)

    def regions(self, item: PdpItem) -> list[Region]:
        d = item.descriptor()
        words = words_of_runs(d.atom_addresses(), d.atom_bytes, ATOM)  # sorted int64 word indices, up to 2**64
        return [Region(item.get_name(), d.base, d.base + d.extent, words)]

    def pieces(self, item: PdpItem) -> list[tuple[int, np.ndarray]]:
        return [(item.base, item.image())]

    def payload(self, item: PdpItem) -> dict[str, int]:
        """The layer's register values, every field through NVIDIA's map (names, widths, enumerations)."""
        r = self.regs
        c, h, w = item.tensor.shape
        return {
            "D_DATA_CUBE_IN_WIDTH": r.value("D_DATA_CUBE_IN_WIDTH", CUBE_IN_WIDTH=w - 1),
            "D_DATA_CUBE_IN_HEIGHT": r.value("D_DATA_CUBE_IN_HEIGHT", CUBE_IN_HEIGHT=h - 1),
            "D_DATA_CUBE_IN_CHANNEL": r.value("D_DATA_CUBE_IN_CHANNEL", CUBE_IN_CHANNEL=c - 1),
            "D_FLYING_MODE": r.value("D_FLYING_MODE", FLYING_MODE=r.enum("D_FLYING_MODE", "FLYING_MODE", "OFF_FLYING")),
            "D_SRC_BASE_ADDR_LOW": r.value("D_SRC_BASE_ADDR_LOW", SRC_BASE_ADDR_LOW=item.base & 0xFFFFFFFF),
            "D_SRC_BASE_ADDR_HIGH": r.value("D_SRC_BASE_ADDR_HIGH", SRC_BASE_ADDR_HIGH=item.base >> 32),
            "D_SRC_LINE_STRIDE": r.value("D_SRC_LINE_STRIDE", SRC_LINE_STRIDE=item.descriptor().stride_h),
            "D_SRC_SURFACE_STRIDE": r.value("D_SRC_SURFACE_STRIDE", SRC_SURFACE_STRIDE=item.descriptor().stride_c),
            "D_SRC_RAM_CFG": r.value("D_SRC_RAM_CFG", SRC_RAM_TYPE=r.enum("D_SRC_RAM_CFG", "SRC_RAM_TYPE", item.ram)),
            "D_DATA_FORMAT": r.value(
                "D_DATA_FORMAT", INPUT_DATA=r.enum("D_DATA_FORMAT", "INPUT_DATA", FORMATS[item.dtype])
            ),
            "D_OPERATION_MODE_CFG": r.value("D_OPERATION_MODE_CFG", SPLIT_NUM=0),
        }


@dataclass
class Expected(Expectation):
    """A layer as the model says the block moves it: its requests (line address, size field) on ``port``, the
    bytes of its output words in order, the flag bits of every word, the responses it is answered with."""

    requests: np.ndarray  # (lines, 2) uint64: address (up to 2**64 - 1), atoms - 1
    data: np.ndarray  # uint8, 8 per word
    flags: np.ndarray  # uint64 per word
    port: int
    responses: int


def expected_layer(item: PdpItem) -> Expected:
    """The model's answer for ``item`` (module docstring), from ``models.nvdla.feature`` only."""
    d = item.descriptor()
    atoms = d.atom_addresses()[0]  # (surfaces, lines, width)
    s, h, w = atoms.shape
    lines = atoms[:, :, 0].reshape(-1)
    requests = np.stack([lines, np.full(lines.size, w - 1, np.uint64)], axis=1)  # uint64 with int64: float64
    data = d.gather(item.image(), d.base).reshape(-1)
    i = np.arange(w * WORDS_PER_ATOM, dtype=np.int64)  # word of a line
    last_line = np.zeros((s, h), bool)
    last_line[:, -1] = True
    cube_end = np.zeros((s, h), bool)
    cube_end[-1, -1] = True
    per_line = STREAM.encode(pos_w=i % w, pos_c=i % WORDS_PER_ATOM, b_sync=i == i[-1], line_end=1)
    flags = (
        per_line[None, :]
        | STREAM.encode(surf_end=last_line.reshape(-1))[:, None]
        | STREAM.encode(split_end=cube_end.reshape(-1), cube_end=cube_end.reshape(-1))[:, None]
    ).reshape(-1)
    return Expected(requests, data, flags, PORT_OF_RAM[item.ram], s * h * -(-w // BEAT_ATOMS))


def word_place(item: PdpItem, word: int) -> str:
    """Where output word ``word`` of a layer comes from: (surface, line, atom, quarter) and its byte address."""
    d = item.descriptor()
    s, h, w = d.atom_addresses()[0].shape
    per_line = w * WORDS_PER_ATOM
    line, i = divmod(word, per_line)
    surf, row = divmod(line, h)
    atom, quarter = divmod(i, WORDS_PER_ATOM)
    if surf >= s:
        return f"word #{word} (beyond the cube's {s * h * per_line} words)"
    addr = int(d.atom_addresses()[0, surf, row, atom]) + quarter * WORD
    lo = quarter * WORD
    return f"word #{word} (surface {surf}, line {row}, atom {atom}, bytes {lo}..{lo + WORD - 1}) at 0x{addr:x}"


class PdpScoreboard(JobScoreboard):
    """Every request, every output word and its flags, the done pulse and the credits of each layer against
    :func:`expected_layer`. With two layers in flight the platform gives a settled batch's requests and responses
    to its first layer; the scoreboard takes them in layer order (a layer's requests all come before the next
    layer's: the block reads the layers one after the other)."""

    def build_phase(self) -> None:
        super().build_phase()
        self.requests: list[Any] = []  # requests seen, not yet matched to a layer
        self.responses = 0  # responses seen, not yet matched

    def expected(self, item: PdpItem) -> Expected:
        return expected_layer(item)

    def compare(self, item: PdpItem, exp: Expected) -> list[str]:
        res = item.response()
        self.requests += list(res.bursts)
        self.responses += res.beats_served
        out = list(res.violations)
        out += self.request_problems(item, exp)
        out += self.output_problems(item, exp)
        if res.done_cycle is None:
            out.append("no rdma2wdma_done pulse for the layer")
        tb = self.tb
        assert tb is not None, "observe() gave the scoreboard its TB"
        owed = {k: v for k, v in tb.mem.owed_credits().items() if v}
        if owed:
            out.append(f"credits owed after the layer's output: {owed} (one pulse per response consumed)")
        out += readback_problems(item, tb.payload(item))
        return out

    def request_problems(self, item: PdpItem, exp: Expected) -> list[str]:
        n = len(exp.requests)
        got, self.requests = self.requests[:n], self.requests[n:]
        served = min(self.responses, exp.responses)
        self.responses -= served
        out = []
        for k, (b, (addr, size)) in enumerate(zip(got, exp.requests)):
            if (b.arid, b.addr, b.len) != (exp.port, int(addr), int(size)):
                s, h = divmod(k, item.tensor.shape[1])
                out.append(
                    f"request #{k} (surface {s}, line {h}): {PORTS[b.arid].req} address 0x{b.addr:x} size {b.len}, "
                    f"expected {PORTS[exp.port].req} address 0x{int(addr):x} size {int(size)}"
                )
                break
        if len(got) < n:
            out.append(f"{len(got)} requests, {n} expected (one per line)")
        if served < exp.responses:
            out.append(f"{served} responses served, {exp.responses} expected")
        return out

    def output_problems(self, item: PdpItem, exp: Expected) -> list[str]:
        beats = item.response().beats
        data, _ = stream_payload(beats)
        user, _ = sidebands(beats)
        out = []
        words, want = data.size // WORD, exp.data.size // WORD
        if words != want:
            out.append(f"{words} output words, {want} expected")
        n = min(data.size, exp.data.size)
        bad = np.flatnonzero(data[:n] != exp.data[:n])
        if bad.size:
            word = int(bad[0]) // WORD
            lo = word * WORD
            out.append(
                f"data of {word_place(item, word)}: {hex_bytes(data[lo : lo + WORD])}, expected "
                f"{hex_bytes(exp.data[lo : lo + WORD])} ({np.unique(bad // WORD).size} word(s) differ)"
            )
        k = min(user.size, exp.flags.size)
        badf = np.flatnonzero(user[:k] != exp.flags[:k])
        if badf.size:
            j = int(badf[0])
            got_f, want_f = STREAM.decode(user[j : j + 1]), STREAM.decode(exp.flags[j : j + 1])
            diff = ", ".join(
                f"{f}={int(got_f[f][0])} (expected {int(want_f[f][0])})" for f in got_f if got_f[f][0] != want_f[f][0]
            )
            out.append(f"flags of {word_place(item, j)}: {diff} ({badf.size} word(s) with wrong flags)")
        return out

    def details(self, item: PdpItem) -> list[str]:
        return [f"knobs: {item.knobs}", f"nposted={item.nposted} readback={bool(item.readback)}"]


def channel_class(item: PdpItem) -> str:
    c = item.tensor.shape[0]
    epa = ATOM // item.tensor.dtype.itemsize
    return "one" if c == 1 else ("multiple" if c % epa == 0 else "partial")


def stride_class(item: PdpItem) -> str:
    d = item.descriptor()
    c, h, w = item.tensor.shape
    line_gap, surf_gap = d.stride_h > w * ATOM, d.stride_c > h * d.stride_h
    return {(False, False): "packed", (True, False): "line_gap", (False, True): "surface_gap"}.get(
        (line_gap, surf_gap), "both_gaps"
    )


def width_class(item: PdpItem) -> str:
    w = item.tensor.shape[2]
    return "one" if w == 1 else ("odd" if w % 2 else "even") if w < 16 else ("over_16" if w < 128 else "long")


_cover = coverage_section(
    CoverPoint("pdp_rdma.dtype", xf=lambda it: it.dtype, bins=list(FORMATS)),
    CoverPoint("pdp_rdma.channels", xf=channel_class, bins=["one", "partial", "multiple"]),
    CoverPoint("pdp_rdma.strides", xf=stride_class, bins=["packed", "line_gap", "surface_gap", "both_gaps"]),
    CoverPoint("pdp_rdma.width", xf=width_class, bins=["one", "odd", "even", "over_16", "long"]),
    CoverPoint("pdp_rdma.ram", xf=lambda it: it.ram, bins=["MC", "CV"]),
    CoverPoint("pdp_rdma.in_flight", xf=lambda it: it.response().in_flight, bins=[1, 2]),
    CoverPoint(
        "pdp_rdma.base_4g_carry",
        xf=lambda it: (it.base >> 32) != ((it.descriptor().base + it.descriptor().extent - 1) >> 32),
        bins=[False, True],
    ),
    CoverPoint("pdp_rdma.csb_writes", xf=lambda it: "nposted" if it.nposted else "posted", bins=["posted", "nposted"]),
    CoverPoint("pdp_rdma.latency", xf=lambda it: it.knobs.latency > 0, bins=[False, True]),
    CoverPoint("pdp_rdma.backpressure", xf=lambda it: it.knobs.backpressure != "none", bins=[False, True]),
    CoverCross("pdp_rdma.dtype_x_channels", items=["pdp_rdma.dtype", "pdp_rdma.channels"]),
    CoverCross("pdp_rdma.ram_x_in_flight", items=["pdp_rdma.ram", "pdp_rdma.in_flight"]),
)


@_cover
def _sample(item: PdpItem) -> None:
    """One checked layer into the covergroups."""


class PdpCoverage(CoverageSubscriber):
    prefix = "pdp_rdma"
    xml_name = "fcov_pdp_rdma.xml"

    def sample(self, item: PdpItem) -> None:
        _sample(item)


class PdpEnv(ReaderEnv):
    scoreboard_cls = PdpScoreboard
    coverage_cls = PdpCoverage
