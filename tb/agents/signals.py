"""Cheap reads of simulator signals for the agents' per-cycle loops.

``handle.value`` builds a :class:`cocotb.types.LogicArray` (and its ``Range``) on every read, which was the largest
single cost of the default path's stream monitor (issue 12 profile: a third of the simulator process). The agents
read the simulator's binary string instead, through the handle's GPI object; X and Z stay visible as letters, so
the protocol checks see them as before.
"""
from __future__ import annotations

from typing import Any, Optional


def bits(sig: Any) -> str:
    """The value of ``sig`` as the simulator's binary string, most significant bit first ("0", "1", "x", "z" ...)."""
    try:
        return sig._handle.get_signal_val_binstr()   # cocotb 2.x handles: the GPI object behind .value
    except AttributeError:                            # anything else with a cocotb-style .value
        return str(sig.value)


def high(sig: Any) -> bool:
    """A one-bit signal reads exactly 1 (X/Z read as not high)."""
    return bits(sig) == "1"


def uint(sig: Any) -> Optional[int]:
    """The unsigned value of ``sig``, or None if any bit is X/Z."""
    try:
        return int(bits(sig), 2)
    except ValueError:
        return None


def low_bytes(sig: Any, nbytes: int) -> Optional[bytes]:
    """The low ``nbytes`` bytes of ``sig`` (little-endian), or None if any of their bits is X/Z."""
    if nbytes == 0:
        return b""
    try:
        return int(bits(sig)[-8 * nbytes:], 2).to_bytes(nbytes, "little")
    except ValueError:
        return None
