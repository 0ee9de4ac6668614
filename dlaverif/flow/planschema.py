"""Reading a testplan file against its schema: every key of every section checked when the plan is loaded, each
refusal one line naming the file, the line, the key path, what is allowed and, for a typo, the nearest known key.

The schema itself is data, written once where it is used: :data:`dlaverif.flow.testplan.SCHEMA` (a build's keys in
:data:`dlaverif.flow.buildopts.SCHEMA`). This module holds the few node kinds it is written in (:class:`Scalar`,
:class:`Ref`, :class:`Seq`, :class:`Names`, :class:`Fields`, :class:`Either`) and :func:`read`, the one reader:
it composes the YAML node tree once (the nodes carry their line numbers), checks it against the schema, and only
then constructs the Python data from the same tree. What it refuses:

* a YAML syntax error (at its line), a tab in the indentation, an empty file, a file that cannot be read;
* an unknown key (with ``did you mean`` from :func:`difflib.get_close_matches`), a key given twice, a missing
  required key, a value of the wrong type or outside its allowed values;
* a reference to a build or a run that the plan does not define.

Whether the names a plan uses exist elsewhere (tests in modules, covergroups, RTL files) is a different layer:
:func:`dlaverif.flow.testplan.problems`.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Union

import yaml

#: a references list longer than this is summarized ("one of the 33 names under runs:") instead of listed
MAX_LISTED = 12
_TAG = "tag:yaml.org,2002:"


class Refusal(ValueError):
    """Bad input the flow refuses before anything runs: the message is the one line the user sees, the exit status
    2 (:func:`exit_status`). A make variable's is :class:`dlaverif.flow.regression.settings.BadInput`, a plan's
    :class:`PlanError`."""


class PlanError(Refusal):
    """A testplan the flow refuses; the message is the one line the user sees (``file:line: key.path: what``)."""


def exit_status(prog: str, main: Callable[[], int]) -> int:
    """``main()``'s exit status, or 2 after one line on stderr when it refuses its input: a plan's line as it is
    (``file:line: ...``, as a compiler's), a make variable's after ``prog:``."""
    try:
        return main()
    except PlanError as exc:
        print(exc, file=sys.stderr)
    except Refusal as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
    return 2


@dataclass(frozen=True)
class Scalar:
    """A single value: ``kind`` ``str``, ``int`` (a whole number), ``number``, ``bool`` or ``any`` (a string, number
    or boolean); ``choices``: the only values allowed (empty: any of the kind); ``pattern``: a regular expression the
    whole value must match, ``means``: what it describes, in words (``a dotted module name``)."""

    kind: str
    choices: tuple[Any, ...] = ()
    pattern: str = ""
    means: str = ""


@dataclass(frozen=True)
class Ref:
    """A string naming a key of the top-level section ``section`` (``what``: how to call one, e.g. ``build``)."""

    section: str
    what: str


@dataclass(frozen=True)
class Seq:
    """A list of ``item`` (empty, or left empty, is allowed)."""

    item: Schema


@dataclass(frozen=True)
class Names:
    """A map from names the plan chooses (builds, runs, parameters, ...) to ``value``."""

    value: Schema


@dataclass(frozen=True)
class Fields:
    """A map with fixed keys: ``keys`` key -> schema, ``required`` the keys it must have, ``one_of`` keys of which it
    must have at least one."""

    keys: Mapping[str, Schema]
    required: tuple[str, ...] = ()
    one_of: tuple[str, ...] = ()


@dataclass(frozen=True)
class Either:
    """One of ``options``, chosen by the node's form (a single value, a list or a map): at most one option per form."""

    options: tuple[Schema, ...]


Schema = Union[Scalar, Ref, Seq, Names, Fields, Either]

_KIND_WORDS = {
    "str": "a string",
    "int": "a whole number",
    "number": "a number",
    "bool": "true or false",
    "any": "a string, number or boolean",
    "bound": "a whole number or null",
}
_PLURALS = {
    "str": "strings",
    "int": "whole numbers",
    "number": "numbers",
    "bool": "booleans",
    "any": "strings, numbers or booleans",
    "bound": "whole numbers or nulls",
}
_KIND_TAGS = {
    "str": ("str",),
    "int": ("int",),
    "number": ("int", "float"),
    "bool": ("bool",),
    "any": ("str", "int", "float", "bool"),
    "bound": ("int", "null"),
}


def describe(schema: Schema) -> str:
    """What ``schema`` allows, in words (the end of a refusal's line)."""
    if isinstance(schema, Scalar):
        if schema.choices:
            return "one of " + ", ".join(map(str, schema.choices))
        return schema.means or _KIND_WORDS[schema.kind]
    if isinstance(schema, Ref):
        return f"the name of a {schema.what} (a key of {schema.section}:)"
    if isinstance(schema, Seq):
        item = schema.item
        if isinstance(item, Scalar) and not item.choices:
            return f"a list of {_PLURALS[item.kind]}"
        return f"a list, each {describe(item)}"
    if isinstance(schema, Names):
        return f"a map of names to {describe(schema.value)}"
    if isinstance(schema, Fields):
        return "a map with keys " + ", ".join(schema.keys)
    return " or ".join(describe(o) for o in schema.options)


def display(path: Path) -> str:
    """``path`` as the user wrote it relative to the current folder when it is under it (``blocks/plan.yaml``)."""
    try:
        return os.path.relpath(path) if Path(path).resolve().is_relative_to(Path.cwd()) else str(path)
    except ValueError:
        return str(path)


def _form(node: yaml.Node) -> str:
    """A node's form: ``scalar``, ``seq`` or ``map``."""
    return {yaml.ScalarNode: "scalar", yaml.SequenceNode: "seq", yaml.MappingNode: "map"}[type(node)]


def _schema_form(schema: Schema) -> str:
    """The node form a schema kind takes (an :class:`Either` is never asked: its options are)."""
    if isinstance(schema, (Scalar, Ref)):
        return "scalar"
    return "seq" if isinstance(schema, Seq) else "map"


def _shown(node: yaml.Node) -> str:
    """A node's value for a message: a scalar as written, a list or map by its form."""
    if isinstance(node, yaml.ScalarNode):
        return repr(node.value) if node.tag != _TAG + "null" else "nothing"
    return "a list" if isinstance(node, yaml.SequenceNode) else "a map"


def _hint(word: str, known: list[str]) -> str:
    """`` (did you mean 'x'?)`` for the nearest of ``known`` to a typo, or nothing when none is near."""
    close = difflib.get_close_matches(word, known, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


@dataclass
class _Checker:
    """One walk of a plan's node tree against the schema; ``lines`` records each key's line on the way."""

    file: str
    sections: dict[str, list[str]]  # top-level section -> its keys (what a Ref may name)
    loader: yaml.SafeLoader  # its flatten_mapping resolves YAML merge keys (``<<: *defaults``) as construction will
    lines: dict[tuple[str, ...], int] = field(default_factory=dict)

    def fail(self, node: yaml.Node, path: tuple[str, ...], what: str) -> PlanError:
        """The refusal's one line: ``file:line: key.path: what``, at the node's own line."""
        dotted = ".".join(path) or "(top level)"
        return PlanError(f"{self.file}:{node.start_mark.line + 1}: {dotted}: {what}")

    def check(self, node: yaml.Node, schema: Schema, path: tuple[str, ...]) -> None:
        """Raise :class:`PlanError` on the first thing in ``node`` that ``schema`` does not allow."""
        if isinstance(schema, Either):
            fitting = [o for o in schema.options if _schema_form(o) == _form(node)]
            if not fitting or self._null(node):
                raise self.fail(node, path, f"expected {describe(schema)}, not {_shown(node)}")
            if len(fitting) == 1:  # a list or a map: its own errors, at their own lines
                self.check(node, fitting[0], path)
                return
            for option in fitting:  # single values: the first kind that takes it
                try:
                    self.check(node, option, path)
                    return
                except PlanError:
                    pass
            raise self.fail(node, path, f"expected {describe(schema)}, not {_shown(node)}")
        if _schema_form(schema) != _form(node) and not (self._null(node) and isinstance(schema, (Seq, Names))):
            raise self.fail(node, path, f"expected {describe(schema)}, not {_shown(node)}")
        if isinstance(schema, Scalar):
            self._scalar(node, schema, path)
        elif isinstance(schema, Ref):
            names = self.sections.get(schema.section, [])
            if node.tag != _TAG + "str" or node.value not in names:
                allowed = (
                    ", ".join(names)
                    if len(names) <= MAX_LISTED
                    else f"one of the {len(names)} names under {schema.section}:"
                )
                raise self.fail(
                    node, path, f"unknown {schema.what} {node.value!r}; allowed: {allowed}{_hint(node.value, names)}"
                )
        elif isinstance(schema, Seq) and isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self.check(item, schema.item, (*path[:-1], f"{path[-1]}[{i}]") if path else (f"[{i}]",))
        elif isinstance(schema, (Names, Fields)) and isinstance(node, yaml.MappingNode):
            self._map(node, schema, path)

    @staticmethod
    def _null(node: yaml.Node) -> bool:
        """Whether ``node`` is a value left empty (``key:`` or ``null``)."""
        return isinstance(node, yaml.ScalarNode) and node.tag == _TAG + "null"

    def _scalar(self, node: yaml.Node, schema: Scalar, path: tuple[str, ...]) -> None:
        """A single value: its YAML type (as the loader resolved it) and, if the schema lists them, its value."""
        if node.tag.removeprefix(_TAG) not in _KIND_TAGS[schema.kind]:
            raise self.fail(node, path, f"expected {schema.means or _KIND_WORDS[schema.kind]}, not {_shown(node)}")
        if schema.choices and node.value not in [str(c) for c in schema.choices]:
            allowed = ", ".join(map(str, schema.choices))
            hint = _hint(node.value, [str(c) for c in schema.choices])
            raise self.fail(node, path, f"{node.value!r}; allowed: {allowed}{hint}")
        if schema.pattern and not re.fullmatch(schema.pattern, node.value):
            raise self.fail(node, path, f"expected {describe(schema)}, not {_shown(node)}")

    def _map(self, node: yaml.MappingNode, schema: Union[Names, Fields], path: tuple[str, ...]) -> None:
        """A map: no key twice, each key known (:class:`Fields`), each value checked, the required keys there."""
        first: dict[str, int] = {}  # a key written twice in this map (a merged-in key may be overridden)
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.tag != _TAG + "merge":
                key, line = str(key_node.value), key_node.start_mark.line + 1
                if key in first:
                    raise self.fail(key_node, (*path, key), f"key given twice (first at line {first[key]})")
                first[key] = line
        self.loader.flatten_mapping(node)
        seen: set[str] = set()
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or self._null(key_node):
                raise self.fail(key_node, path, f"a key must be a name, not {_shown(key_node)}")
            key = str(key_node.value)
            here = (*path, key)
            seen.add(key)
            self.lines[here] = key_node.start_mark.line + 1
            if isinstance(schema, Fields):
                if key not in schema.keys:
                    known = list(schema.keys)
                    raise self.fail(key_node, here, f"unknown key; allowed: {', '.join(known)}{_hint(key, known)}")
                self.check(value_node, schema.keys[key], here)
            else:
                self.check(value_node, schema.value, here)
        if isinstance(schema, Fields):
            missing = [k for k in schema.required if k not in seen]
            if missing:
                raise self.fail(
                    node, path, f"missing key {', '.join(missing)} (required: {', '.join(schema.required)})"
                )
            if schema.one_of and not seen & set(schema.one_of):
                raise self.fail(node, path, f"needs one of the keys {', '.join(schema.one_of)}")


@dataclass(frozen=True)
class Document:
    """A plan file read and checked: its ``data`` and the ``line`` of each key (by key path)."""

    file: str
    data: Any
    lines: dict[tuple[str, ...], int]
    files: dict[tuple[str, ...], str] = field(default_factory=dict)  # key path -> the imported file it is in

    def where(self, *path: str) -> str:
        """``file:line`` of the key at ``path`` (``file`` alone when it has none): the start of a refusal's line."""
        line = self.lines.get(tuple(path))
        file = self.files.get(tuple(path), self.file)
        return f"{file}:{line}" if line is not None else file


def _top_keys(node: yaml.MappingNode) -> dict[str, list[str]]:
    """Every top-level section that is a map -> its keys (the names a :class:`Ref` may use)."""
    out = {}
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and isinstance(v, yaml.MappingNode):
            out[str(k.value)] = [str(kk.value) for kk, _ in v.value if isinstance(kk, yaml.ScalarNode)]
    return out


def _compose(path: Path, expected: str) -> tuple[str, yaml.SafeLoader, yaml.Node]:
    """The YAML node tree of ``path`` (not yet checked), with its loader; :class:`PlanError` on a file that cannot be
    read, YAML that cannot be parsed, or an empty file."""
    name = display(path)
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise PlanError(f"{name}: cannot read the testplan: {reason}") from None
    loader = yaml.SafeLoader(text)
    with _yaml_errors(name):
        node = loader.get_single_node()
    if node is None:
        loader.dispose()
        raise PlanError(f"{name}: empty file; expected {expected}")
    return name, loader, node


class _yaml_errors:
    """Context: a YAML error inside becomes one :class:`PlanError` line at the file's line."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        name = self.name
        if isinstance(exc, yaml.MarkedYAMLError):
            mark = exc.problem_mark or exc.context_mark
            line = f":{mark.line + 1}" if mark is not None else ""
            if "'\\t'" in str(exc.problem):
                raise PlanError(f"{name}{line}: a tab character; YAML indents with spaces only") from None
            context = f" ({exc.context})" if exc.context else ""
            raise PlanError(f"{name}{line}: YAML syntax error: {exc.problem}{context}") from None
        if isinstance(exc, yaml.YAMLError):
            raise PlanError(f"{name}: YAML error: {' '.join(str(exc).split())}") from None


def _check(
    name: str, loader: yaml.SafeLoader, node: yaml.Node, schema: Schema, sections: dict[str, list[str]]
) -> Document:
    """Check ``node`` against ``schema`` (references resolved among ``sections``), then construct its data."""
    try:
        with _yaml_errors(name):
            checker = _Checker(name, sections, loader)
            checker.check(node, schema, ())
            data = loader.construct_document(node)
    finally:
        loader.dispose()
    return Document(name, data, checker.lines)


def read(path: Path, schema: Schema, expected: Optional[str] = None) -> Document:
    """Read the YAML file ``path`` and check it against ``schema``; :class:`PlanError` (one line) on anything it does
    not allow. ``expected``: what an empty file should hold, for its refusal."""
    name, loader, node = _compose(path, expected or describe(schema))
    return _check(name, loader, node, schema, _top_keys(node) if isinstance(node, yaml.MappingNode) else {})


# ------------------------------------------------------------------------------------------ plans that import plans
IMPORTS = "imports"


def _imports_of(name: str, node: yaml.Node) -> list[tuple[str, int]]:
    """The plan files ``node`` imports (its top-level ``imports:`` list of strings), with their lines; the schema
    checks the list's form later, so anything else here is left to it."""
    if not isinstance(node, yaml.MappingNode):
        return []
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == IMPORTS and isinstance(v, yaml.SequenceNode):
            return [(str(i.value), i.start_mark.line + 1) for i in v.value if isinstance(i, yaml.ScalarNode)]
    return []


def read_plan(path: Path, schema: Fields, expected: Optional[str] = None) -> Document:
    """A plan with every plan it imports (``imports:``, paths relative to the importing file, depth first), merged
    into one :class:`Document` whose ``where`` names the file each entry came from (as OpenTitan's ``import_cfgs``).
    Each file is checked against ``schema``, its references resolved among the names of all files. Merging: a map
    of names (builds, runs, ...) takes the names of every file, and a name defined twice is refused naming both
    places; lists (testpoints, mutants) are joined in import order; a map of fixed keys (coverage, configs) merges
    key by key; a single value may be given in one file only. A file imported twice or in a cycle is refused."""
    found: list[tuple[str, yaml.SafeLoader, yaml.Node]] = []
    seen: dict[Path, str] = {}

    def visit(file: Path, by: str) -> None:
        real = file.resolve()
        if real in seen:
            raise PlanError(f"{by}: {display(file)} is imported twice or in a cycle (first by {seen[real]})")
        seen[real] = by
        name, loader, node = _compose(file, expected or describe(schema))
        found.append((name, loader, node))
        for rel, line in _imports_of(name, node):
            target = Path(os.path.normpath(file.parent / rel))
            if not target.is_file():
                raise PlanError(f"{name}:{line}: {IMPORTS}: no plan file {rel} (looked for {display(target)})")
            visit(target, f"{name}:{line}")

    try:
        visit(Path(path), "the command line")
        sections: dict[str, list[str]] = {}
        for _, _, node in found:
            for key, names in (_top_keys(node) if isinstance(node, yaml.MappingNode) else {}).items():
                sections.setdefault(key, []).extend(names)
        # with imports, a file may hold any part of the plan: the required keys are asked of the merged plan
        each = schema if len(found) == 1 else Fields(schema.keys, one_of=schema.one_of)
        docs = []
        while found:
            name, loader, node = found.pop(0)
            docs.append(_check(name, loader, node, each, sections))
    finally:
        for _, loader, _ in found:
            loader.dispose()
    merged = docs[0]
    for doc in docs[1:]:
        merged = _merge_documents(merged, doc, schema)
    missing = [k for k in schema.required if k not in merged.data]
    if missing:
        raise PlanError(
            f"{merged.file}: missing key {', '.join(missing)} in it and the plans it imports "
            f"(required: {', '.join(schema.required)})"
        )
    return merged


def _merge_documents(into: Document, add: Document, schema: Fields) -> Document:
    """``into`` with ``add`` merged in (:func:`read_plan`'s rules)."""
    shifts: dict[tuple[str, ...], int] = {}  # a list's key path -> how far ``add``'s items move

    def merge(s: Schema, a: Any, b: Any, path: tuple[str, ...]) -> Any:
        if b is None:
            return a
        if a is None:
            return b
        if isinstance(s, Names):
            for key in b:
                if key in a:
                    raise PlanError(
                        f"{add.where(*path, key)}: {'.'.join((*path, key))}: defined again (first at "
                        f"{into.where(*path, key)})"
                    )
            return {**a, **b}
        if isinstance(s, Seq):
            shifts[path] = len(a)
            return [*a, *b]
        if isinstance(s, Fields) and isinstance(a, dict) and isinstance(b, dict):
            out = dict(a)
            for key, value in b.items():
                out[key] = merge(s.keys[key], a.get(key), value, (*path, key)) if key in a else value
            return out
        raise PlanError(f"{add.where(*path)}: {'.'.join(path)}: given again (first at {into.where(*path)})")

    data = {k: v for k, v in into.data.items()}
    for key, value in (add.data or {}).items():
        if key == IMPORTS:
            continue
        data[key] = merge(schema.keys[key], data.get(key), value, (key,)) if key in data else value
    lines = dict(into.lines)
    files = dict(into.files)
    for p, line in add.lines.items():
        moved = _shifted(p, shifts)
        lines[moved] = line
        files[moved] = add.file
    return Document(into.file, data, lines, files)


def _shifted(path: tuple[str, ...], shifts: dict[tuple[str, ...], int]) -> tuple[str, ...]:
    """``path`` of an imported file's entry, its list indices moved past the importer's items (``shifts``)."""
    out = list(path)
    for i, part in enumerate(path):
        m = re.fullmatch(r"(.*)\[(\d+)\]", part)
        if m and (*path[:i], m.group(1)) in shifts:
            out[i] = f"{m.group(1)}[{int(m.group(2)) + shifts[(*path[:i], m.group(1))]}]"
    return tuple(out)
