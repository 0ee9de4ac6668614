"""RuleChecked: what every block descriptor has besides its own rules.

A descriptor is a frozen dataclass of register values whose ``errors()`` lists, in bit order, the
validator rules it breaks (the reference model of its RTL validator). This mixin derives the rest
from ``errors()`` and the class's ``ERROR_RULES``: the error word, ``validate()`` raising
:class:`FormatError` ``<RULE_PREFIX>.<first broken rule>``, and ``with_()`` for illegal-descriptor
sequences.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, TypeVar

from .errors import FormatError

T = TypeVar("T", bound="RuleChecked")


class RuleChecked:
    """Mixin for frozen dataclass descriptors with ``errors(addr_bits) -> list[str]``."""

    ERROR_RULES: ClassVar[tuple[str, ...]] = ()
    RULE_PREFIX: ClassVar[str] = "descriptor"

    def errors(self, addr_bits: int = 64) -> list[str]:
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)  # type: ignore[call-overload]  # subclasses are dataclasses

    def error_bits(self, addr_bits: int = 64) -> int:
        """The validator's error word: bit i set when rule ``ERROR_RULES[i]`` is broken."""
        return self.error_word(self.errors(addr_bits))

    def error_word(self, rules: list[str]) -> int:
        """The error word of broken ``rules`` (names of :attr:`ERROR_RULES`): for a descriptor's :meth:`errors`
        under a reader's own build limits (the cube reader's ``max_atom_bytes``)."""
        return sum(1 << self.ERROR_RULES.index(r) for r in rules)

    def validate(self: T, addr_bits: int = 64) -> T:
        """Raise :class:`FormatError` ``<RULE_PREFIX>.<first rule>`` naming every broken rule; return ``self``."""
        bad = self.errors(addr_bits)
        if bad:
            raise FormatError(
                f"{self.RULE_PREFIX}.{bad[0]}", f"illegal {type(self).__name__} ({', '.join(bad)}): {self.to_dict()}"
            )
        return self

    def with_(self: T, **changes: Any) -> T:
        """A copy with some fields changed (for illegal-descriptor sequences)."""
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]  # subclasses are dataclasses
