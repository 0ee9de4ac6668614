"""tb.regmap (the Python mirror of rtl_stubs/accel_pkg.sv) agrees with models.blocked, with itself, with the
register comment at the top of each block's RTL file and with the register table of each block's datasheet
(docs/<block>.md): every block has exactly one register table, in its own datasheet, and no other Markdown file of
the repository has one.

No simulator: this checks the parse of the package that both the RTL and the testbench use.
"""

import re
from pathlib import Path

import pytest

from models.blocked import ERROR_RULES, MAX_COUNT, Layout
from tb import regmap
from tb.cube_reader import registers as R
from tb.flow import runner

DOCS = runner.ROOT / "docs"
#: the RTL file of each block of the package (a new block adds its line here); its datasheet is docs/<stem>.md
BLOCK_FILES = {"CR": "cube_reader.sv", "WR": "weight_reader.sv", "PR": "pixel_reader.sv"}


def datasheet(prefix: str) -> Path:
    return DOCS / Path(BLOCK_FILES[prefix]).with_suffix(".md").name


def markdown_files() -> list[Path]:
    """Every Markdown file of the repository but generated and installed ones."""
    skip = {".git", ".venv", "sim_build", "node_modules", ".pytest_cache"}
    return sorted(p for p in runner.ROOT.rglob("*.md") if not skip & set(p.relative_to(runner.ROOT).parts))


CR = regmap.CUBE_READER


def test_every_validator_rule_has_its_bit_at_its_rule_index():
    # models.blocked.ERROR_RULES is the reference model's bit order: bit i <=> rule i
    assert R.RULE_BITS == {rule: i for i, rule in enumerate(ERROR_RULES)}


def test_bus_error_bits_are_above_the_validator_bits_and_distinct():
    assert CR.ERR["BUS_SLVERR"] >= 16 and CR.ERR["BUS_DECERR"] >= 16
    assert CR.ERR["BUS_SLVERR"] != CR.ERR["BUS_DECERR"]
    assert R.VALIDATOR_MASK & (R.BUS_SLVERR | R.BUS_DECERR) == 0
    assert R.VALIDATOR_MASK == (1 << len(ERROR_RULES)) - 1


def test_layout_codes_match_the_model_enum():
    assert {k[len("LAYOUT_") :]: v for k, v in CR.CONST.items() if k.startswith("LAYOUT_")} == {
        layout.name: int(layout) for layout in Layout
    }


def test_max_count_matches_the_model():
    assert CR.CONST["MAX_COUNT"] == MAX_COUNT == 65535


def test_register_offsets_are_unique_and_word_aligned():
    offs = list(CR.REG.values())
    assert len(offs) == len(set(offs))
    assert all(o % 4 == 0 and 0 <= o < 256 for o in offs)  # 8-bit AXI4-Lite address, 32-bit registers


def test_every_block_has_its_rtl_file_and_the_common_pattern():
    assert set(regmap.BLOCKS) == set(BLOCK_FILES)
    assert regmap.CUBE_READER is regmap.BLOCKS["CR"]
    for m in regmap.BLOCKS.values():
        # ID/PARAMS/CTRL/STATUS/ERROR at the same offsets in every block, written by hand from the package header
        assert {k: m.REG[k] for k in ("ID", "PARAMS", "CTRL", "STATUS", "ERROR")} == {
            "ID": 0x00,
            "PARAMS": 0x04,
            "CTRL": 0x08,
            "STATUS": 0x10,
            "ERROR": 0x14,
        }
        assert (m.ctrl_start, m.status_busy, m.status_done, m.status_error) == (1, 1, 2, 4)
        offs = list(m.REG.values())
        assert offs == sorted(offs) and len(offs) == len(set(offs))
        assert all(o % 4 == 0 and 0 <= o < 256 for o in offs)


@pytest.mark.parametrize("prefix", sorted(BLOCK_FILES))
def test_register_comment_of_the_block_file_matches_the_package(prefix):
    text = (runner.RTL / BLOCK_FILES[prefix]).read_text()
    assert regmap.parse_register_comment(text) == regmap.BLOCKS[prefix].table()


@pytest.mark.parametrize("prefix", sorted(BLOCK_FILES))
def test_datasheet_register_table_matches_the_package(prefix):
    # the block's datasheet holds exactly one register table, and it is the block's map (offset, name, access)
    path = datasheet(prefix)
    assert path.is_file(), f"{path} missing: every block of accel_pkg.sv has a datasheet"
    tables = regmap.parse_markdown_tables(path.read_text())
    assert len(tables) == 1, f"{path.name}: {len(tables)} register tables, want exactly one"
    want = regmap.BLOCKS[prefix].table()
    got = tables[0]

    def row(r):
        return "missing" if r is None else f"0x{r[0]:02X} {r[1]}"

    diff = sorted(n for n in set(want) | set(got) if want.get(n) != got.get(n))
    assert got == want, f"{path.name} differs from accel_pkg.sv ({prefix}_*): " + ", ".join(
        f"{n} doc {row(got.get(n))}, package {row(want.get(n))}" for n in diff
    )


def test_no_register_table_outside_the_datasheets():
    # one home per table: the README and every other Markdown file link to the datasheets instead
    homes = {datasheet(p) for p in BLOCK_FILES}
    elsewhere = {
        str(p.relative_to(runner.ROOT)): len(t)
        for p in markdown_files()
        if p not in homes
        for t in [regmap.parse_markdown_tables(p.read_text())]
        if t
    }
    assert not elsewhere, f"register tables outside docs/<block>.md: {elsewhere}"


def test_table_parsers_see_a_wrong_offset_a_missing_register_and_a_wrong_access():
    good = regmap.CUBE_READER.table()
    rows = "\n".join(f"| 0x{o:02X} | {n} | {a} | text |" for n, (o, a) in good.items())
    assert regmap.parse_markdown_tables(rows) == [good]
    assert regmap.parse_markdown_tables(rows.replace("| 0x20 | ATOM_BYTES", "| 0x24 | ATOM_BYTES")) != [good]
    assert regmap.parse_markdown_tables(re.sub(r"\n\| 0x54 [^\n]*", "", rows)) != [good]
    assert regmap.parse_markdown_tables(rows.replace("| CFG | RW", "| CFG | RO")) != [good]
    assert regmap.parse_markdown_tables(f"text\n{rows}\n\nmore\n| 0x00 | ID | RO |\n") == [good, {"ID": (0, "RO")}]
    comment = "\n".join(f"//   0x{o:02X} {n:12s} {a}  text" for n, (o, a) in good.items()) + "\n`timescale 1ns/1ps\n"
    assert regmap.parse_register_comment(comment) == good
    assert regmap.parse_register_comment(comment.replace("0x18 BASE_LO", "0x1C BASE_LO")) != good
    # only the leading comment counts: a register named in the body is not documentation
    assert regmap.parse_register_comment("`timescale 1ns/1ps\n// 0x00 ID RO\n") == {}


def test_write_masks_come_from_the_fields():
    m = regmap.CUBE_READER
    # CFG: LAYOUT [3:0], FP16 bit 8, NAN_TO_ZERO bit 9 -> 0x30F, written out by hand
    assert m.WMASK["CFG"] == 0x30F == m.field_mask("CFG_LAYOUT") | m.bit("CFG_FP16") | m.bit("CFG_NAN_TO_ZERO")
    assert {n for n, (_, a) in m.table().items() if a == "RW"} == {
        "CFG",
        "BASE_LO",
        "BASE_HI",
        "ATOM_BYTES",
        "ELEM_BYTES",
        "COUNT_W",
        "COUNT_H",
        "COUNT_C",
        "COUNT_N",
        "STRIDE_H",
        "STRIDE_C",
        "STRIDE_N",
    }
    assert m.access("CTRL") == "WO" and m.access("CYCLES") == "RO"
    # cube_reader.sv builds its write-mask vector from the package names, not from literals
    rtl = (runner.RTL / "cube_reader.sv").read_text()
    for name in m.WMASK:
        assert f"CR_WMASK_{name})" in rtl and f"(8 * CR_REG_{name}))" in rtl, name
    assert not re.search(r"32'h[0-9A-Fa-f_]+\}?\s*<<\s*\(8 \*", rtl)


def test_descriptor_struct_is_in_the_package_and_used_by_the_reader():
    assert re.search(r"typedef struct packed \{.*?\} cube_desc_t;", regmap.PKG_TEXT, re.S)
    assert "cube_desc_t" in (runner.RTL / "cube_reader.sv").read_text()
    assert "cube_desc_t" in (runner.RTL / "cr_job_ctrl.sv").read_text()


def test_block_map_helpers():
    m = regmap.CUBE_READER
    assert m.reg_name(0x0C) == "CFG" and m.reg_name(0x58) == "0x58"
    assert m.decode_errors(m.error_mask(["overlap", "bus_decerr"])) == ["overlap", "bus_decerr"]
    assert m.error_mask() == 0x303FF
    assert m.CONST["LAYOUT_MACE"] == 4 and m.ID == 0xC0BE0001
    with pytest.raises(KeyError):
        m.access("NOPE")


def test_descriptor_registers_exist():
    for name in (
        "CTRL",
        "CFG",
        "STATUS",
        "ERROR",
        "BASE_LO",
        "BASE_HI",
        "ATOM_BYTES",
        "ELEM_BYTES",
        "COUNT_W",
        "COUNT_H",
        "COUNT_C",
        "COUNT_N",
        "STRIDE_H",
        "STRIDE_C",
        "STRIDE_N",
        "ATOMS_SENT",
        "NAN_COUNT",
        "INF_COUNT",
    ):
        assert name in CR.REG, name
    assert CR.ID == 0xC0BE0001


def test_field_masks_are_single_bits_that_do_not_collide():
    cfg = [CR.bit("CFG_FP16"), CR.bit("CFG_NAN_TO_ZERO"), CR.field_mask("CFG_LAYOUT")]
    assert cfg[0] & cfg[1] == 0 and (cfg[0] | cfg[1]) & cfg[2] == 0
    status = [CR.status_busy, CR.status_done, CR.status_error]
    assert len(set(status)) == 3 and all(bin(s).count("1") == 1 for s in status)


def test_cfg_word_packs_layout_and_flags():
    # written out by hand from the package: LAYOUT in [3:0], FP16 bit 8, NAN_TO_ZERO bit 9
    assert R.cfg_word(Layout.MACE, fp16=True, nan_to_zero=True) == 0x304
    assert R.cfg_word(Layout.NVDLA_OPERAND) == 0x002


def test_decode_errors_names_bits():
    assert CR.decode_errors((1 << 4) | (1 << 8) | (1 << 16)) == ["align_base", "overlap", "bus_slverr"]
    assert CR.decode_errors(1 << 30) == ["bit30"]


@pytest.mark.parametrize(
    "text, value",
    [
        ("'h3C", 0x3C),
        ("32'hC0BE_0001", 0xC0BE0001),
        ("16", 16),
        ("8'd255", 255),
        ("4'b1010", 10),
        ("1_000", 1000),
    ],
)
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
    with pytest.raises(ValueError, match="before it is defined"):
        regmap.parse_package("localparam int A = B + 1;")
    with pytest.raises(ValueError, match="expression"):
        regmap.parse_package("localparam int A = f(1);")
    with pytest.raises(ValueError, match="expression"):
        regmap.parse_package("localparam int A = 1 ? 2 : 3;")
    with pytest.raises(ValueError, match="does not fit"):
        regmap.parse_package("localparam logic [3:0] A = 'h10;")


def test_package_parser_evaluates_constant_expressions_over_earlier_names():
    text = """localparam int W = 4;
      localparam int LSB = 2;
      localparam logic [31:0] M = ((32'd1 << W) - 32'd1) << LSB
                                | (32'd1 << 9);   // spans two lines
      localparam int N = 'h54 / 4 + 1;"""
    assert regmap.parse_package(text) == {"W": 4, "LSB": 2, "M": 0x23C, "N": 22}
