"""Shared checks of block descriptors (``models.core.rules.RuleChecked``)."""

import pytest

from dlaverif.models import FormatError


def assert_breaks_only(descriptor, rule, rules_in_bit_order, prefix):
    """``descriptor`` breaks ``rule`` and no other: its own bit only, and ``validate`` names it."""
    assert descriptor.errors() == [rule]
    assert descriptor.error_bits() == 1 << rules_in_bit_order.index(rule)
    with pytest.raises(FormatError) as exc:
        descriptor.validate()
    assert exc.value.rule == f"{prefix}.{rule}"
