"""NVIDIA's PDP read DMA on the platform, a user of the generic NVDLA read client
(:mod:`dlaverif.platform.nvdla_client`): what is the PDP's own: its binding (CSB ports, the two NVDLA DMA read ports,
the flagged output word, the ``rdma2wdma_done`` pulse), its TB hooks (footprint, memory, register values from
NVIDIA's ``.rdl``), the model's answer from ``models.nvdla.feature``, where a request or word lies, and its
covergroups.

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

import numpy as np

from dlaverif.agents.nvdla.dma_read import ATOM, BEAT_ATOMS, NvdlaReadPort
from dlaverif.agents.nvdla.flagged_stream import FlaggedStream
from dlaverif.footprint import Region, words_of_runs
from dlaverif.platform import ReaderEnv
from dlaverif.platform.binding import Completion
from dlaverif.platform.nvdla_client import (
    ClientExpected,
    NvdlaClientCoverage,
    NvdlaClientScoreboard,
    NvdlaClientTB,
    nvdla_binding,
)
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
BINDING = nvdla_binding(
    csb=("csb2pdp_rdma_req", "pdp_rdma2csb_resp"),
    regs=REGS,
    # the done pulse: the port, or (PDP_DONE=u_eg.rdma2wdma_done) the egress unit's own signal inside the block
    done=os.getenv("PDP_DONE", "").strip() or "rdma2wdma_done",
    ports=PORTS,
    stream=STREAM,
    completion=Completion(os.getenv("COMPLETION", "").strip() or "drained"),
    # inputs of the block that are no job's business: clock-gating overrides off, RAM power-down off
    ties=(
        ("dla_clk_ovr_on_sync", 0),
        ("global_clk_ovr_on_sync", 0),
        ("tmc2slcg_disable_clock_gating", 0),
        ("pwrbus_ram_pd", 0),
    ),
)


class PdpTB(NvdlaClientTB):
    """The generic client's TB on the PDP read DMA's binding; what a layer reads, holds and is programmed with."""

    binding = BINDING

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


def expected_layer(item: PdpItem) -> ClientExpected:
    """The model's answer for ``item`` (module docstring), from ``models.nvdla.feature`` only."""
    d = item.descriptor()
    atoms = d.atom_addresses()[0]  # (surfaces, lines, width)
    s, h, w = atoms.shape
    lines = atoms[:, :, 0].reshape(-1)
    port = np.full(lines.size, PORT_OF_RAM[item.ram], np.uint64)
    requests = np.stack([port, lines, np.full(lines.size, w - 1, np.uint64)], axis=1)  # uint64 with int64: float64
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
    return ClientExpected(requests, data, flags, s * h * -(-w // BEAT_ATOMS))


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


class PdpScoreboard(NvdlaClientScoreboard):
    """The generic client's checks on :func:`expected_layer`; a request is a line, a word's place its atom."""

    def expected(self, item: PdpItem) -> ClientExpected:
        return expected_layer(item)

    def request_place(self, item: PdpItem, k: int) -> str:
        s, h = divmod(k, item.tensor.shape[1])
        return f"surface {s}, line {h}"

    def word_place(self, item: PdpItem, word: int) -> str:
        return word_place(item, word)


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


class PdpCoverage(NvdlaClientCoverage):
    prefix = "pdp_rdma"
    points = (
        ("dtype", lambda it: it.dtype, list(FORMATS)),
        ("channels", channel_class, ["one", "partial", "multiple"]),
        ("strides", stride_class, ["packed", "line_gap", "surface_gap", "both_gaps"]),
        ("width", width_class, ["one", "odd", "even", "over_16", "long"]),
        ("ram", lambda it: it.ram, ["MC", "CV"]),
        (
            "base_4g_carry",
            lambda it: (it.base >> 32) != ((it.descriptor().base + it.descriptor().extent - 1) >> 32),
            [False, True],
        ),
    )
    crosses = (("dtype_x_channels", ("dtype", "channels")), ("ram_x_in_flight", ("ram", "in_flight")))


class PdpEnv(ReaderEnv):
    scoreboard_cls = PdpScoreboard
    coverage_cls = PdpCoverage
