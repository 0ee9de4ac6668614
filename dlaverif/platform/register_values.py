"""A register-controlled reader's registers as its testbench uses them, derived from the block's register map (the
``.rdl``, :mod:`blocks.regmap`): the descriptor registers' values of a descriptor, and the ERROR register's bits (the
validator rules' and the two bus errors')."""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple, Optional, Sequence


class ErrorBits(NamedTuple):
    """The ERROR register of one block: ``rule_bits`` (validator rule, in its model's spelling -> bit position),
    ``validator_mask`` (every rule's bit), ``slverr`` and ``decerr`` (the BUS_SLVERR and BUS_DECERR masks)."""

    rule_bits: dict[str, int]
    validator_mask: int
    slverr: int
    decerr: int

    def word(self, rules: Iterable[str]) -> int:
        """The ERROR bits of validator rules (the names the block's descriptor model's ``errors()`` gives)."""
        return sum(1 << self.rule_bits[r] for r in rules)

    def of_faults(self, faults: Sequence[tuple[int, int, str]]) -> int:
        """The bus-error bits a job must end with when the memory answers ``faults`` ((lo, hi, "SLVERR"|"DECERR")
        ranges that the job reads): one bit per response kind."""
        return sum(self.slverr if resp == "SLVERR" else self.decerr for resp in {f[2] for f in faults})


def error_bits(regs: Any, rules: Optional[Sequence[str]] = None) -> ErrorBits:
    """The :class:`ErrorBits` of a register map (:class:`blocks.regmap.RegisterMap`): the validator rules are ``rules``
    (the model's ``ERROR_RULES``, when ERROR also holds run-time bits) or every ERROR field but the BUS_ ones."""
    names = list(rules) if rules is not None else [k.lower() for k in regs.ERR if not k.startswith("BUS_")]
    rule_bits = {r: regs.ERR[r.upper()] for r in names}
    return ErrorBits(
        rule_bits, regs.error_mask(names), regs.error_mask(["BUS_SLVERR"]), regs.error_mask(["BUS_DECERR"])
    )


def descriptor_words(regs: Any, desc: Any, **computed: int) -> dict[str, int]:
    """The values of the descriptor registers (every read-write register of ``regs``, in offset order: the order
    they are written in) for ``desc``, modulo 2**32 as the bus writes them. A register holds ``computed[name]`` when
    given, else the descriptor's attribute of its name in lower case; a ``<NAME>_LO`` / ``<NAME>_HI`` pair the low
    and high word of the attribute ``<name>`` (a 64-bit address)."""
    out = {}
    for reg in regs.descriptor_regs():
        if reg in computed:
            value = computed[reg]
        elif reg.endswith(("_LO", "_HI")):
            value = getattr(desc, reg[:-3].lower()) >> (32 if reg.endswith("_HI") else 0)
        else:
            value = getattr(desc, reg.lower())
        out[reg] = int(value) & 0xFFFFFFFF
    return out
