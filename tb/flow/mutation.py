"""What a mutant is: realistic RTL bugs as text edits of ``rtl_stubs/`` files (the engine that builds and runs them
is ``tb.flow.mutants``; each block's catalogue is ``tb/<block>/mutants.py``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    """Replace ``old`` (which must occur exactly once in ``rtl_stubs/<file>``) by ``new``."""

    file: str
    old: str
    new: str


@dataclass(frozen=True)
class Mutant:
    name: str
    family: str  # the kind of bug (issue wording)
    bug: str  # what the mutated RTL does wrong
    edits: tuple[Edit, ...]

    @property
    def files(self) -> set[str]:
        return {e.file for e in self.edits}


def mutant(name: str, family: str, bug: str, file: str, old: str, new: str) -> Mutant:
    """A mutant of one edit."""
    return Mutant(name, family, bug, (Edit(file, old, new),))
