"""What a mutant is: a realistic RTL bug as text edits of the project's RTL files, or of third-party RTL found through a
variable of :data:`dlaverif.thirdparty.DEFAULTS` (``root: NVDLA_HW``: files relative to that checkout). Catalogues are
data: YAML files the plan's ``mutants:`` list names (:func:`load_catalogue`; format in ``docs/architecture.md``); the
engine that builds and runs them is ``dlaverif.flow.mutants``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dlaverif.flow.planschema import Fields, PlanError, Scalar, Seq, read


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
    # a corner mutant: the configurations of the matrix (<top>@<name>) where it differs from the correct RTL (the
    # same RTL at the defaults); make mutants runs it there, not on the mutants suite's default builds
    configs: tuple[str, ...] = ()

    @property
    def files(self) -> set[str]:
        return {e.file for e in self.edits}


def mutant(name: str, family: str, bug: str, file: str, old: str, new: str, root: str = RTL_ROOT) -> Mutant:
    """A mutant of one edit."""
    return Mutant(name, family, bug, (Edit(file, old, new),), root)


_EDIT = {"file": Scalar("str"), "old": Scalar("str"), "new": Scalar("str")}
#: one catalogue file: ``mutants:``, a list of mutants, each of one edit (``file``/``old``/``new``) or of ``edits``
SCHEMA = Fields(
    {
        "mutants": Seq(
            Fields(
                {
                    "name": Scalar("str", pattern=r"[A-Za-z_][A-Za-z0-9_]*", means="an identifier"),
                    "family": Scalar("str"),
                    "bug": Scalar("str"),
                    **_EDIT,
                    "edits": Seq(Fields(_EDIT, required=("file", "old", "new"))),
                    "root": Scalar("str", pattern=r"[A-Z_][A-Z0-9_]*", means="a variable naming a third-party tree"),
                    "configs": Seq(
                        Scalar("str", pattern=r"[A-Za-z_0-9]+@[A-Za-z_0-9]+", means="<top>@<configuration>")
                    ),
                },
                required=("name", "family", "bug"),
                one_of=("file", "edits"),
            )
        )
    },
    required=("mutants",),
)


def load_catalogue(path: Path) -> tuple[Mutant, ...]:
    """The mutants of the catalogue file ``path``, in its order; :class:`PlanError` (one line: file, line, key) when
    the file breaks :data:`SCHEMA`, mixes one edit with ``edits``, or gives an edit without all of file, old, new."""
    doc = read(path, SCHEMA, "a map with the key mutants: a list of mutants")
    out = []
    for i, raw in enumerate(doc.data["mutants"] or ()):
        single = [k for k in _EDIT if k in raw]
        where = f"{doc.where(f'mutants[{i}]', 'name')}: mutant {raw['name']}"
        if single and "edits" in raw:
            raise PlanError(f"{where}: one edit (file, old, new) or edits, not both")
        if single and len(single) != len(_EDIT):
            raise PlanError(f"{where}: an edit needs file, old and new")
        edits = [raw] if single else raw["edits"]
        out.append(
            Mutant(
                raw["name"],
                raw["family"],
                raw["bug"],
                tuple(Edit(e["file"], e["old"], e["new"]) for e in edits),
                raw.get("root", RTL_ROOT),
                tuple(raw.get("configs") or ()),
            )
        )
    return tuple(out)
