"""The one exception every model raises for input that breaks a rule of a spec."""

from __future__ import annotations


class FormatError(ValueError):
    """Input breaks a rule of a format specification.

    ``rule`` is a short, stable identifier of the broken rule (for example
    ``"feature.line_stride_align"``) so that tests and tools can match on it; the
    message names the rule, the offending value and what was expected.
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(f"[{rule}] {message}")


def require(condition: bool, rule: str, message: str) -> None:
    """Raise :class:`FormatError` for ``rule`` unless ``condition`` holds."""
    if not condition:
        raise FormatError(rule, message)
