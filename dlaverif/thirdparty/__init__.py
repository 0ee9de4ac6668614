"""Where RTL outside a project comes from: the variables a file list names (``$NVDLA_HW``, ``$DLA_RTL``), with their
defaults.

``DLA_RTL`` is this package's own HDL (``dlaverif/hdl/``: the checkout's, or the installed package's): a user's
property list names the AXI4 read-master property set as ``$DLA_RTL/props/axi4_read_master_props.sv``
(examples/desc_reader).

Every other variable is a third-party tree that a project declares in its plan (``blocks.<block>.roots``: what it
must name, its defaults, how to get the files; docs/architecture.md); loading the plan hands them to :func:`declare`,
so this package keeps no project's table. When neither the environment nor make sets such a variable, it takes the
first of its defaults found on disk; a path under it that this default lacks comes from the first other default that
has it (:func:`located`), so that, e.g., several partial exports each serve their own block's file list. Without
any, a build whose list names it is *unavailable*: the testplan keeps it with the one line saying how to get the
files (:func:`missing`), and the flow and the tests report it as skipped with that line (:func:`skipped`) instead of
running it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Iterable, Mapping, Optional, Sequence

#: the package's own HDL (package data): the property sets a user binds, the fast path's memory and capture
HDL = Path(__file__).resolve().parents[1] / "hdl"
DLA_RTL = "DLA_RTL"
#: the variable NVIDIA-style bindings find a checkout of nvdla/hw under (:mod:`dlaverif.thirdparty.nvdla_rdl`); its
#: defaults are the project's (its plan's root of that name)
NVDLA_HW = "NVDLA_HW"
#: the environment variable that hands the declared roots to a child process (a simulation, whose testbench finds
#: the third-party files its build compiled without loading the plan): JSON, :func:`declared`
ROOTS_VAR = "DLAVERIF_ROOTS"
#: the package's own variable: (its defaults, the first that exists wins; what to set it to)
_OWN: dict[str, tuple[tuple[Path, ...], str]] = {DLA_RTL: ((HDL,), "the hdl folder of the dlaverif package")}
#: variable -> (its defaults, the first that exists wins; what to set it to): the package's own and those of the
#: plan loaded last (:func:`declare`)
DEFAULTS: dict[str, tuple[tuple[Path, ...], str]] = dict(_OWN)
#: how to get the files of a declared variable that has no default on disk (the plan's ``get``)
GET: dict[str, str] = {}
_UNSET = re.compile(r"\$(\w+) is not set")


def declare(roots: Iterable[tuple[str, Sequence[Path], str, str]]) -> None:
    """The third-party variables of the project whose plan was loaded (its ``blocks.<block>.roots``), each
    ``(name, defaults, means, get)``: defaults as absolute paths, first found first; ``get`` the way to get the files
    (empty: none). A variable declared before is replaced; the package's own (``DLA_RTL``) cannot be."""
    for name, defaults, means, get in roots:
        if name in _OWN:
            raise ValueError(f"{name} is the package's own variable, not a third-party root")
        DEFAULTS[name] = (tuple(Path(d) for d in defaults), means)
        GET.pop(name, None)
        if get:
            GET[name] = get


def declared() -> str:
    """The declared roots as :data:`ROOTS_VAR` carries them to a child process (JSON), which declares them again
    when it imports this package."""
    return json.dumps(
        [[n, [str(d) for d in ds], means, GET.get(n, "")] for n, (ds, means) in DEFAULTS.items() if n not in _OWN]
    )


def environment(env: Optional[Mapping[str, str]] = None) -> dict[str, str]:
    """``env`` (default: the process environment) with the defaults of :data:`DEFAULTS` that exist on disk for the
    variables it does not set (an empty value counts as unset: make exports its empty variables)."""
    out = {k: v for k, v in (os.environ if env is None else env).items() if v != ""}
    for name, (defaults, _) in DEFAULTS.items():
        found = next((d for d in defaults if d.is_dir()), None)
        if name not in out and found is not None:
            out[name] = str(found)
    return out


def located(name: str, value: str, rest: str) -> str:
    """The path ``value + rest`` of ``$name/...`` (``value``: the variable's value); when ``value`` is one of the
    variable's defaults and that path does not exist under it, the same path under the first other default of
    :data:`DEFAULTS` that has it (the module docstring). A value the user set is never replaced."""
    path = value + rest
    if name not in DEFAULTS or Path(path).exists():
        return path
    defaults = [str(d) for d in DEFAULTS[name][0]]
    if value.rstrip("/") not in defaults:
        return path
    return next((d + rest for d in defaults if d != value.rstrip("/") and Path(d + rest).exists()), path)


def hint(name: str) -> str:
    """The one line telling how to get the files of the variable ``name`` of :data:`DEFAULTS` (what to run, or what
    to set) when neither the environment nor any of its defaults names them."""
    if name not in DEFAULTS:
        return f"{name} is not set and the project's plan declares no default of it: make ... {name}=<its tree>"
    defaults, what = DEFAULTS[name]
    get = f"{GET[name]}, or " if name in GET else ""
    where = ", ".join(str(d) for d in defaults)
    return f"{name} is not set and no default of it exists ({where}): {get}make ... {name}=<{what}>"


def skipped(what: str, reason: str) -> str:
    """The one line a run, a test or a lint target that cannot be built here is reported with, everywhere (make sim,
    make regress, make lint, pytest): ``what`` is skipped, ``reason`` (a :func:`hint`, or :func:`absent`'s line)."""
    return f"skipped: {what}: {reason}"


def missing(error: Exception) -> Optional[str]:
    """:func:`hint` when ``error`` (from :func:`dlaverif.flow.filelists.parse`) is an unset variable of
    :data:`DEFAULTS`; None for any other error."""
    m = _UNSET.search(str(error))
    return hint(m.group(1)) if m is not None and m.group(1) in DEFAULTS else None


def absent(sources: list[Path], env: Optional[Mapping[str, str]] = None) -> Optional[str]:
    """One line when a file of ``sources`` lies under a variable of :data:`DEFAULTS` and does not exist (the variable
    names something that is not the checkout it should be); None when they all exist."""
    values = environment(env)
    for path in sources:
        if path.exists():
            continue
        for name in DEFAULTS:
            root = values.get(name)
            if root and str(path).startswith(root.rstrip("/") + "/"):
                return f"{path} does not exist: {name}={root} is not {DEFAULTS[name][1]}"
    return None


if os.environ.get(ROOTS_VAR):  # a child of a flow that loaded its plan (a simulation): the same roots
    declare(
        (str(n), [Path(d) for d in ds], str(means), str(get)) for n, ds, means, get in json.loads(os.environ[ROOTS_VAR])
    )
