"""The cube reader's register programming: a ``BlockedCubeDescriptor`` as register values, and its status set.

Register names, offsets and fields come from the one register-map source (``blocks/rtl/regs/cube_reader.rdl``, loaded by
``blocks.regmap``); the generic :class:`dlaverif.agents.csr.CsrAgent` writes and reads them.
"""

from __future__ import annotations

from typing import Optional

from blocks import regmap
from dlaverif.models.blocked import BlockedCubeDescriptor
from dlaverif.platform.register_values import descriptor_words, error_bits

#: the cube reader's register map (blocks/rtl/regs/cube_reader.rdl)
REGS = regmap.CUBE_READER
#: its ERROR register: every field but the bus errors is a validator rule (models.blocked.ERROR_RULES spelling)
ERRORS = error_bits(REGS)
RULE_BITS, VALIDATOR_MASK, BUS_SLVERR, BUS_DECERR = ERRORS


def cfg_word(layout: int, fp16: bool = False, nan_to_zero: bool = False) -> int:
    """The CFG register value for a layout code and the two fp16 flags."""
    return (
        ((int(layout) << REGS.FIELD["CFG_LAYOUT_LSB"]) & REGS.field_mask("CFG_LAYOUT"))
        | (REGS.bit("CFG_FP16") if fp16 else 0)
        | (REGS.bit("CFG_NAN_TO_ZERO") if nan_to_zero else 0)
    )


#: the job status (every RO register but ID and PARAMS), in offset order
STATUS_REGS = REGS.status_regs()
#: the descriptor registers (every RW register of the map), in offset order
DESC_REGS = REGS.descriptor_regs()


def descriptor_values(desc: BlockedCubeDescriptor, nan_to_zero: bool = False, fp16: Optional[bool] = None) -> dict:
    """Register values of a descriptor (written modulo 2**32, as the bus does)."""
    use_fp16 = desc.fp16 if fp16 is None else fp16
    return descriptor_words(REGS, desc, CFG=cfg_word(int(desc.layout), use_fp16, nan_to_zero))


async def program(csr, desc: BlockedCubeDescriptor, nan_to_zero: bool = False, fp16: Optional[bool] = None) -> None:
    await csr.write_many(descriptor_values(desc, nan_to_zero, fp16))
