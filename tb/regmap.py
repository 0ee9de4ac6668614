"""Python mirror of ``rtl_stubs/accel_pkg.sv``: one register map per DLA block.

``accel_pkg.sv`` is the single source of truth (ARCHITECTURE.md, "every knob has one source of truth"). This
module parses its ``localparam`` lines when it is imported, so a change in the package reaches the testbench
without a second list. ``tests/sim/test_regmap.py`` checks the parse against ``models.blocked`` (error rules,
layout codes), the register comment at the top of each block's RTL file and the datasheets' register tables
(``docs/<block>.md``) against it.

Package naming (stated in the package header): names without a block prefix are the common register pattern
(``REG_ID``, ``REG_PARAMS``, ``REG_CTRL``, ``REG_STATUS``, ``REG_ERROR``, ``CTRL_START_BIT``, ``STATUS_*_BIT``:
the same offsets and bits in every block); a block with prefix ``P`` defines ``P_ID``, ``P_REG_*``,
``P_WMASK_<REG>`` (writable bits of its RW registers), ``P_<REG>_*`` fields (``_BIT``, ``_LSB``, ``_W``,
``_MASK``), ``P_ERR_*`` error bits and any other ``P_*`` constant (layout codes, limits). A block exists when
its ``P_ID`` does; :data:`BLOCKS` maps each prefix to its :class:`BlockMap`.

Names in a map are the package's names without their prefix::

    CUBE_READER.REG["ATOM_BYTES"] -> 0x20      CUBE_READER.ERR["ALIGN_BASE"] -> 4
    CUBE_READER.REG["CTRL"]       -> 0x08      (common registers are part of every block's REG)
    CUBE_READER.FIELD["CFG_FP16_BIT"] -> 8     CUBE_READER.WMASK["CFG"] -> 0x30F
    CUBE_READER.CONST["LAYOUT_MACE"] -> 4      CUBE_READER.ID -> 0xC0BE0001

A block's own helpers built on its map (the cube reader's CFG word, validator mask and bus-error bits) live with
its testbench (``tb/cube_reader/registers.py``); this module knows no block in particular.
"""

from __future__ import annotations

import ast
import operator
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Mapping

PKG_PATH = Path(__file__).resolve().parents[1] / "rtl_stubs" / "accel_pkg.sv"

_LOCALPARAM = re.compile(r"^\s*localparam\s+(?P<type>[^=]*?)\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>[^;]+);", re.M)
_SIZED = re.compile(r"^(?:(\d+)\s*)?'\s*([sS]?)([hHdDbBoO])\s*([0-9a-fA-F_xXzZ]+)$")
_LITERAL_TOKEN = re.compile(r"(?:\d+\s*)?'\s*[sS]?[hHdDbBoO]\s*[0-9a-fA-F_]+|\b\d[\d_]*\b")
_PACKED_WIDTH = re.compile(r"\[\s*(\d+)\s*:\s*0\s*\]")
_BASES = {"h": 16, "d": 10, "b": 2, "o": 8}
_BINOPS: dict[type, Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitOr: operator.or_,
    ast.BitAnd: operator.and_,
    ast.BitXor: operator.xor,
}


def parse_number(text: str) -> int:
    """Value of a SystemVerilog integer literal: ``'h3C``, ``32'hC0BE_0001``, ``16``, ``8'd255``."""
    t = text.strip()
    m = _SIZED.match(t)
    if m:
        return int(m.group(4).replace("_", ""), _BASES[m.group(3).lower()])
    if re.fullmatch(r"\d[\d_]*", t):
        return int(t.replace("_", ""))
    raise ValueError(f"accel_pkg.sv: cannot read the literal {text!r} (only plain SV integer literals are supported)")


def evaluate(text: str, known: Mapping[str, int]) -> int:
    """Value of a constant expression of the package: literals, earlier localparams, ``+ - * / << >> | & ^`` and
    parentheses (SystemVerilog and Python give these operators the same precedence). Anything else (a function
    call, ``~``, a ternary, an unknown name) raises ValueError: the parser must never guess."""
    py = _LITERAL_TOKEN.sub(lambda m: str(parse_number(m.group(0))), text.strip()).replace("/", "//")

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in known:
                raise ValueError(f"accel_pkg.sv: {node.id} is used before it is defined in {text!r}")
            return known[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            return _BINOPS[type(node.op)](ev(node.left), ev(node.right))
        raise ValueError(f"accel_pkg.sv: cannot read the literal or expression {text!r}")

    try:
        tree = ast.parse("(" + " ".join(py.split()) + ")", mode="eval")  # one line: a value may span several
    except SyntaxError:
        raise ValueError(f"accel_pkg.sv: cannot read the literal or expression {text!r}") from None
    value = ev(tree)
    if value < 0:
        raise ValueError(f"accel_pkg.sv: {text!r} is negative")
    return value


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def parse_package(text: str) -> dict[str, int]:
    """Every ``localparam NAME = <constant expression>;`` of a package, in file order (a ``logic [N:0]`` value
    must fit its N+1 bits)."""
    out: dict[str, int] = {}
    for m in _LOCALPARAM.finditer(_strip_comments(text)):
        name = m.group("name")
        if name in out:
            raise ValueError(f"accel_pkg.sv: localparam {name} defined twice")
        value = evaluate(m.group("value"), out)
        width = _PACKED_WIDTH.search(m.group("type"))
        if width and value >> (int(width.group(1)) + 1):
            raise ValueError(f"accel_pkg.sv: {name} = {value:#x} does not fit {m.group('type').strip()}")
        out[name] = value
    return out


def parse_register_comment(text: str) -> dict[str, tuple[int, str]]:
    """The register table of a header comment: every ``0x20 ATOM_BYTES  RW`` of the file's leading ``//`` lines
    -> ``{"ATOM_BYTES": (0x20, "RW")}``."""
    lead = []
    for line in text.splitlines():
        if not line.startswith("//"):
            break
        lead.append(line)
    return {
        m.group(2): (int(m.group(1), 16), m.group(3))
        for m in re.finditer(r"\b0x([0-9A-Fa-f]+)\s+([A-Z][A-Z0-9_]*)\s+(RO|RW|WO)\b", "\n".join(lead))
    }


def parse_markdown_tables(text: str) -> list[dict[str, tuple[int, str]]]:
    """The register tables of a Markdown text, one per run of consecutive table lines: rows
    ``| 0x20 | ATOM_BYTES | RW | ... |`` -> ``{"ATOM_BYTES": (0x20, "RW")}`` (tables without such rows are left out)."""
    tables: list[dict[str, tuple[int, str]]] = []
    current: dict[str, tuple[int, str]] = {}
    for line in text.splitlines() + [""]:
        m = re.match(r"^\|\s*0x([0-9A-Fa-f]+)\s*\|\s*([A-Z][A-Z0-9_]*)\s*\|\s*(RO|RW|WO)\s*\|", line)
        if m:
            current[m.group(2)] = (int(m.group(1), 16), m.group(3))
        elif not line.startswith("|"):
            if current:
                tables.append(current)
            current = {}
    return tables


def _group(params: Mapping[str, int], prefix: str) -> dict[str, int]:
    return {k[len(prefix) :]: v for k, v in params.items() if k.startswith(prefix)}


PKG_TEXT: str = PKG_PATH.read_text()
PARAMS: dict[str, int] = parse_package(PKG_TEXT)

#: the common register pattern: offsets and fields shared by every block (unprefixed in the package)
COMMON_REG: dict[str, int] = _group(PARAMS, "REG_")
COMMON_FIELD: dict[str, int] = {k: v for k, v in PARAMS.items() if k.startswith(("CTRL_", "STATUS_"))}
#: the write-only command register of the common pattern (CTRL.START)
WRITE_ONLY: frozenset[str] = frozenset({"CTRL"})


@dataclass(frozen=True)
class BlockMap:
    """The register map of one block: the common pattern plus the block's ``<prefix>_*`` names of accel_pkg."""

    prefix: str
    ID: int
    REG: dict[str, int]  # every register, common ones included: name -> byte offset
    ERR: dict[str, int]  # error bit positions
    FIELD: dict[str, int]  # field positions/widths/masks: CTRL_START_BIT, STATUS_*_BIT, <REG>_<FIELD>_*
    WMASK: dict[str, int]  # writable bits of each RW register
    CONST: dict[str, int]  # every other block constant (layout codes, limits)

    @classmethod
    def from_params(cls, prefix: str, params: Mapping[str, int]) -> "BlockMap":
        own = _group(params, prefix + "_")
        if "ID" not in own:
            raise ValueError(f"accel_pkg.sv: block {prefix} has no {prefix}_ID")
        reg = dict(sorted({**COMMON_REG, **_group(own, "REG_")}.items(), key=lambda kv: kv[1]))  # by offset
        if len(reg) != len(COMMON_REG) + len(_group(own, "REG_")):
            raise ValueError(f"accel_pkg.sv: block {prefix} redefines a common register")
        err, wmask = _group(own, "ERR_"), _group(own, "WMASK_")
        unknown = set(wmask) - set(reg)
        if unknown:
            raise ValueError(f"accel_pkg.sv: {prefix}_WMASK_ of unknown registers {sorted(unknown)}")
        fields = {
            k: v
            for k, v in own.items()
            if any(k.startswith(r + "_") for r in reg) and not k.startswith(("REG_", "WMASK_"))
        }
        const = {
            k: v
            for k, v in own.items()
            if k != "ID" and k not in fields and not k.startswith(("REG_", "ERR_", "WMASK_"))
        }
        return cls(prefix, own["ID"], reg, err, {**COMMON_FIELD, **fields}, wmask, const)

    # ---- register helpers
    def access(self, name: str) -> str:
        """``RW`` (the register has a write mask), ``WO`` (the common command register) or ``RO``."""
        if name not in self.REG:
            raise KeyError(f"{self.prefix}: no register {name}")
        return "RW" if self.WMASK.get(name) else "WO" if name in WRITE_ONLY else "RO"

    def table(self) -> dict[str, tuple[int, str]]:
        """Every register as ``name -> (offset, access)``, the form the RTL comment and the datasheet are checked in."""
        return {name: (off, self.access(name)) for name, off in self.REG.items()}

    def reg_name(self, offset: int) -> str:
        """Name of the register at a byte offset (``0x58`` style for an unmapped one)."""
        for k, v in self.REG.items():
            if v == offset:
                return k
        return f"0x{offset:02x}"

    def decode_errors(self, word: int) -> list[str]:
        """Names of the error bits set in an ERROR register value (unknown bits as ``bit<N>``)."""
        names = {v: k.lower() for k, v in self.ERR.items()}
        return [names.get(b, f"bit{b}") for b in range(32) if word >> b & 1]

    def bit(self, field: str) -> int:
        """The one-bit mask of a ``*_BIT`` field: ``bit("CFG_FP16")`` -> ``1 << 8``."""
        return 1 << self.FIELD[field + "_BIT"]

    def field_mask(self, field: str) -> int:
        """The mask of a multi-bit field from its ``_LSB``/``_W``: ``field_mask("CFG_LAYOUT")`` -> ``0xF``."""
        return ((1 << self.FIELD[field + "_W"]) - 1) << self.FIELD[field + "_LSB"]

    def error_mask(self, names: list[str] | None = None) -> int:
        """The ERROR bits of ``names`` (every bit of the block by default)."""
        return sum(1 << self.ERR[n.upper()] for n in (names if names is not None else list(self.ERR)))

    @property
    def ctrl_start(self) -> int:
        return self.bit("CTRL_START")

    @property
    def status_busy(self) -> int:
        return self.bit("STATUS_BUSY")

    @property
    def status_done(self) -> int:
        return self.bit("STATUS_DONE")

    @property
    def status_error(self) -> int:
        return self.bit("STATUS_ERROR")


#: every block of the package, by prefix (a block is declared by its <prefix>_ID)
BLOCKS: dict[str, BlockMap] = {
    k[:-3]: BlockMap.from_params(k[:-3], PARAMS) for k in PARAMS if k.endswith("_ID") and not k.startswith("REG_")
}

#: the cube reader (cube_reader.sv), prefix CR
CUBE_READER: BlockMap = BLOCKS["CR"]

#: the weight reader (weight_reader.sv), prefix WR
WEIGHT_READER: BlockMap = BLOCKS["WR"]
#: the pixel reader (pixel_reader.sv), prefix PR
PIXEL_READER: BlockMap = BLOCKS["PR"]
