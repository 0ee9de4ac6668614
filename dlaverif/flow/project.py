"""Which project the flow works on: its testplan, the folder the plan's relative paths start from, where builds and
reports go. The one place that knows, so that the flow is usable from another project; :mod:`dlaverif.flow.runner`,
:mod:`dlaverif.flow.testplan` and :mod:`dlaverif.flow.buildopts` take their paths from here, and so does everything
built on them (``make sim``, ``make regress``, ``make mutants``).

* This repository (no ``TESTPLAN`` in the environment): ``blocks/plan.yaml``, paths relative to the checkout,
  output in the checkout's ``sim_build/``.
* Another project, with this package installed: ``TESTPLAN=<its plan>`` (a make variable of its Makefile, as in
  ``examples/desc_reader/``); the plan's relative paths (file lists, property lists, include folders) start from the
  plan's folder, which is also the project's root: its cocotb test modules are imported from there, and its output
  goes to ``<root>/sim_build/``.
* ``SIM_BUILD=<folder>`` puts the output elsewhere, for either.

Relative values of both variables are taken from the current folder.
"""

from __future__ import annotations

import os
from pathlib import Path

#: where this package lives: the checkout, or site-packages when installed
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
OWN_PLAN = PACKAGE_ROOT / "blocks" / "plan.yaml"


def _path_from_env(name: str) -> Path | None:
    text = os.environ.get(name, "").strip()
    return Path(text).resolve() if text else None


#: the testplan every flow command reads
PLAN = _path_from_env("TESTPLAN") or OWN_PLAN
#: the project's root: the plan's relative paths start here, its test modules are imported from here
ROOT = PACKAGE_ROOT if PLAN == OWN_PLAN else PLAN.parent
#: build and run output (one folder per simulator and build), reports
SIM_BUILD = _path_from_env("SIM_BUILD") or ROOT / "sim_build"
#: this repository's readers (their per-top lists, ``<top>.f``): the RTL a build compiles when its plan entry names no
#: file list
RTL = PACKAGE_ROOT / "blocks" / "rtl"
