"""The port convention of this project's own readers (``blocks/rtl/``), as a
:class:`~dlaverif.platform.binding.DutBinding`.

The platform (:mod:`dlaverif.platform`) names no port of any DUT; this module is where our readers' convention lives:
``clk``, ``rst`` active high, the AXI4 read master ``m_axi``, the AXI4-Lite register block ``s_axil`` (from the
block's ``.rdl``) with DONE also on ``irq``, one output stream ``m_axis``.
"""

from __future__ import annotations

from typing import Any

from dlaverif.platform.binding import Completion, DutBinding, RegisterControl, ResetPin


def register_reader(regs: Any) -> DutBinding:
    """The binding of a reader of ``blocks/rtl/`` with the register map ``regs`` (a :class:`blocks.regmap.BlockMap`):
    DONE rises once the last output transfer was accepted, so its completion means DRAINED."""
    return DutBinding(
        control=RegisterControl(prefix="s_axil", regs=regs, irq="irq"),
        clock="clk",
        reset=ResetPin("rst", active_high=True),
        axi_master="m_axi",
        streams=("m_axis",),
        completion=Completion.DRAINED,
    )
