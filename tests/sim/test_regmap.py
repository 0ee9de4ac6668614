"""tb.regmap (the Python mirror of rtl_stubs/dla_pkg.sv) agrees with models.blocked and with itself.

No simulator: this checks the parse of the package that both the RTL and the testbench use.
"""
import pytest

from models.blocked import ERROR_RULES, MAX_COUNT, Layout
from tb import regmap


def test_every_validator_rule_has_its_bit_at_its_rule_index():
    # models.blocked.ERROR_RULES is the reference model's bit order: bit i <=> rule i
    assert regmap.RULE_BITS == {rule: i for i, rule in enumerate(ERROR_RULES)}


def test_bus_error_bits_are_above_the_validator_bits_and_distinct():
    assert regmap.ERR["BUS_SLVERR"] >= 16 and regmap.ERR["BUS_DECERR"] >= 16
    assert regmap.ERR["BUS_SLVERR"] != regmap.ERR["BUS_DECERR"]
    assert regmap.VALIDATOR_MASK & (regmap.BUS_SLVERR | regmap.BUS_DECERR) == 0
    assert regmap.VALIDATOR_MASK == (1 << len(ERROR_RULES)) - 1


def test_layout_codes_match_the_model_enum():
    assert regmap.LAYOUT == {layout.name: int(layout) for layout in Layout}


def test_max_count_matches_the_model():
    assert regmap.MAX_COUNT == MAX_COUNT == 65535


def test_register_offsets_are_unique_and_word_aligned():
    offs = list(regmap.REG.values())
    assert len(offs) == len(set(offs))
    assert all(o % 4 == 0 and 0 <= o < 256 for o in offs)  # 8-bit AXI4-Lite address, 32-bit registers


def test_offsets_match_the_documented_table_in_the_package_header():
    assert regmap.parse_header_table(regmap.PKG_TEXT) == regmap.REG


def test_descriptor_registers_exist():
    for name in ("CTRL", "CFG", "STATUS", "ERROR", "BASE_LO", "BASE_HI", "ATOM_BYTES", "ELEM_BYTES", "COUNT_W",
                 "COUNT_H", "COUNT_C", "COUNT_N", "STRIDE_H", "STRIDE_C", "STRIDE_N", "ATOMS_SENT", "NAN_COUNT",
                 "INF_COUNT"):
        assert name in regmap.REG, name
    assert regmap.ID == 0xC0BE0001


def test_field_masks_are_single_bits_that_do_not_collide():
    cfg = [regmap.CFG_FP16, regmap.CFG_NAN_TO_ZERO, regmap.CFG_LAYOUT_MASK]
    assert cfg[0] & cfg[1] == 0 and (cfg[0] | cfg[1]) & cfg[2] == 0
    status = [regmap.STATUS_BUSY, regmap.STATUS_DONE, regmap.STATUS_ERROR]
    assert len(set(status)) == 3 and all(bin(s).count("1") == 1 for s in status)


def test_cfg_word_packs_layout_and_flags():
    # written out by hand from the package: LAYOUT in [3:0], FP16 bit 8, NAN_TO_ZERO bit 9
    assert regmap.cfg_word(Layout.MACE, fp16=True, nan_to_zero=True) == 0x304
    assert regmap.cfg_word(Layout.NVDLA_OPERAND) == 0x002


def test_decode_errors_names_bits():
    assert regmap.decode_errors((1 << 4) | (1 << 8) | (1 << 16)) == ["align_base", "overlap", "bus_slverr"]
    assert regmap.decode_errors(1 << 30) == ["bit30"]


@pytest.mark.parametrize("text, value", [
    ("'h3C", 0x3C), ("32'hC0BE_0001", 0xC0BE0001), ("16", 16), ("8'd255", 255), ("4'b1010", 10), ("1_000", 1000),
])
def test_literal_parser(text, value):
    assert regmap.parse_number(text) == value


def test_package_parser_ignores_comments_and_refuses_duplicates():
    text = """package p;
      // localparam int REG_FAKE = 'h99;
      /* localparam int REG_OTHER = 3; */
      localparam logic [31:0] X_ID = 32'hDEAD_BEEF;  // trailing comment
      localparam int REG_A = 'h04;
    endpackage"""
    assert regmap.parse_package(text) == {"X_ID": 0xDEADBEEF, "REG_A": 4}
    with pytest.raises(ValueError, match="twice"):
        regmap.parse_package("localparam int A = 1;\nlocalparam int A = 2;")
    with pytest.raises(ValueError, match="literal"):
        regmap.parse_package("localparam int A = B + 1;")
