"""What a mutant is: realistic RTL bugs as text edits of ``blocks/rtl/`` files, or of third-party RTL found through a
variable of :data:`dlaverif.thirdparty.DEFAULTS` (``root="NVDLA_HW"``: files relative to that checkout); the engine that
builds and runs them is ``dlaverif.flow.mutants``; each block's catalogue is ``tb/<block>/mutants.py``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    """Replace ``old`` (which must occur exactly once in ``blocks/rtl/<file>``) by ``new``."""

    file: str
    old: str
    new: str


RTL_ROOT = "rtl"


@dataclass(frozen=True)
class Mutant:
    name: str
    family: str  # the kind of bug (issue wording)
    bug: str  # what the mutated RTL does wrong
    edits: tuple[Edit, ...]
    root: str = RTL_ROOT  # the tree the files are in: blocks/rtl/, or a third-party variable (NVDLA_HW)

    @property
    def files(self) -> set[str]:
        return {e.file for e in self.edits}


def mutant(name: str, family: str, bug: str, file: str, old: str, new: str, root: str = RTL_ROOT) -> Mutant:
    """A mutant of one edit."""
    return Mutant(name, family, bug, (Edit(file, old, new),), root)
