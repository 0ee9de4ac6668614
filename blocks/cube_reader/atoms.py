"""The cube reader's atoms at its build: a build with ``MAX_ATOM_BYTES`` below a layout's atom refuses that layout's
cubes (ERROR atom_size, ``BlockedCubeDescriptor.errors(max_atom_bytes=...)``), so its tests send the same geometry
in the widest atoms it takes, and expect the refusal only where a descriptor asks for it."""

from __future__ import annotations

from dlaverif.flow import contracts
from dlaverif.models.blocked import BlockedCubeDescriptor, Layout


def build_max_atom() -> int:
    """The simulated build's MAX_ATOM_BYTES: the widest atom it sends (one atom per stream transfer)."""
    return contracts.build_value("cube_reader", "MAX_ATOM_BYTES")


def at_atoms(d: BlockedCubeDescriptor, max_atom: int, addr_bits: int) -> BlockedCubeDescriptor:
    """``d`` itself where a reader built with ``MAX_ATOM_BYTES`` = ``max_atom`` sends its atoms; where they are
    wider (that build refuses them with ERROR atom_size, as ``d.errors(max_atom_bytes=max_atom)`` says), the same
    geometry at the widest atom it sends: the generic layout (every atom size), strides scaled by the atom ratio,
    so the counts, the contiguous runs and the gaps between them (in atoms) are those of ``d``."""
    if d.atom_bytes <= max_atom:
        return d
    ratio = d.atom_bytes // max_atom
    fit = d.with_(
        atom_bytes=max_atom,
        elem_bytes=min(d.elem_bytes, max_atom),
        stride_h=d.stride_h // ratio,
        stride_c=d.stride_c // ratio,
        stride_n=d.stride_n // ratio,
        layout=Layout.GENERIC,
    )
    bad = fit.errors(addr_bits, max_atom_bytes=max_atom)
    if bad:
        raise ValueError(f"{d} at {max_atom}-byte atoms breaks {bad}")
    return fit
