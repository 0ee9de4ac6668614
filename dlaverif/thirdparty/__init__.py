"""Where RTL outside a project comes from: the variables file lists name (``$NVDLA_HW``, ``$DLA_RTL``), with their
defaults.

``DLA_RTL`` is this platform's own RTL (``blocks/rtl/``: the checkout's, or the installed package's): a user's property
list names the AXI4 read-master property set as ``$DLA_RTL/props/axi4_read_master_props.sv`` (examples/desc_reader).

``NVDLA_HW`` is a checkout of nvdla/hw (branch nvdlav1; NVIDIA's files under their own paths, ``vmod/...``). When
neither the environment nor make sets it, the shared copy beside the repository (``../shared/thirdparty/
nvdla-pdp-rdma``, exported unmodified with NVIDIA's licence) is the default where it exists. Without either, a build
whose list names it is *unavailable*: the testplan keeps it with the one line saying what to set
(:func:`missing`), and the flow reports that line instead of running it.
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
#: variable -> (its default when it exists, what to set it to)
DEFAULTS: dict[str, tuple[Path, str]] = {
    NVDLA_HW: (ROOT.parent / "shared" / "thirdparty" / "nvdla-pdp-rdma", "a checkout of nvdla/hw (branch nvdlav1)"),
    DLA_RTL: (HDL, "the hdl folder of the dlaverif package"),
}
_UNSET = re.compile(r"\$(\w+) is not set")


def environment(env: Optional[Mapping[str, str]] = None) -> dict[str, str]:
    """``env`` (default: the process environment) with the defaults of :data:`DEFAULTS` that exist on disk for the
    variables it does not set (an empty value counts as unset: make exports its empty variables)."""
    out = {k: v for k, v in (os.environ if env is None else env).items() if v != ""}
    for name, (default, _) in DEFAULTS.items():
        if name not in out and default.is_dir():
            out[name] = str(default)
    return out


def hint(name: str) -> str:
    """The one line telling what to set for the variable ``name`` of :data:`DEFAULTS`."""
    default, what = DEFAULTS[name]
    return f"{name} is not set: make ... {name}=<{what}> (the default {default} does not exist)"


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
