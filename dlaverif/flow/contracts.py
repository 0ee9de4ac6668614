"""The RTL's parameter contracts (``param_contract`` instances, blocks/rtl/common/param_contract.sv), read from the RTL:
the one source of every top's legal ranges for the configuration matrix (blocks/plan.yaml ``configs:``), its corners and
random draws, and the flows' own check before a build (the same line the RTL prints).

A contract line in a module::

    param_contract #(.NAME ("AXI_DATA_W"), .VALUE (AXI_DATA_W), .LO (64), .HI (1024), .POW2 (1)) u_contract_x ();

LO and HI are constant expressions over integers and the module's parameters (``+ - * / << ( )``; ``/`` is integer
division as in SystemVerilog). A module's parameter defaults are read from its header (``parameter int NAME =
expr``), so a range that names another parameter (``OUT_DATA_W`` up to ``AXI_DATA_W``) is evaluated at the
configuration's values.

``python -m dlaverif.flow.contracts [top ...]`` prints each top's contract table.
"""

from __future__ import annotations

import ast
import operator
import os
import random
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path

from dlaverif.flow import filelists, project

RTL = project.RTL

_CONTRACT = re.compile(r"param_contract\s*#\((?P<body>.*?)\)\s*(?P<inst>u_\w+)\s*\(\s*\)\s*;", re.S)
_FIELD = re.compile(r"\.(?P<key>NAME|VALUE|LO|HI|POW2)\s*\((?P<val>(?:[^()]|\([^()]*\))*)\)")
_PARAM = re.compile(r"^\s*parameter\s+(?:int\s+)?(?P<name>[A-Z][A-Z0-9_]*)\s*=\s*(?P<expr>[^,/\n)]+)", re.M)


@dataclass(frozen=True)
class Contract:
    """One parameter's legal range: ``lo``..``hi`` (expressions), and a power of two if ``pow2``."""

    module: str
    name: str
    lo: str
    hi: str
    pow2: bool

    def bounds(self, values: Mapping[str, int]) -> tuple[int, int]:
        """(lowest, highest) legal value at the other parameters' ``values``."""
        return evaluate(self.lo, values), evaluate(self.hi, values)

    def legal(self, value: int, values: Mapping[str, int]) -> bool:
        lo, hi = self.bounds(values)
        return lo <= value <= hi and (not self.pow2 or (value > 0 and value & (value - 1) == 0))

    def text(self, values: Mapping[str, int]) -> str:
        """The range as the RTL prints it: ``64..1024, a power of two``."""
        lo, hi = self.bounds(values)
        return f"{lo}..{hi}" + (", a power of two" if self.pow2 else "")

    def message(self, value: int, values: Mapping[str, int]) -> str:
        """The one line param_contract.sv prints for an illegal value."""
        return f"parameter {self.name} = {value} is outside its contract: {self.text(values)}"


_OPS: dict[type, Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.floordiv,
    ast.FloorDiv: operator.floordiv,
    ast.LShift: operator.lshift,
}


#: the functions a plan's expression may call (a reach bound's ``min(DATA_DEPTH, ...)``; the RTL's contracts use none)
_CALLS: dict[str, Callable[..., int]] = {"min": min, "max": max}


def evaluate(expr: str, values: Mapping[str, int]) -> int:
    """An RTL constant expression (integers, parameter names, ``+ - * / <<``, parentheses) at ``values``; a plan's
    expression may also call ``min`` and ``max`` of two or more of them."""

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in values:
                raise ValueError(f"{expr!r}: no value for {node.id}")
            return int(values[node.id])
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _CALLS
            and len(node.args) >= 2
            and not node.keywords
        ):
            return int(_CALLS[node.func.id](*(ev(a) for a in node.args)))
        raise ValueError(f"{expr!r}: not a contract expression")

    return ev(ast.parse(expr.strip(), mode="eval").body)


def _module_text(top: str, rtl: Path) -> str:
    return filelists.locate(rtl, f"{top}.sv").read_text()


@lru_cache(maxsize=None)
def contracts(top: str, rtl: Path = RTL) -> tuple[Contract, ...]:
    """The contracts of module ``top`` (blocks/rtl/<folder>/<top>.sv), in the RTL's order."""
    out = []
    for m in _CONTRACT.finditer(_module_text(top, rtl)):
        f = {k: v.strip() for k, v in _FIELD.findall(m["body"])}
        name = f["NAME"].strip('"')
        if f.get("VALUE") != name:
            raise ValueError(f"{top}: contract {m['inst']} checks {f.get('VALUE')} under the name {name}")
        out.append(Contract(top, name, f["LO"], f["HI"], f.get("POW2", "0") not in ("0", "1'b0")))
    return tuple(out)


@lru_cache(maxsize=None)
def default_expressions(top: str, rtl: Path = RTL) -> tuple[tuple[str, str], ...]:
    """(name, default expression) of the header parameters of ``top`` (up to the port list)."""
    text = _module_text(top, rtl)
    header = text[text.index(f"module {top}") :]
    header = header[: header.index(") (")] if ") (" in header else header
    return tuple((m["name"], m["expr"].strip()) for m in _PARAM.finditer(header))


def resolve(top: str, params: Mapping[str, int] | None = None, rtl: Path = RTL) -> dict[str, int]:
    """Every contracted parameter of ``top``: ``params`` where given, else its default (evaluated in header order,
    so a default that names an earlier parameter follows it)."""
    values: dict[str, int] = {k: int(v) for k, v in (params or {}).items()}
    for name, expr in default_expressions(top, rtl):
        if name not in values:
            try:
                values[name] = evaluate(expr, values)
            except (ValueError, SyntaxError):
                continue  # a default that is not an integer expression ('0, a vector): no contract on it
    return values


def build_value(top: str, name: str) -> int:
    """In a simulation of a build of ``top``: parameter ``name`` of that build (``PARAM_<name>``, which
    dlaverif/flow/runner.py exports for every parameter a build sets), else its default in the RTL."""
    value = os.environ.get(f"PARAM_{name}", "").strip()
    return int(value) if value else resolve(top)[name]


def violations(top: str, params: Mapping[str, int] | None = None, rtl: Path = RTL) -> list[str]:
    """The lines the RTL prints for ``params`` (empty: legal), and unknown parameter names (of a top without
    contracts: names its header does not declare)."""
    cs = {c.name: c for c in contracts(top, rtl)}
    values = resolve(top, params, rtl)
    if not cs:
        header = {n for n, _ in default_expressions(top, rtl)}
        return [f"{top} has no parameter {k}" for k in (params or {}) if k not in header]
    out = [f"{top} has no contracted parameter {k}" for k in (params or {}) if k not in cs]
    out += [c.message(values[c.name], values) for c in cs.values() if not c.legal(values[c.name], values)]
    return out


def _extreme(c: Contract, values: Mapping[str, int], which: str) -> int:
    lo, hi = c.bounds(values)
    if not c.pow2:
        return lo if which == "min" else hi
    pows = [1 << k for k in range(0, 63) if lo <= (1 << k) <= hi]
    if not pows:
        raise ValueError(f"{c.module}.{c.name}: no power of two in {lo}..{hi}")
    return pows[0] if which == "min" else pows[-1]


def uncontracted(top: str, spec: Mapping[str, int | str], rtl: Path = RTL) -> dict[str, int]:
    """A corner of a top that declares no contract (a user's reader, whose own elaboration checks its parameters):
    numbers for parameters its header declares; ``min``/``max`` need a contract and are refused."""
    header = [n for n, _ in default_expressions(top, rtl)]
    bad = sorted(f"{k}: {v}" for k, v in spec.items() if k not in header or isinstance(v, str))
    if bad:
        raise ValueError(
            f"{top} declares no parameter contract: a corner gives numbers for its parameters "
            f"({', '.join(header)}), not {', '.join(bad)}"
        )
    return {k: int(v) for k, v in spec.items()}


def configuration(
    top: str, spec: Mapping[str, int | str], rtl: Path = RTL, base: Mapping[str, int] | None = None
) -> dict[str, int]:
    """A corner written with ``min``/``max`` (or numbers): ``{AXI_ADDR_W: min, AXI_DATA_W: max}`` -> numbers.
    ``min``/``max`` are taken in the RTL's contract order, each at the values chosen before it (so ``OUT_DATA_W:
    max`` follows the corner's ``AXI_DATA_W``). The parameters the corner does not name are at ``base`` where it
    gives them (a formal property set's reduced parameters, dlaverif.flow.formal), else at their defaults; either way
    one the corner puts out of range is clamped into it, and every ``base`` parameter is in the result."""
    cs = {c.name: c for c in contracts(top, rtl)}
    if not cs:  # a top without param_contract instances (a user's reader): its own elaboration checks the values
        return {**{k: int(v) for k, v in (base or {}).items()}, **uncontracted(top, spec, rtl)}
    unknown = set(spec) - set(cs)
    if unknown:
        raise ValueError(f"{top}: no contract for {sorted(unknown)}")
    fixed = {k: int(v) for k, v in spec.items() if not isinstance(v, str)}
    out: dict[str, int] = {**{k: int(v) for k, v in (base or {}).items()}, **fixed}
    for name, c in cs.items():
        v = spec.get(name)
        if isinstance(v, str):
            if v not in ("min", "max"):
                raise ValueError(f"{top}.{name}: {v!r} is not min, max or a number")
            out[name] = _extreme(c, resolve(top, out, rtl), v)
    # a parameter the corner leaves at its default follows it into range (MAX_ATOM_BYTES 8 bounds AXI_DATA_W to
    # 64): clamped to its nearest extreme, until nothing changes
    for _ in range(len(cs)):
        values = resolve(top, out, rtl)
        bad = [c for n, c in cs.items() if n not in spec and not c.legal(values[n], values)]
        if not bad:
            break
        for c in bad:
            lo, _hi = c.bounds(values)
            out[c.name] = _extreme(c, values, "min" if values[c.name] < lo else "max")
    # a corner's own value out of range because of a base parameter its bounds name (a 1024-bit bus needs
    # MAX_ATOM_BYTES 128, where a property set has 8): that base parameter yields, to its legal value nearest the
    # base's that makes the corner's legal
    for c in cs.values():
        for dep in sorted(set(re.findall(r"[A-Z][A-Z0-9_]*", f"{c.lo} {c.hi}")) & (set(base or {}) - set(spec))):
            values = resolve(top, out, rtl)
            if c.name in spec and not c.legal(values[c.name], values):
                lo, hi = cs[dep].bounds(values)
                legal = [v for v in range(lo, hi + 1) if cs[dep].legal(v, values)]
                fits = [v for v in legal if c.legal(values[c.name], {**values, dep: v})]
                if fits:
                    out[dep] = min(fits, key=lambda v: abs(v - values[dep]))
    return out


def corners(top: str, rtl: Path = RTL) -> dict[str, dict[str, int]]:
    """Each contracted parameter alone at its minimum and at its maximum (the others at their defaults):
    ``<param>_min`` / ``<param>_max`` (lower case), a corner equal to the defaults left out."""
    base = resolve(top, None, rtl)
    out: dict[str, dict[str, int]] = {}
    for c in contracts(top, rtl):
        for which in ("min", "max"):
            cfg = configuration(top, {c.name: which}, rtl)
            if cfg[c.name] != base[c.name]:
                out[f"{c.name.lower()}_{which}"] = cfg
    return out


def draw(
    top: str, rng: random.Random, limits: Mapping[str, Sequence[int | None]] | None = None, rtl: Path = RTL
) -> dict[str, int]:
    """A random legal configuration: every contracted parameter uniform in its range (log-uniform over the powers
    of two of a power-of-two one), in contract order so that dependent ranges follow. ``limits`` narrows a
    parameter's range to ``[low, high]`` (None: the contract's) where a testbench cannot use all of it (the plan
    says why)."""
    out: dict[str, int] = {}
    names = {c.name for c in contracts(top, rtl)}
    # a range that names other parameters (AXI_DATA_W up to 8 * MAX_ATOM_BYTES) is drawn after them
    ordered = sorted(contracts(top, rtl), key=lambda c: bool(names & set(re.findall(r"[A-Z_][A-Z0-9_]*", c.lo + c.hi))))
    for c in ordered:
        values = resolve(top, out, rtl)
        lo, hi = c.bounds(values)
        low, high = (limits or {}).get(c.name, (None, None))
        lo, hi = max(lo, low if low is not None else lo), min(hi, high if high is not None else hi)
        if c.pow2:
            out[c.name] = rng.choice([1 << k for k in range(0, 63) if lo <= (1 << k) <= hi])
        else:
            out[c.name] = rng.randint(lo, hi)
    return out


def illegal(top: str, rng: random.Random, rtl: Path = RTL) -> tuple[str, dict[str, int]]:
    """(the RTL's line, a configuration) with one parameter drawn just outside its range (or, for a power of two,
    a value inside the range that is not one): what the build must refuse."""
    cs = contracts(top, rtl)
    c = rng.choice(cs)
    values = resolve(top, None, rtl)
    lo, hi = c.bounds(values)
    choices = [lo - 1, hi + 1] if lo > 1 else [hi + 1]
    if c.pow2 and hi - lo > 2:
        choices.append(lo + 1 if (lo + 1) & lo else lo + 3)
    value = rng.choice(choices)
    return c.message(value, values), {c.name: value}


def table(top: str, rtl: Path = RTL) -> str:
    """A Markdown table of the contracts of ``top`` (the datasheets' parameter tables)."""
    values = resolve(top, None, rtl)
    exprs = dict(default_expressions(top, rtl))
    rows = ["| parameter | default | legal range |", "|---|---|---|"]
    for c in contracts(top, rtl):
        lo = c.lo if not c.lo.lstrip("-").isdigit() else str(evaluate(c.lo, values))
        hi = c.hi if not c.hi.isdigit() else str(evaluate(c.hi, values))
        rng = f"{lo} .. {hi}" + (", a power of two" if c.pow2 else "")
        default = exprs.get(c.name, "")
        default = default if default.isdigit() else f"{default} ({values[c.name]})"
        rows.append(f"| `{c.name}` | {default} | {rng} |")
    return "\n".join(rows)


def datasheets() -> dict[str, Path]:
    """The datasheet that carries each top's generated parameter block: a top of the configuration matrix
    (``configs.tops``) that is a block of the plan with a ``datasheet`` (``blocks.<top>.datasheet``)."""
    from dlaverif.flow import testplan

    plan = testplan.load()
    tops = {c.top for c in plan.configs.values()}
    return {n: project.ROOT / b.datasheet for n, b in plan.blocks.items() if b.datasheet and n in tops}


def docs_block(top: str) -> str:
    """The generated block of a datasheet: the contract table, then the configurations of the testplan's matrix
    (blocks/plan.yaml ``configs:``) and the plan's fixed builds of ``top`` (what is built and tested)."""
    from dlaverif.flow import testplan

    plan = testplan.load()
    lines = [table(top), ""]
    fixed = [b for b in plan.builds.values() if b.toplevel == top and "@" not in b.name]
    cfgs = [c for c in plan.configs.values() if c.top == top and c.kind == "corner"]
    random_n = sum(c.kind == "random" for c in plan.configs.values() if c.top == top)
    built = ", ".join(f"`{b.name}` ({_params(b.parameters)})" for b in fixed)
    lines.append(f"Tested builds (blocks/plan.yaml `builds:`): {built or 'none'}.")
    if cfgs:
        lines.append("")
        lines.append(
            f"Configuration matrix (`configs:`, `make sim SUITE=configs`): {len(cfgs)} corners and {random_n} random "
            "legal draws per seed; each corner:"
        )
        lines += [f"- `{c.name}`: {_params(c.parameters)}" for c in cfgs]
        waived = {k.split("@", 1)[1]: v for k, v in plan.config_waivers.items() if k.startswith(f"{top}@")}
        lines += [f"- `{n}`: not simulated: {why}" for n, why in waived.items()]
    else:
        lines.append("")
        lines.append("Configuration matrix: not yet (its tests assume the defaults' address space).")
    return "\n".join(lines)


def _params(p: Mapping[str, object]) -> str:
    return ", ".join(f"{k} {v}" for k, v in p.items()) or "defaults"


def formal_at_block() -> str:
    """The table of the configurations whose formal differs from their top's (blocks/plan.yaml
    ``configs.<top>.formal_at``): the sets each runs with their BMC depths (the set's own full depth unless the entry
    changes it) and the entry's ``why``, one row per entry (configurations that share one are listed together)."""
    from dlaverif.flow import formal, testplan

    plan = testplan.load()
    own = {p.name: p.depth for p in formal.proofs(plan)}
    rows: dict[tuple, list[str]] = {}
    for c in plan.configs.values():
        if not c.formal_why:
            continue
        sets = ", ".join(f"{s} (depth {c.formal_depth.get(s, own[s])})" for s in c.formal)
        sets += "".join(f"; `{m}` unchecked" for m in c.formal_unchecked)
        rows.setdefault((c.top, sets, c.formal_why), []).append(f"`{c.name}`")
    out = ["| top | configurations | property sets (BMC depth) | why |", "|---|---|---|---|"]
    out += [f"| {top} | {', '.join(names)} | {sets} | {why} |" for (top, sets, why), names in rows.items()]
    return "\n".join(out)


def formal_sets_block() -> str:
    """The table of make formal's property sets (blocks/plan.yaml ``formal:``), one row per set in run order: its
    top (or build), parameters, BMC depths, mode, what it cuts or leaves unchecked, and what it proves."""
    from dlaverif.flow import formal

    out = ["| set | top, parameters | depth (quick) | mode | cut, unchecked | what |", "|---|---|---|---|---|---|"]
    for p in formal.proofs():
        mode = "BMC" + (f" + {p.prove}-induction" if p.prove else "") + (" + covers" if p.cover else "")
        top = f"{p.top} (build {p.build})" if p.build else p.top
        notes = [f"`{c}` cut" for c in p.cut] + [f"`{m}` unchecked" for m in p.unchecked]
        row = [p.name, f"{top}: {_params(p.params)}", f"{p.depth} ({p.quick_depth})", mode, "; ".join(notes), p.what]
        out.append("| " + " | ".join(row) + " |")
    return "\n".join(out)


def _markers(name: str) -> tuple[str, str]:
    return (
        f"<!-- contracts: begin {name} (python -m dlaverif.flow.contracts --docs) -->",
        f"<!-- contracts: end {name} -->",
    )


def _blocks() -> list[tuple[Path, str, Callable[[], str]]]:
    """Every generated block: (its document, block name, its generator)."""
    out: list[tuple[Path, str, Callable[[], str]]] = [
        (doc, top, partial(docs_block, top)) for top, doc in datasheets().items()
    ]
    for name, generate in (("formal_at", formal_at_block), ("formal_sets", formal_sets_block)):
        out += [(doc, name, generate) for doc in _carrying(name)]
    return out


def _carrying(name: str) -> list[Path]:
    """The project's documents that carry the generated block ``name`` (its begin marker): the Markdown files of
    the folders of the plan's datasheets (``blocks.<block>.datasheet``), so the tables go where the project put
    their markers, and nowhere when it put none."""
    from dlaverif.flow import testplan

    folders = {(project.ROOT / b.datasheet).parent for b in testplan.load().blocks.values() if b.datasheet}
    begin = _markers(name)[0]
    return [p for f in sorted(folders) for p in sorted(f.glob("*.md")) if begin in p.read_text()]


def docs_problems(write: bool = False) -> list[str]:
    """Generated blocks of the docs (datasheet parameter blocks, the formal_at table) that differ from their
    generators (rewritten when ``write``)."""
    out = []
    for path, name, generate in _blocks():
        doc = path.name
        text = path.read_text()
        begin, end = _markers(name)
        if begin not in text or end not in text:
            out.append(f"{doc}: no block for {name} ({begin})")
            continue
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        new = f"{head}{begin}\n{generate()}\n{end}{tail}"
        if new != text:
            out.append(f"{doc}: the {name} block is out of date")
            if write:
                path.write_text(new)
    return out


def main(argv: list[str]) -> int:
    """``python -m dlaverif.flow.contracts [--docs | TOP ...]``: rewrite the generated blocks of the docs, or print
    the parameter tables of some tops (default: every block with a datasheet); an unknown top is one line, exit 2."""
    if argv == ["--docs"]:
        for problem in docs_problems(write=True):
            print(f"rewritten: {problem}")
        return 0
    known = list(datasheets())
    for t in argv or known:
        if t.startswith("-") or t not in known:
            said = f"not a top with a datasheet (known: {', '.join(known)}; or --docs)"
            print(f"contracts: {t!r}: {said}", file=sys.stderr)
            return 2
        print(f"{t}\n{table(t)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
