"""The pixel reader's register programming: a :class:`models.pixel_desc.PixelDescriptor` as register values, and
its status set.

Register names, offsets and fields come from the one register-map source (``blocks/rtl/regs/pixel_reader.rdl``, loaded
by ``blocks.regmap``); the generic :class:`dlaverif.agents.csr.CsrAgent` writes and reads them.
"""

from __future__ import annotations

from blocks import regmap
from dlaverif.models.pixel_desc import PixelDescriptor
from dlaverif.platform.register_values import descriptor_words, error_bits

#: the pixel reader's register map (blocks/rtl/regs/pixel_reader.rdl)
REGS = regmap.PIXEL_READER
#: its ERROR register: every field but the bus errors is a validator rule (models.pixel_desc.ERROR_RULES spelling)
ERRORS = error_bits(REGS)
RULE_BITS, VALIDATOR_MASK, BUS_SLVERR, BUS_DECERR = ERRORS
#: the descriptor registers (every RW register of the map), in offset order
DESC_REGS = REGS.descriptor_regs()


def cvt_cfg_word(desc: PixelDescriptor) -> int:
    """CVT_CFG: output precision, CVT_EN, SIGN_OVERRIDE, MEAN_EN, CVT_TRUNCATE."""
    f = REGS.FIELD
    return (
        ((int(desc.out_precision) << f["CVT_CFG_PRECISION_LSB"]) & REGS.field_mask("CVT_CFG_PRECISION"))
        | (REGS.bit("CVT_CFG_CVT_EN") if desc.cvt_en else 0)
        | (REGS.bit("CVT_CFG_SIGN") if desc.sign_override else 0)
        | (REGS.bit("CVT_CFG_MEAN_EN") if desc.mean_en else 0)
        | ((int(desc.cvt_truncate) << f["CVT_CFG_TRUNCATE_LSB"]) & REGS.field_mask("CVT_CFG_TRUNCATE"))
    )


def _s16(v: int) -> int:
    return int(v) & 0xFFFF


def descriptor_values(desc: PixelDescriptor) -> dict[str, int]:
    """Register values of a descriptor (written modulo 2**32, as the bus does)."""
    m = [_s16(v) for v in desc.mean]
    return descriptor_words(
        REGS,
        desc,
        FORMAT=desc.format_code & REGS.field_mask("FORMAT_CODE"),
        STRIDE0=desc.line_stride0,
        STRIDE1=desc.line_stride1,
        CVT_CFG=cvt_cfg_word(desc),
        CVT_OFFSET=_s16(desc.cvt_offset),
        CVT_SCALE=_s16(desc.cvt_scale),
        MEAN_0=m[0] | (m[1] << 16),
        MEAN_1=m[2] | (m[3] << 16),
    )
