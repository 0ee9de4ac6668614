"""The weight reader's register programming: a ``WeightSurfaceDescriptor`` as register values, and its status set.

Names, offsets, fields and error bits come from the one register-map source (``blocks/rtl/regs/weight_reader.rdl``,
loaded by ``blocks.regmap``); the generic :class:`dlaverif.agents.csr.CsrAgent` writes and reads them.
"""

from __future__ import annotations

from blocks import regmap
from dlaverif.models.weight_desc import ERROR_RULES, WeightSurfaceDescriptor
from dlaverif.platform.register_values import descriptor_words, error_bits

#: the weight reader's register map (blocks/rtl/regs/weight_reader.rdl)
REGS = regmap.WEIGHT_READER
#: its ERROR register: the validator rules (models.weight_desc.ERROR_RULES), the bus errors and two run-time bits
ERRORS = error_bits(REGS, ERROR_RULES)
RULE_BITS, VALIDATOR_MASK, BUS_SLVERR, BUS_DECERR = ERRORS
WGS_MISMATCH: int = REGS.error_mask(["WGS_MISMATCH"])
WEIGHT_OVERRUN: int = REGS.error_mask(["WEIGHT_OVERRUN"])
#: FAULT.SURFACE codes by surface name (models.weight_desc.SURFACE_NAMES)
SURFACE_CODE: dict[str, int] = {
    "weight": REGS.CONST["SURFACE_WEIGHT"],
    "wmb": REGS.CONST["SURFACE_WMB"],
    "wgs": REGS.CONST["SURFACE_WGS"],
}
#: the descriptor registers (every RW register of the map), in offset order
DESC_REGS = REGS.descriptor_regs()


def fault_surface(fault: int) -> int:
    return (fault >> REGS.FIELD["FAULT_SURFACE_LSB"]) & ((1 << REGS.FIELD["FAULT_SURFACE_W"]) - 1)


def descriptor_values(d: WeightSurfaceDescriptor) -> dict[str, int]:
    """Register values of a descriptor (written modulo 2**32, as the bus does)."""
    return descriptor_words(REGS, d, CFG=REGS.bit("CFG_COMPRESSED") if d.compressed else 0)
