"""``pin_dma`` (blocks/selftest_dma/rtl/pin_dma.sv: byte_dma behind start/done pins) on the same machinery: only its
binding differs from byte_dma's (a :class:`~dlaverif.platform.binding.PinControl`, other clock and reset names, one job
at a time). ``COMPLETION`` (``drained`` by default, what its ``fin_o`` means) comes from the environment."""

from __future__ import annotations

import os

from dlaverif.platform.binding import Completion, DutBinding, PinControl, ResetPin

from .env import DmaCoverage, DmaEnv, DmaTB

PIN_BINDING = DutBinding(
    control=PinControl(start="go_i", done="fin_o", fields=(("addr", "src_i"), ("len", "nbytes_i"), ("tag", "id_i"))),
    clock="clk_i",
    reset=ResetPin("rst_i", active_high=True),
    axi_master="rd",
    streams=("bytes_out",),
    completion=Completion(os.getenv("COMPLETION", "").strip() or "drained"),
)


class PinDmaTB(DmaTB):
    binding = PIN_BINDING


class PinDmaCoverage(DmaCoverage):
    depth, overlap = 1, False  # start/done pins: one job at a time


class PinDmaEnv(DmaEnv):
    coverage_cls = PinDmaCoverage
