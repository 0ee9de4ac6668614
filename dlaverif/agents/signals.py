"""Cheap reads of simulator signals for the agents' per-cycle loops.

``handle.value`` builds a :class:`cocotb.types.LogicArray` (and its ``Range``) on every read, which was the largest
single cost of the default path's stream monitor (sampling profile: a third of the simulator process). The agents
read the simulator's binary string instead, through the handle's GPI object; X and Z stay visible as letters, so
the protocol checks see them as before.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import cocotb

#: a two-state simulator (Verilator) has no X or Z, so narrow values may be read as integers directly
TWO_STATE = "verilator" in (getattr(cocotb, "SIM_NAME", None) or "").lower()


def bits(sig: Any) -> str:
    """The value of ``sig`` as the simulator's binary string, most significant bit first ("0", "1", "x", "z" ...)."""
    try:
        return sig._handle.get_signal_val_binstr()  # cocotb 2.x handles: the GPI object behind .value
    except AttributeError:  # anything else with a cocotb-style .value
        return str(sig.value)


def in_reset(sig: Any, active_high: bool = True) -> bool:
    """A reset wire holds its DUT in reset: reads 1 (active high) or not 1 (active low: X/Z count as asserted)."""
    return high(sig) if active_high else not high(sig)


def high(sig: Any) -> bool:
    """A one-bit signal reads exactly 1 (X/Z read as not high: VPI's integer value maps X and Z bits to 0)."""
    try:
        return sig._handle.get_signal_val_long() == 1
    except AttributeError:
        return bits(sig) == "1"


def uint(sig: Any) -> Optional[int]:
    """The unsigned value of ``sig``, or None if any bit is X/Z (a loop reading the same wire every cycle binds
    :func:`uint_reader` instead)."""
    return uint_of(bits(sig))


def uint_of(binstr: str) -> Optional[int]:
    """The unsigned value of a binary string read from a signal, or None if it holds X or Z."""
    try:
        return int(binstr, 2)
    except ValueError:
        return None


def low_bytes_of(binstr: str, nbytes: int) -> Optional[bytes]:
    """The low ``nbytes`` bytes (little-endian) of a value read as a binary string, or None if any of their bits is
    X/Z."""
    if nbytes == 0:
        return b""
    try:
        return int(binstr[-8 * nbytes :], 2).to_bytes(nbytes, "little")
    except ValueError:
        return None


# ---------------------------------------------------------------- bound readers for the per-cycle loops
# A loop that reads the same wires on every cycle binds each read once: the calls below skip the handle lookups.


def bits_reader(sig: Any) -> Callable[[], str]:
    """A function returning :func:`bits` of ``sig``."""
    gpi = getattr(sig, "_handle", None)
    return gpi.get_signal_val_binstr if gpi is not None else (lambda: str(sig.value))


def level_reader(sig: Any) -> Callable[[], int]:
    """A function returning 1 when the one-bit ``sig`` is high, anything else when it is low, X or Z (VPI's
    integer value maps X and Z bits to 0): compare its result with 1."""
    gpi = getattr(sig, "_handle", None)
    return gpi.get_signal_val_long if gpi is not None else (lambda: 1 if high(sig) else 0)


def uint_reader(sig: Any) -> Callable[[], Optional[int]]:
    """A function returning :func:`uint` of ``sig``: on a two-state simulator, up to 32 bits, VPI's integer value
    (masked to unsigned); otherwise the binary string parsed, None if it holds X or Z."""
    gpi = getattr(sig, "_handle", None)
    if TWO_STATE and gpi is not None and len(sig) <= 32:
        read_long, mask = gpi.get_signal_val_long, (1 << len(sig)) - 1
        return lambda: read_long() & mask
    read_bits = bits_reader(sig)
    return lambda: uint_of(read_bits())


def uint_writer(sig: Any) -> Callable[[int], None]:
    """A function that deposits an unsigned value on ``sig`` exactly as ``sig.value = v`` does (scheduled by cocotb
    and applied in the ReadWrite phase after the current edge), for a loop writing the same wire every cycle.

    cocotb 2.1's setter rebuilds the signal's ``Range`` three times per write of a value wider than 32 bits (through
    ``len(handle)``); this binds the width and the GPI write once and hands each value to cocotb's write
    scheduling. Where that scheduling is not reachable (another cocotb), it falls back to the public setter.
    Values are masked to the width (the memory agent writes whole bus words, which always fit).
    """
    try:
        from cocotb.handle import _GPISetAction, _schedule_write, _trust_inertial

        gpi, width = sig._handle, len(sig)
    except (ImportError, AttributeError, TypeError):

        def set_value(v: int) -> None:
            sig.value = v

        return set_value
    mask, deposit = (1 << width) - 1, _GPISetAction.DEPOSIT
    put_int, put_bits, fmt = gpi.set_signal_val_int, gpi.set_signal_val_binstr, f"0{width}b"
    if _trust_inertial:
        # COCOTB_TRUST_INERTIAL_WRITES (cocotb's runner sets it for Verilator and Icarus): cocotb's scheduling
        # hands a deposit straight to the simulator as an inertial write; so does this, one call less per write
        action = deposit.value
        if width <= 32:
            return lambda v: put_int(action, v & mask)
        return lambda v: put_bits(action, format(v & mask, fmt))
    if width <= 32:

        def write_int(v: int) -> None:
            _schedule_write(sig, put_int, deposit, v & mask)

        return write_int

    def write_bits(v: int) -> None:
        _schedule_write(sig, put_bits, deposit, format(v & mask, fmt))

    return write_bits
