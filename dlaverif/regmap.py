"""The testbench's register model: one map per DLA block, generated from the SystemRDL sources.

A project's register maps come from its SystemRDL sources: ``make regs`` (:mod:`dlaverif.flow.regs`) compiles them
into one JSON model that :func:`load` reads (no SystemVerilog is parsed, and the testbench needs no SystemRDL
compiler at run time); ``make lint`` checks that the JSON is what the .rdl gives. This module loads no file itself:
this repository's maps are ``blocks.regmap`` (``blocks/regmap.json``).

Each :class:`BlockMap` is indexed by the names of the .rdl (the RTL's constants are the same names with the
block prefix, docs/registers.md)::

    BLOCK.REG["BASE_LO"] -> 0x10          BLOCK.ERR["ALIGN_BASE"] -> 4
    BLOCK.REG["CTRL"]    -> 0x08          (the common registers are part of every block's REG)
    BLOCK.FIELD["CFG_FP16_BIT"] -> 8      BLOCK.WMASK["CFG"] -> 0xFF00030F
    BLOCK.CONST["LAYOUT_MACE"] -> 4       BLOCK.ID -> 0xC0BE0001
    BLOCK.registers["CFG"].field("LAYOUT").reset -> 0

A block's own helpers built on its map (a CFG word, a validator mask, bus-error bits) live with
its testbench (``blocks/<block>/registers.py``); this module knows no block in particular.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dlaverif.regmodel import Register


@dataclass(frozen=True)
class BlockMap:
    """The register map of one block."""

    prefix: str
    name: str  # the RTL top (the .rdl's addrmap)
    ID: int
    registers: dict[str, Register]  # by offset
    REG: dict[str, int]  # every register, common ones included: name -> byte offset
    ERR: dict[str, int]  # error bit positions (fields of ERROR)
    FIELD: dict[str, int]  # <REG>_<FIELD>_BIT, or _LSB and _W (the RTL constants' names without the prefix)
    WMASK: dict[str, int]  # software-writable bits of each RW register
    CONST: dict[str, int]  # enum codes: <ENUM>_<CODE> (LAYOUT_MACE, SURFACE_WMB)
    window: int  # bytes the register block decodes (unmapped offsets below it answer SLVERR)

    @classmethod
    def from_model(cls, prefix: str, data: dict[str, Any], window: int) -> "BlockMap":
        regs = {r.name: r for r in sorted(map(Register.from_json, data["registers"]), key=lambda r: r.offset)}
        field_pos = {
            k: v for r in regs.values() for f in r.named_fields for k, v in f.positions(f"{r.name}_{f.name}").items()
        }
        error = next(r for r in regs.values() if r.error)
        consts = {f"{e}_{m['name']}": m["value"] for e, ms in data["enums"].items() for m in ms}
        return cls(
            prefix,
            data["name"],
            data["id"],
            regs,
            {k: r.offset for k, r in regs.items()},
            {f.name: f.lsb for f in error.fields},
            field_pos,
            {k: r.wmask for k, r in regs.items() if r.wmask},
            consts,
            window,
        )

    # ---- register helpers
    def access(self, name: str) -> str:
        """``RW``, ``WO`` or ``RO`` (from the fields' software access in the .rdl)."""
        if name not in self.registers:
            raise KeyError(f"{self.prefix}: no register {name}")
        return self.registers[name].access

    def table(self) -> dict[str, tuple[int, str]]:
        """Every register as ``name -> (offset, access)``."""
        return {name: (r.offset, r.access) for name, r in self.registers.items()}

    def names(self, access: str) -> list[str]:
        """The registers of one access type, in offset order (``names("RW")``: the descriptor registers)."""
        return [k for k, r in self.registers.items() if r.access == access]

    def descriptor_regs(self) -> tuple[str, ...]:
        """The descriptor: every RW register, in offset order (what a job's programming writes)."""
        return tuple(self.names("RW"))

    def status_regs(self) -> tuple[str, ...]:
        """What a job leaves to read: every RO register but the constants ID and PARAMS, in offset order."""
        return tuple(n for n in self.names("RO") if n not in ("ID", "PARAMS"))

    def unmapped(self) -> list[int]:
        """Every word offset of the register block's window that no register has."""
        used = set(self.REG.values())
        return [o for o in range(0, self.window, 4) if o not in used]

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


class JobStatus:
    """What a job left in a block's registers, read back after it: every status register of the map
    (:meth:`BlockMap.status_regs`, every RO register of the .rdl but ID and PARAMS) as a lower-case attribute
    (``st.status``, ``st.error``, ``st.atoms_sent``, ``st.groups_done``), plus ``done`` (DONE seen, irq, before the
    timeout) and ``wait_cycles`` (cycles the agent waited for DONE after START). One class for every block: a
    register added to the .rdl is read and printed without a testbench edit."""

    def __init__(self, regs: BlockMap, values: dict[str, int], done: bool = True, wait_cycles: int = 0) -> None:
        missing = [n for n in regs.status_regs() if n not in values]
        if missing:
            raise KeyError(f"{regs.prefix}: status registers not read: {', '.join(missing)}")
        self.regs = regs
        self.values = dict(values)
        self.done = done
        self.wait_cycles = wait_cycles

    def __getattr__(self, name: str) -> int:
        values = self.__dict__.get("values")
        if values is None or name.upper() not in values:
            raise AttributeError(name)
        return int(values[name.upper()])

    @property
    def busy(self) -> bool:
        return bool(self.values["STATUS"] & self.regs.status_busy)

    def __str__(self) -> str:
        rest = " ".join(f"{k}={v}" for k, v in self.values.items() if k not in ("STATUS", "ERROR"))
        err = self.values["ERROR"]
        return f"STATUS=0x{self.values['STATUS']:x} ERROR=0x{err:x} {self.regs.decode_errors(err)} {rest}"


def load(path: Path) -> dict[str, BlockMap]:
    """Every block of a generated model, by prefix."""
    data = json.loads(path.read_text())
    return {p: BlockMap.from_model(p, b, data["window"]) for p, b in data["blocks"].items()}
