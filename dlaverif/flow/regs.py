"""`make regs`: every register artefact of the readers, generated from their SystemRDL sources.

The one source of each reader's register map is ``blocks/rtl/regs/<block>.rdl`` (the common pattern ID, PARAMS,
CTRL, STATUS, ERROR in ``blocks/rtl/regs/common.rdl``, included by each). systemrdl-compiler (Accellera SystemRDL
2.0) compiles them; this module walks the elaborated maps and writes (docs/registers.md lists them too):

committed, checked up to date by ``make lint`` (``--check`` regenerates in memory and compares):
  ``blocks/rtl/common/accel_csr_pkg.sv``  package ``accel_csr_pkg``: offsets, fields, write masks, error bits,
                                         enum codes and the register block's vectors (``<P>_NUM_REGS``,
                                         ``<P>_REGS_WMASK``, ...)
  ``blocks/regmap.json``                      the testbench register model (``blocks.regmap`` loads it)
  the register table in the header comment of ``blocks/rtl/<block>/<block>.sv`` and the register and error-bit
  tables of ``docs/<block>.md`` (between ``make regs`` marker lines; the rest of those files is hand-written)
not committed (``sim_build/regs/``):
  ``c/<block>.h``  C header (PeakRDL cheader)          ``html/``  browsable register reference (PeakRDL html)

Bad input never leaves half an output behind: every source is compiled and every output rendered in memory
first; a compiler error (an overlap, a bad access type) stops with the compiler's messages and exit status 2
before any file is touched, and each file is then replaced atomically (written beside, then renamed).

Naming in the SV package and the model (the names the RTL already used; OpenTitan's ``<ip>_reg_pkg`` is the same
idea): the common registers without prefix (``REG_CTRL``, ``CTRL_START_BIT``, ``STATUS_DONE_BIT``); a block's
with its ``dla_prefix`` P: ``P_ID``, ``P_REG_<REG>``, ``P_<REG>_<FIELD>_BIT`` (1-bit fields) or ``_LSB``/``_W``
(wider ones) and ``_MASK``, ``P_WMASK_<REG>`` (the software-writable bits of each RW register), ``P_ERR_<FIELD>``
(the bits of the register marked ``dla_error``), ``P_<ENUM>_<MEMBER>`` (enum ``<enum>_e``). A field that is the
whole 32-bit register gets no field names.

Usage: ``python -m dlaverif.flow.regs [--check] [--out DIR]`` (``make regs``; ``--check`` in ``make lint``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dlaverif.flow import project
from dlaverif.regmodel import Field, Register

ROOT = project.ROOT
#: the project's register sources (its RTL folder's regs/), the package they generate and the model beside its plan
RDL_DIR = project.RTL / "regs"
COMMON_RDL = RDL_DIR / "common.rdl"
PKG_PATH = project.RTL / "common" / "accel_csr_pkg.sv"
MODEL_PATH = project.PLAN.parent / "regmap.json"
OUT_DIR = project.SIM_BUILD / "regs"
#: offsets the register block decodes: 8 address bits (axil_regs' ADDR_W at every reader)
WINDOW = 0x100


class RegsError(Exception):
    """A SystemRDL source does not compile or breaks a rule of the project's maps."""


# ---------------------------------------------------------------------------------------------- the model
# Field and Register are the testbench's (dlaverif/regmodel.py): the generator builds them,
# dlaverif/regmap.py loads them.
@dataclass(frozen=True)
class Block:
    name: str  # the addrmap: <block>
    prefix: str  # CR
    title: str
    desc: str
    source: str  # blocks/rtl/regs/<block>.rdl
    registers: tuple[Register, ...]
    enums: dict[str, tuple[tuple[str, int, str], ...]] = field(default_factory=dict)

    @property
    def ident(self) -> int:
        reset = self.reg("ID").reset
        assert reset is not None
        return reset

    def reg(self, name: str) -> Register:
        return next(r for r in self.registers if r.name == name)

    @property
    def num_regs(self) -> int:
        return max(r.offset for r in self.registers) // 4 + 1


# ---------------------------------------------------------------------------------------------- compile
def _rel(path: Path) -> str:
    """A path as messages and outputs name it: relative to the repository when inside it."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def rdl_sources() -> list[Path]:
    """Every block source: each ``.rdl`` of blocks/rtl/regs but the shared ``common.rdl``, by name."""
    return sorted(p for p in RDL_DIR.glob("*.rdl") if p != COMMON_RDL)


def _access(node: Any) -> str:  # a systemrdl FieldNode
    if node.is_sw_writable and node.is_sw_readable:
        return "RW"
    return "WO" if node.is_sw_writable else "RO"


def compile_block(path: Path) -> tuple[Block, object]:
    """Compile one block's .rdl (with common.rdl) into a :class:`Block`; RegsError with the compiler's messages."""
    from systemrdl import RDLCompileError, RDLCompiler  # the flow imports it only when generating

    compiler = RDLCompiler()
    try:
        compiler.compile_file(str(path))
        root = compiler.elaborate()
    except RDLCompileError as exc:
        raise RegsError(f"{_rel(path)}: {exc} (the compiler's messages are above)") from None
    tops = list(root.children())
    if len(tops) != 1:
        raise RegsError(f"{_rel(path)}: one addrmap per file, found {len(tops)}")
    top = tops[0]
    return _block(top, path), top


def _block(top: Any, path: Path) -> Block:  # top: a systemrdl AddrmapNode
    src = _rel(path)
    prefix = top.get_property("dla_prefix", default=None)
    if not prefix:
        raise RegsError(f"{src}: the addrmap has no dla_prefix")
    enums: dict[str, tuple[tuple[str, int, str], ...]] = {}
    regs = []
    for r in top.registers():
        if r.is_array or r.get_property("regwidth") != 32:
            raise RegsError(f"{src}: {r.inst_name}: only single 32-bit registers are supported")
        fields = []
        for f in r.fields():
            enc = f.get_property("encode")
            enum = None
            if enc is not None:
                enum = enc.type_name.removesuffix("_e").upper()
                members = tuple((m.name, int(m.value), m.rdl_desc or "") for m in enc)
                if enums.setdefault(enum, members) != members:
                    raise RegsError(f"{src}: two enums named {enum}")
            reset = f.get_property("reset")
            if reset is not None and not isinstance(reset, int):
                raise RegsError(f"{src}: {r.inst_name}.{f.inst_name}: the reset must be a constant")
            fields.append(
                Field(
                    f.inst_name,
                    f.lsb,
                    f.width,
                    _access(f),
                    reset,
                    " ".join((f.get_property("desc") or "").split()),
                    enum,
                )
            )
        regs.append(
            Register(
                r.inst_name,
                r.address_offset,
                " ".join((r.get_property("desc") or "").split()),
                tuple(fields),
                bool(r.get_property("dla_common", default=False) or r.get_property("dla_error", default=False)),
                bool(r.get_property("dla_error", default=False)),
            )
        )
    block = Block(
        top.inst_name,
        prefix,
        top.get_property("name") or top.inst_name,
        " ".join((top.get_property("desc") or "").split()),
        src,
        tuple(regs),
        enums,
    )
    _check_block(block)
    return block


def _check_block(b: Block) -> None:
    """The project's rules beyond SystemRDL's: what the register block and the RTL rely on."""
    names = [r.name for r in b.registers]
    for must in ("ID", "PARAMS", "CTRL", "STATUS", "ERROR"):
        if must not in names:
            raise RegsError(f"{b.source}: no {must} register (the common pattern: `DLA_COMMON_REGS)")
    if sum(r.error for r in b.registers) != 1:
        raise RegsError(f"{b.source}: exactly one register must be marked dla_error")
    if b.num_regs * 4 > WINDOW:
        raise RegsError(f"{b.source}: the map ends past the 0x{WINDOW:x}-byte window of the register block")
    for r in b.registers:
        if r.offset % 4:
            raise RegsError(f"{b.source}: {r.name} at 0x{r.offset:x} is not word aligned")


def check_common(blocks: list[Block]) -> None:
    """The common registers are the same (offset, fields) in every block but for the ID value and the ERROR bits."""
    ref = blocks[0]
    for b in blocks[1:]:
        for r in ref.registers:
            if not r.common or r.name == "ID" or r.error:
                continue
            if b.reg(r.name) != r:
                raise RegsError(f"{b.source}: common register {r.name} differs from {ref.source}'s")
        if b.reg("ERROR").offset != ref.reg("ERROR").offset:
            raise RegsError(f"{b.source}: ERROR is not at 0x{ref.reg('ERROR').offset:02x}")


def compile_all() -> tuple[list[Block], list]:
    """Every block (and its elaborated systemrdl node, for the PeakRDL exporters)."""
    pairs = [compile_block(p) for p in rdl_sources()]
    if not pairs:
        raise RegsError(f"no .rdl block source in {_rel(RDL_DIR)}")
    blocks = [b for b, _ in pairs]
    check_common(blocks)
    prefixes = [b.prefix for b in blocks]
    if len(set(prefixes)) != len(prefixes):
        raise RegsError(f"two blocks share a prefix: {prefixes}")
    return blocks, [n for _, n in pairs]


# ---------------------------------------------------------------------------------------------- renderers
GENERATED = "generated by `make regs` (dlaverif/flow/regs.py) from blocks/rtl/regs/*.rdl: edit the .rdl, not this file"


def _sv_hex(value: int, width: int) -> str:
    digits = (width + 3) // 4
    h = f"{value:0{digits}X}"
    groups = [h[max(0, i - 4) : i] for i in range(len(h), 0, -4)][::-1]
    return f"{width}'h" + "_".join(groups)


def _field_consts(stem: str, f: Field) -> list[tuple[str, str, str]]:
    """(type, name, value) of one field's constants: its position names (``Field.positions``) and its mask."""
    out = [("int", name, str(value)) for name, value in f.positions(stem).items()]
    out.append(("logic [31:0]", f"{stem}_MASK", _sv_hex(f.mask, 32)))
    return out


def _consts(b: Block, common: bool) -> list[tuple[str, str, str, str]]:
    """(type, name, value, comment) of a block's constants (common=True: the unprefixed common pattern)."""
    out: list[tuple[str, str, str, str]] = []
    p = "" if common else b.prefix + "_"
    regs = [r for r in b.registers if r.common == common]
    if not common:
        out.append(("logic [31:0]", f"{p}ID", _sv_hex(b.ident, 32), "the ID register's value"))
    for r in regs:
        out.append(("int", f"{p}REG_{r.name}", f"'h{r.offset:02X}", r.access))
    for r in regs:
        for f in r.named_fields:
            for t, n, v in _field_consts(f"{p}{r.name}_{f.name}", f):
                out.append((t, n, v, ""))
    for r in regs:
        if r.wmask:
            out.append(("logic [31:0]", f"{p}WMASK_{r.name}", _sv_hex(r.wmask, 32), ""))
    if not common:
        for f in b.reg("ERROR").fields:
            out.append(("int", f"{p}ERR_{f.name}", str(f.lsb), f.desc))
        for enum, members in b.enums.items():
            for code, value, what in members:
                out.append(("int", f"{p}{enum}_{code}", str(value), what))
        count = b.num_regs
        wm = sum(r.wmask << (32 * (r.offset // 4)) for r in b.registers)
        rst = sum(((r.reset or 0) & r.wmask) << (32 * (r.offset // 4)) for r in b.registers)
        mapped = sum(1 << (r.offset // 4) for r in b.registers)
        out += [
            ("int", f"{p}NUM_REGS", str(count), f"registers 0x00..0x{4 * (count - 1):02X} of the register block"),
            (
                f"logic [{32 * count - 1}:0]",
                f"{p}REGS_WMASK",
                _sv_hex(wm, 32 * count),
                "every register's WMASK, register i at [32*i +: 32]",
            ),
            (
                f"logic [{32 * count - 1}:0]",
                f"{p}REGS_RESET",
                _sv_hex(rst, 32 * count),
                "reset values of the stored (RW) bits",
            ),
            (
                f"logic [{count - 1}:0]",
                f"{p}REGS_MAPPED",
                _sv_hex(mapped, count),
                "bit i: register i exists (else SLVERR)",
            ),
        ]
    return out


def render_package(blocks: list[Block]) -> str:
    lines = [
        "// accel_csr_pkg: the register constants of the DLA readers,",
        f"// {GENERATED}.",
        "//",
        "// Names (docs/registers.md): the common pattern unprefixed (REG_<REG>, <REG>_<FIELD>_BIT/_LSB/_W/_MASK);",
        "// a block's with its prefix P: P_ID, P_REG_<REG>, P_<REG>_<FIELD>_*, P_WMASK_<REG>, P_ERR_<BIT>,",
        "// P_<ENUM>_<CODE>, and the register block's parameters P_NUM_REGS, P_REGS_WMASK, P_REGS_RESET,",
        "// P_REGS_MAPPED. The file name sorts before accel_pkg.sv and every module: a bare",
        "// `verilator blocks/rtl/common/*.sv` reads it first.",
        "`timescale 1ns/1ps",
        "// Waiver, UNUSEDPARAM: every constant of every map is here; a block uses part of them by design.",
        "/* verilator lint_off UNUSEDPARAM */",
        "package accel_csr_pkg;",
    ]

    def emit(title: str, consts: list[tuple[str, str, str, str]]) -> None:
        lines.append("")
        lines.append(f"  // ================================================================ {title}")
        for t, n, v, c in consts:
            decl = f"  localparam {t} {n} = {v};"
            lines.append(f"{decl:<72}// {c}".rstrip() if c and len(decl) < 72 and len(c) < 46 else decl)

    emit("common register pattern (every block)", _consts(blocks[0], common=True))
    for b in blocks:
        emit(f"{b.prefix}_: {b.title} ({b.source})", _consts(b, common=False))
    lines += ["", "endpackage", "/* verilator lint_on UNUSEDPARAM */", ""]
    return "\n".join(lines)


def model_json(blocks: list[Block]) -> str:
    """The testbench register model: blocks/regmap.json (loaded by blocks.regmap)."""
    data = {
        "_generated": GENERATED,
        "window": WINDOW,
        "blocks": {
            b.prefix: {
                "name": b.name,
                "title": b.title,
                "source": b.source,
                "id": b.ident,
                "registers": [r.to_json() for r in b.registers],
                "enums": {k: [{"name": m, "value": v, "desc": d} for m, v, d in ms] for k, ms in b.enums.items()},
            }
            for b in blocks
        },
    }
    return json.dumps(data, indent=1) + "\n"


def _enum_text(b: Block, f: Field) -> str:
    """`` (0 GENERIC, 1 NVDLA_FEATURE, ...)`` of an encoded field, empty otherwise."""
    return " (" + ", ".join(f"{v} {m}" for m, v, _ in b.enums[f.enum]) + ")" if f.enum else ""


def _summary(b: Block, r: Register) -> str:
    """One-line description of a register for the tables: its description, or its fields."""
    if r.name == "ID":
        return f"0x{b.ident:08X}"
    if r.error:
        return "one bit per rule (error bits)"
    if r.whole:
        return r.desc
    return ", ".join(f"{f.bits} {f.name}{_enum_text(b, f)}" for f in r.fields)


def _reset_text(r: Register) -> str:
    if r.access == "WO":
        return "-"
    return "instance" if r.reset is None else f"0x{r.reset:X}"


def rtl_table(b: Block) -> list[str]:
    """The register table of the block's RTL header comment (lines without the marker lines)."""
    width = max(len(r.name) for r in b.registers)
    out = []
    for r in b.registers:
        head = f"//   0x{r.offset:02X} {r.name:<{width}} {r.access}  "
        text = _summary(b, r)
        if r.error:
            text = ", ".join(f"{f.bits} {f.name}" for f in r.fields)
        # wrap between words, never inside "[9] NAN_TO_ZERO"
        wrapped = [w.replace("\0", " ") for w in textwrap.wrap(text.replace("] ", "]\0"), 116 - len(head))] or [""]
        out.append(head + wrapped[0])
        out += ["//" + " " * (len(head) - 2) + w for w in wrapped[1:]]
    first = 4 * b.num_regs
    tail = f"0x{first:02X}..0x{WINDOW - 4:02X}"
    out.append(f"//   Unmapped offsets ({tail}) answer SLVERR; writes to RO registers answer OKAY and are")
    out.append("//   ignored; CTRL reads 0; START is ignored while BUSY.")
    return out


def md_registers(b: Block) -> list[str]:
    out = ["| offset | name | access | reset | fields |", "| --- | --- | --- | --- | --- |"]
    for r in b.registers:
        text = _summary(b, r).replace("error bits", "[error bits](#error-bits)") if r.error else _summary(b, r)
        if not r.whole and not r.error and r.name != "ID":
            text = "; ".join(f"{f.bits} {f.name}: {f.desc}{_enum_text(b, f)}" for f in r.fields)
        out.append(f"| 0x{r.offset:02X} | {r.name} | {r.access} | {_reset_text(r)} | {text} |")
    return out


def md_errors(b: Block) -> list[str]:
    out = ["| bit | name | set when |", "| --- | --- | --- |"]
    out += [f"| {f.lsb} | {f.name} | {f.desc} |" for f in b.reg("ERROR").fields]
    return out


# ---------------------------------------------------------------------------------------------- regions
def _marker(style: str, edge: str, what: str) -> str:
    if style == "sv":
        return f"// [make regs] {edge} {what}"
    return f"<!-- make regs: {edge} {what} -->"


def replace_region(text: str, path: str, style: str, what: str, body: list[str]) -> str:
    """``text`` with the lines between the begin/end markers of ``what`` replaced by ``body``."""
    begin, end = _marker(style, "begin", what), _marker(style, "end", what)
    lines = text.split("\n")
    try:
        i = next(k for k, line in enumerate(lines) if line.strip() == begin)
        j = next(k for k in range(i + 1, len(lines)) if lines[k].strip() == end)
    except StopIteration:
        raise RegsError(f"{path}: no '{begin}' ... '{end}' lines to fill") from None
    return "\n".join(lines[: i + 1] + body + lines[j:])


def _datasheet(block: str) -> Path:
    """The block's datasheet, as the plan names it (``blocks.<block>.datasheet``): its register table goes there."""
    from dlaverif.flow import testplan

    entry = testplan.load().blocks.get(block)
    if entry is None or not entry.datasheet:
        raise RegsError(f"block {block} has no datasheet in {project.PLAN} (blocks.{block}.datasheet)")
    return ROOT / entry.datasheet


def render_committed(blocks: list[Block]) -> dict[Path, str]:
    """Every committed output: path -> its full new text."""
    out = {PKG_PATH: render_package(blocks), MODEL_PATH: model_json(blocks)}
    for b in blocks:
        sv = project.RTL / b.name / f"{b.name}.sv"
        md = _datasheet(b.name)
        for path in (sv, md):
            if not path.exists():
                raise RegsError(f"{b.source}: block {b.name} has no {path.relative_to(ROOT)}")
        out[sv] = replace_region(sv.read_text(), str(sv.relative_to(ROOT)), "sv", "register map", rtl_table(b))
        text = replace_region(md.read_text(), str(md.relative_to(ROOT)), "md", "register table", md_registers(b))
        out[md] = replace_region(text, str(md.relative_to(ROOT)), "md", "error bits", md_errors(b))
    return out


def render_references(nodes: list, out_dir: Path) -> None:
    """PeakRDL's C headers and HTML reference into ``out_dir`` (c/<block>.h, html/)."""
    from peakrdl_cheader.exporter import CHeaderExporter
    from peakrdl_html import HTMLExporter

    (out_dir / "c").mkdir(parents=True, exist_ok=True)
    for node in nodes:
        CHeaderExporter().export(node, str(out_dir / "c" / f"{node.inst_name}.h"))
    HTMLExporter().export(nodes, str(out_dir / "html"), title="DLA readers: register reference")


def write_atomically(files: dict[Path, str]) -> list[Path]:
    """Replace every file whose text changes (each written beside, then renamed); the changed ones."""
    changed = [p for p, t in files.items() if not p.exists() or p.read_text() != t]
    staged = []
    try:
        for p in changed:
            fd, name = tempfile.mkstemp(prefix=f".{p.name}.", dir=p.parent)
            with os.fdopen(fd, "w") as fh:
                fh.write(files[p])
            os.chmod(name, 0o644)
            staged.append((Path(name), p))
    except OSError:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, p in staged:
        os.replace(tmp, p)
    return changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="make regs", description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare the committed outputs, write nothing")
    ap.add_argument("--out", type=Path, default=OUT_DIR, help="folder of the C headers and the HTML reference")
    args = ap.parse_args(argv)
    try:
        blocks, nodes = compile_all()
        files = render_committed(blocks)
    except RegsError as exc:
        print(f"make regs: {exc}", file=sys.stderr)
        return 2
    if args.check:
        stale = [p for p, t in files.items() if not p.exists() or p.read_text() != t]
        for p in stale:
            print(f"regs: {p.relative_to(ROOT)} is not what `make regs` generates from the .rdl: run make regs")
        if stale:
            return 1
        print(f"regs: {len(files)} generated files up to date with {len(blocks)} .rdl sources")
        return 0
    with tempfile.TemporaryDirectory(prefix="regs.") as tmp:
        render_references(nodes, Path(tmp))
        args.out.mkdir(parents=True, exist_ok=True)
        for sub in ("c", "html"):
            dest = args.out / sub
            if dest.exists():
                shutil.rmtree(dest)
            os.replace(Path(tmp) / sub, dest)
    changed = write_atomically(files)
    for p in changed:
        print(f"regs: wrote {p.relative_to(ROOT)}")
    print(
        f"regs: {len(blocks)} maps, {len(files)} committed files ({len(changed)} changed); "
        f"C headers and HTML in {_rel(args.out)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
