"""The one place that decides whether a test can use RTL that is not in the repository (NVIDIA's, ``NVDLA_HW``: the
plan's root of that name, blocks/pdp_rdma/plan.yaml): a test that needs it asks for :func:`foreign_build` or
:func:`nvdla_hw`, or calls :func:`require` with its build, and is skipped when the files are not found here: counted
in pytest's summary with the one line of :func:`dlaverif.thirdparty.skipped` naming what is missing and how to get
it (``make nvdla``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlaverif import thirdparty
from dlaverif.flow import project, testplan

PLAN = testplan.load()  # (which declares the plan's third-party roots to dlaverif.thirdparty)
#: the testplan builds that name their own file list (RTL we did not write)
FOREIGN = [b for b in PLAN.builds.values() if b.options.filelist is not None]


def require(build: testplan.PlannedBuild) -> testplan.PlannedBuild:
    """``build``; the calling test is skipped, with the line saying how to get its RTL, when that is not found."""
    if build.missing is not None:
        pytest.skip(thirdparty.skipped(build.name, build.missing))
    return build


@pytest.fixture(params=FOREIGN, ids=lambda b: b.name)
def foreign_build(request: pytest.FixtureRequest) -> testplan.PlannedBuild:
    """Each build of :data:`FOREIGN` in turn (one test item each), skipped where its RTL is not found."""
    return require(request.param)


@pytest.fixture
def nvdla_hw() -> Path:
    """The folder of NVIDIA's files (``NVDLA_HW`` or its default); the test is skipped when there is none."""
    root = thirdparty.environment().get(thirdparty.NVDLA_HW)
    if root is None:
        pytest.skip(thirdparty.skipped("NVIDIA's RTL", thirdparty.hint(thirdparty.NVDLA_HW)))
    return Path(root)


@pytest.fixture
def nvdla_files(nvdla_hw: Path) -> dict[str, Path]:
    """Every file the lock of ``make nvdla`` pins (the root's ``lock``, blocks/nvdla_hw.lock.json), found in
    ``NVDLA_HW`` or its defaults (the shared exports among them): relative path -> file; the test is skipped when one
    is not found here."""
    from dlaverif.thirdparty import fetch

    root = PLAN.roots[thirdparty.NVDLA_HW]
    lock = fetch.load_lock(project.ROOT / root.lock)
    places = [nvdla_hw, *(project.ROOT / d for d in root.defaults)]
    found = {rel: next((p / rel for p in places if (p / rel).is_file()), None) for rel in lock["files"]}
    gone = sorted(rel for rel, path in found.items() if path is None)
    if gone:
        what = f"{len(gone)} of NVIDIA's pinned files not found here (first {gone[0]})"
        pytest.skip(thirdparty.skipped(what, thirdparty.GET[thirdparty.NVDLA_HW]))
    return {rel: path for rel, path in found.items() if path is not None}
