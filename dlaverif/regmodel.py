"""What a register map is made of: fields and 32-bit registers, the one data model of ``make regs`` (which builds it
from the SystemRDL sources, dlaverif/flow/regs.py) and of the testbench's register model (which loads it from the
generated ``blocks/regmap.json``, dlaverif/regmap.py).

Access types are SystemRDL's software access of the fields: ``RW`` (``sw = rw``), ``RO`` (``sw = r``), ``WO``
(``sw = w``: CTRL.START). A register is RW when it has a RW field, WO when all its fields are WO, RO otherwise;
its write mask is the OR of its RW fields.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class Field:
    name: str
    lsb: int
    width: int
    access: str  # software access: RW, RO, WO
    reset: int | None  # None: the instance sets it (PARAMS)
    desc: str
    enum: str | None = None  # the enum of the .rdl that encodes it (its name without _e, upper case)

    @property
    def msb(self) -> int:
        return self.lsb + self.width - 1

    @property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.lsb

    @property
    def bits(self) -> str:
        """``[9]`` or ``[3:0]``."""
        return f"[{self.lsb}]" if self.width == 1 else f"[{self.msb}:{self.lsb}]"

    def positions(self, stem: str) -> dict[str, int]:
        """The position names of the field (the RTL constants and ``BlockMap.FIELD``): ``<stem>_BIT`` of a 1-bit
        field, ``<stem>_LSB`` and ``<stem>_W`` of a wider one."""
        if self.width == 1:
            return {f"{stem}_BIT": self.lsb}
        return {f"{stem}_LSB": self.lsb, f"{stem}_W": self.width}


@dataclass(frozen=True)
class Register:
    name: str
    offset: int
    desc: str
    fields: tuple[Field, ...]
    common: bool = False  # one of the common pattern (ID, PARAMS, CTRL, STATUS, ERROR)
    error: bool = False  # the ERROR register (its fields are the error bits)

    @property
    def access(self) -> str:
        kinds = {f.access for f in self.fields}
        return "RW" if "RW" in kinds else "WO" if kinds == {"WO"} else "RO"

    @property
    def wmask(self) -> int:
        """Bits software writes and reads back (WO command bits are pulses, not stored)."""
        return sum(f.mask for f in self.fields if f.access == "RW")

    @property
    def reset(self) -> int | None:
        """Reset value of the register (None when a field's value is set by the instance, as PARAMS)."""
        if any(f.reset is None for f in self.fields):
            return None
        return sum((f.reset or 0) << f.lsb for f in self.fields if f.access != "WO")

    @property
    def whole(self) -> bool:
        """One field covering the whole register (it has no field names of its own)."""
        return len(self.fields) == 1 and self.fields[0].width == 32

    def field(self, name: str) -> Field:
        return next(f for f in self.fields if f.name == name)

    @property
    def named_fields(self) -> tuple[Field, ...]:
        """The fields that get position names: none of ID (a constant), of ERROR (its bits are named as error bits)
        or of a register that is one 32-bit field."""
        return () if self.whole or self.name == "ID" or self.error else self.fields

    # ---- the JSON form (blocks/regmap.json): the definition plus the derived access, reset and write mask
    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        return {**d, "access": self.access, "reset": self.reset, "wmask": self.wmask}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "Register":
        fields = tuple(Field(**f) for f in d["fields"])
        return cls(d["name"], d["offset"], d["desc"], fields, d["common"], d["error"])
