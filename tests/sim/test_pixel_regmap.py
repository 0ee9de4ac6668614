"""The pixel reader's register map (blocks/rtl/regs/pixel_reader.rdl, loaded by blocks.regmap) and the design constants
of blocks/rtl/common/accel_pkg.sv (limits, the format table) agree with the reference model (models.pixel_desc: rule
order, limits, format codes). No simulator."""

import re

from blocks import regmap
from blocks.pixel_reader import registers as R
from dlaverif.flow import runner
from dlaverif.models.nvdla.pixel import ENUM_ORDER, MAX_DIM, PIXEL_FORMATS
from dlaverif.models.pixel_desc import ERROR_RULES, PixelDescriptor

PR = regmap.PIXEL_READER
PKG_TEXT = (runner.RTL / "common" / "accel_pkg.sv").read_text()


def test_every_validator_rule_has_its_bit_at_its_rule_index():
    assert R.RULE_BITS == {rule: i for i, rule in enumerate(ERROR_RULES)}
    assert R.VALIDATOR_MASK == (1 << len(ERROR_RULES)) - 1
    assert PR.ERR["BUS_SLVERR"] == 16 and PR.ERR["BUS_DECERR"] == 17


def test_limits_match_the_model():
    # the design constants of accel_pkg.sv (not registers, so not in the .rdl) against the model
    limits = dict(re.findall(r"localparam int (PR_\w+)\s*=\s*(\d+);", PKG_TEXT))
    assert int(limits["PR_MAX_DIM"]) == MAX_DIM == 8192
    assert int(limits["PR_NUM_FORMATS"]) == len(ENUM_ORDER) == 36
    assert PR.ID == 0x91C50001 and PR.ID != regmap.CUBE_READER.ID


def test_register_values_of_a_descriptor():
    d = PixelDescriptor(
        format_code=28,
        width=5,
        height=3,
        x_offset=2,
        base0=0x1_2345_6780,
        line_stride0=64,
        out_precision=2,
        base1=0x2000,
        line_stride1=96,
        cvt_en=True,
        sign_override=True,
        cvt_offset=-2,
        cvt_scale=-3,
        cvt_truncate=9,
        mean_en=True,
        mean=(-1, 2, -3, 4),
    )
    v = R.descriptor_values(d)
    # by hand: precision 2, CVT_EN bit 4, SIGN bit 5, MEAN_EN bit 6, truncate 9 << 8
    assert v["CVT_CFG"] == 0x2 | 0x10 | 0x20 | 0x40 | 0x900
    assert (v["BASE0_LO"], v["BASE0_HI"]) == (0x23456780, 0x1)
    assert v["CVT_OFFSET"] == 0xFFFE and v["CVT_SCALE"] == 0xFFFD
    assert v["MEAN_0"] == 0x0002FFFF and v["MEAN_1"] == 0x0004FFFD
    assert (v["FORMAT"], v["WIDTH"], v["HEIGHT"], v["X_OFFSET"], v["STRIDE1"]) == (28, 5, 3, 2, 96)


def test_format_table_comment_names_every_format_in_code_order():
    # the package's pr_format() lists every Table 33 code; its comments name the formats
    pkg = PKG_TEXT
    body = pkg[
        pkg.index("function automatic logic [44:0] pr_format") : pkg.index("endfunction", pkg.index("pr_format("))
    ]
    codes = {int(c) for c in re.findall(r"6'd(\d+)", body)}
    assert codes == set(range(36))
    assert len(PIXEL_FORMATS) == 36


def _format_table() -> dict[int, tuple]:
    """The case arms of accel_pkg's pr_format(): code -> (channels as (plane, lsb, width code), nch-1, log2 bpp0,
    log2 bpp1 - 1, two planes, fp16, 8-bit)."""
    pkg = PKG_TEXT
    body = pkg[pkg.index("function automatic logic [44:0] pr_format") :]
    body = re.sub(r"//[^\n]*", "", body[: body.index("endfunction")])
    table = {}
    for codes, args in re.findall(r"((?:6'd\d+,?\s*)+):\s*pr_format\s*=\s*pr_entry\((.*?)\);", body, re.S):
        chans = [tuple(int(v) for v in c) for c in re.findall(r"pr_ch\((\d+),\s*(\d+),\s*(\d+)\)", args)]
        rest = re.sub(r"pr_ch\([^)]*\)", "", args)
        nums = [int(v) for v in re.findall(r"(?:2'd)?(\d+)", rest.replace("z", ""))]
        for code in re.findall(r"6'd(\d+)", codes):
            table[int(code)] = (chans, *nums)
    return table


def test_format_table_matches_the_model():
    # every code's channels (plane, bit position, width) and plane geometry against models.nvdla.pixel
    wc = {8: 0, 16: 1, 10: 2, 2: 3}
    table = _format_table()
    assert sorted(table) == list(range(36))
    for name in ENUM_ORDER:
        fmt = PIXEL_FORMATS[name]
        chans, nch_m1, bpp0_l, bpp1_l, two, fp16, c8 = table[fmt.enum]
        want = {}
        for p, plane in enumerate(fmt.planes):
            for f in plane.fields:
                want[f.channel] = (
                    p,
                    f.lsb,
                    wc[8 if plane.container_bits == 8 else 16 if plane.container_bits == 16 else f.width],
                )
        assert {c: chans[c] for c in range(len(chans))} == want, name
        assert nch_m1 == fmt.channels - 1 and 1 << bpp0_l == fmt.planes[0].bpp, name
        assert two == fmt.semi_planar and fp16 == fmt.fp16 and c8 == (fmt.component_bits == 8), name
        if fmt.semi_planar:
            assert 1 << (bpp1_l + 1) == fmt.planes[1].bpp, name
