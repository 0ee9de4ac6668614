"""Where RTL outside a project comes from: the variables file lists name (``$NVDLA_HW``, ``$DLA_RTL``), with their
defaults.

``DLA_RTL`` is this platform's own RTL (``blocks/rtl/``: the checkout's, or the installed package's): a user's property
list names the AXI4 read-master property set as ``$DLA_RTL/props/axi4_read_master_props.sv`` (examples/desc_reader).

``NVDLA_HW`` is a checkout of nvdla/hw (branch nvdlav1; NVIDIA's files under their own paths, ``vmod/...``). When
neither the environment nor make sets it, its defaults are, first found first: the pinned copy ``make nvdla`` puts
inside the checkout (``sim_build/thirdparty/nvdla-hw``, :mod:`dlaverif.thirdparty.fetch`, every file checked against
``nvdla_hw.lock.json``), then the shared copies beside the repository (``../shared/thirdparty/nvdla-pdp-rdma`` and
``../shared/thirdparty/nvdla-cdma``, exported unmodified with NVIDIA's licence, one block's files each). The variable
takes the first default found; a path under it that this default lacks comes from the first other default that has
it (:func:`located`), so each shared export serves its own block's file list. Without any, a build whose list
names it is *unavailable*: the testplan keeps it with the one line saying how to get the files (:func:`missing`),
and the flow and the tests report it as skipped with that line (:func:`skipped`) instead of running it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Mapping, Optional

ROOT = Path(__file__).resolve().parents[2]
#: the package's own HDL (package data): the property sets a user binds, the fast path's memory and capture
HDL = Path(__file__).resolve().parents[1] / "hdl"
NVDLA_HW = "NVDLA_HW"
DLA_RTL = "DLA_RTL"
#: where ``make nvdla`` (python -m dlaverif.thirdparty.fetch) puts NVIDIA's pinned files: inside the checkout, ignored
#: by git
FETCHED = ROOT / "sim_build" / "thirdparty" / "nvdla-hw"
#: variable -> (its defaults, the first that exists wins; what to set it to)
DEFAULTS: dict[str, tuple[tuple[Path, ...], str]] = {
    NVDLA_HW: (
        (
            FETCHED,
            ROOT.parent / "shared" / "thirdparty" / "nvdla-pdp-rdma",
            ROOT.parent / "shared" / "thirdparty" / "nvdla-cdma",
        ),
        "a checkout of nvdla/hw (branch nvdlav1)",
    ),
    DLA_RTL: ((HDL,), "the hdl folder of the dlaverif package"),
}
#: how to get the files of a variable that has no default on disk (docs/setup.md says more)
GET = {NVDLA_HW: "make nvdla (fetches the pinned files into the checkout, docs/setup.md)"}
_UNSET = re.compile(r"\$(\w+) is not set")


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
