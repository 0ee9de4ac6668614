"""A register-controlled reader's ERROR register as its testbench uses it, derived once from the block's register map
(the ``.rdl``, :mod:`tb.regmap`): the validator rules' bits and the two bus-error bits."""

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
    """The :class:`ErrorBits` of a register map (:class:`tb.regmap.RegisterMap`): the validator rules are ``rules``
    (the model's ``ERROR_RULES``, when ERROR also holds run-time bits) or every ERROR field but the BUS_ ones."""
    names = list(rules) if rules is not None else [k.lower() for k in regs.ERR if not k.startswith("BUS_")]
    rule_bits = {r: regs.ERR[r.upper()] for r in names}
    return ErrorBits(
        rule_bits, regs.error_mask(names), regs.error_mask(["BUS_SLVERR"]), regs.error_mask(["BUS_DECERR"])
    )
