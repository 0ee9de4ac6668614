"""Python mirror of ``rtl_stubs/dla_pkg.sv``: register offsets, fields, layout codes and error bits.

``dla_pkg.sv`` is the single source of truth (ARCHITECTURE.md, "every knob has one source of truth"). This
module parses its ``localparam`` lines when it is imported, so a change in the package reaches the testbench
without a second list. ``tests/sim/test_regmap.py`` checks the parse against ``models.blocked`` (error rules,
layout codes) and checks the offsets (unique, 4-byte aligned, equal to the documented table in the header).

Names are the package's names without their prefix::

    REG["ATOM_BYTES"]   -> 0x20          ERR["ALIGN_BASE"] -> 4     LAYOUT["NVDLA_FEATURE"] -> 1
    FIELD["CFG_FP16_BIT"] -> 8           ID -> 0xC0BE0001           MAX_COUNT -> 65535
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping

PKG_PATH = Path(__file__).resolve().parents[1] / "rtl_stubs" / "dla_pkg.sv"

_LOCALPARAM = re.compile(r"^\s*localparam\s+(?P<type>[^=]*?)\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>[^;]+);", re.M)
_SIZED = re.compile(r"^(?:(\d+)\s*)?'\s*([sS]?)([hHdDbBoO])\s*([0-9a-fA-F_xXzZ]+)$")
_BASES = {"h": 16, "d": 10, "b": 2, "o": 8}


def parse_number(text: str) -> int:
    """Value of a SystemVerilog integer literal: ``'h3C``, ``32'hC0BE_0001``, ``16``, ``8'd255``."""
    t = text.strip()
    m = _SIZED.match(t)
    if m:
        return int(m.group(4).replace("_", ""), _BASES[m.group(3).lower()])
    if re.fullmatch(r"\d[\d_]*", t):
        return int(t.replace("_", ""))
    raise ValueError(f"dla_pkg.sv: cannot read the literal {text!r} (only plain SV integer literals are supported)")


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def parse_package(text: str) -> dict[str, int]:
    """Every ``localparam NAME = <integer literal>;`` of a package, in file order."""
    out: dict[str, int] = {}
    for m in _LOCALPARAM.finditer(_strip_comments(text)):
        name = m.group("name")
        if name in out:
            raise ValueError(f"dla_pkg.sv: localparam {name} defined twice")
        out[name] = parse_number(m.group("value"))
    return out


def parse_header_table(text: str) -> dict[str, int]:
    """The register table documented in the package's header comment (``//   0x20 ATOM_BYTES  RW ...``)."""
    return {m.group(2): int(m.group(1), 16)
            for m in re.finditer(r"^//\s+0x([0-9A-Fa-f]+)\s+([A-Z][A-Z0-9_]*)\s+(?:RO|RW|WO)\b", text, re.M)}


def _group(params: Mapping[str, int], prefix: str) -> dict[str, int]:
    return {k[len(prefix):]: v for k, v in params.items() if k.startswith(prefix)}


PKG_TEXT: str = PKG_PATH.read_text()
PARAMS: dict[str, int] = parse_package(PKG_TEXT)

#: register byte offsets: REG["CFG"] == 0x0C
REG: dict[str, int] = _group(PARAMS, "REG_")
#: error bit positions: ERR["OVERLAP"] == 8, ERR["BUS_SLVERR"] == 16
ERR: dict[str, int] = _group(PARAMS, "ERR_")
#: layout codes: LAYOUT["ONEDNN"] == 3
LAYOUT: dict[str, int] = _group(PARAMS, "LAYOUT_")
#: field positions: CTRL_START_BIT, CFG_LAYOUT_LSB, CFG_FP16_BIT, CFG_NAN_TO_ZERO_BIT, STATUS_*_BIT
FIELD: dict[str, int] = {k: v for k, v in PARAMS.items() if k.startswith(("CTRL_", "CFG_", "STATUS_"))}

ID: int = PARAMS["CUBE_READER_ID"]
MAX_COUNT: int = PARAMS["MAX_COUNT"]

CTRL_START = 1 << FIELD["CTRL_START_BIT"]
CFG_LAYOUT_LSB = FIELD["CFG_LAYOUT_LSB"]
CFG_LAYOUT_MASK = 0xF << CFG_LAYOUT_LSB
CFG_FP16 = 1 << FIELD["CFG_FP16_BIT"]
CFG_NAN_TO_ZERO = 1 << FIELD["CFG_NAN_TO_ZERO_BIT"]
STATUS_BUSY = 1 << FIELD["STATUS_BUSY_BIT"]
STATUS_DONE = 1 << FIELD["STATUS_DONE_BIT"]
STATUS_ERROR = 1 << FIELD["STATUS_ERROR_BIT"]

#: validator rule name (models.blocked.ERROR_RULES spelling) -> bit position
RULE_BITS: dict[str, int] = {k.lower(): v for k, v in ERR.items() if not k.startswith("BUS_")}
BUS_SLVERR: int = 1 << ERR["BUS_SLVERR"]
BUS_DECERR: int = 1 << ERR["BUS_DECERR"]
VALIDATOR_MASK: int = sum(1 << b for b in RULE_BITS.values())


def cfg_word(layout: int, fp16: bool = False, nan_to_zero: bool = False) -> int:
    """The CFG register value for a layout code and the two fp16 flags."""
    return ((int(layout) << CFG_LAYOUT_LSB) & CFG_LAYOUT_MASK) | (CFG_FP16 if fp16 else 0) \
        | (CFG_NAN_TO_ZERO if nan_to_zero else 0)


def decode_errors(word: int) -> list[str]:
    """Names of the error bits set in an ERROR register value (unknown bits as ``bit<N>``)."""
    names = {v: k.lower() for k, v in ERR.items()}
    return [names.get(b, f"bit{b}") for b in range(32) if word >> b & 1]


def reg_name(offset: int) -> str:
    for k, v in REG.items():
        if v == offset:
            return k
    return f"0x{offset:02x}"
