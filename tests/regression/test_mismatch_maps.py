"""Mismatch maps from real simulations (Verilator; the cube reader's on Icarus too): a broken RTL copy (a mutant of
a block's catalogue) makes the scoreboard write ``mismatch_<test>_<item>.svg`` into the job folder, name it in the
MISMATCH report, and mark in it the same first differing byte the report names; the regression report links it; a
clean job writes none."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dlaverif.flow import mutants

from .conftest import regress
from .regress_cli import own_run

pytestmark = pytest.mark.sim


def _run(tmp_path: Path, tests: str, mutant: str | None = None, sim: str = "verilator") -> tuple[Path, str, dict]:
    """One-job regression (seed 1, no code coverage); (job folder, its sim.log, the report's results)."""
    extra = []
    if mutant:
        rtl = mutants.make_copy(next(m for m in mutants.MUTANTS if m.name == mutant), tmp_path / "mutant")
        extra.append(f"--rtl={rtl}")
    p = regress(*own_run(tmp_path, "--seed-list=1", f"--tests={tests}", "--coverage=0", "--jobs=1", *extra, sim=sim))
    results = json.loads((tmp_path / "report" / "results.json").read_text())
    job = next((tmp_path / "reg" / "runs").glob("*/*/*/seed1"))
    assert (job / "sim.log").is_file(), p.stdout + p.stderr
    return job, (job / "sim.log").read_text(errors="replace"), results


def _notes(log: str) -> list[tuple[Path, str]]:
    """(map, first difference) of every ``mismatch map:`` line of a log, once each (the test's final assertion
    repeats the first report)."""
    return list(
        dict.fromkeys(
            (Path(p), first)
            for p, first in re.findall(r"mismatch map: (\S+\.svg) \(rows [^;]+; first difference ([^;]+);", log)
        )
    )


def _check_maps(job: Path, log: str) -> list[tuple[Path, str]]:
    notes = _notes(log)
    files = sorted(job.glob("mismatch_*.svg"))
    assert notes and 1 <= len(files) <= 3, f"maps {files}, notes {notes}"
    assert sorted({p for p, _ in notes}) == files  # every map is named in a report, every name is a file
    for path, first in notes:
        assert f"first: {first}: expected" in path.read_text()  # the map marks the byte the report names
    return notes


@pytest.mark.parametrize("sim", ["verilator", "icarus"])
def test_cube_reader_first_beat_offset_ignored(tmp_path, sim):
    job, log, results = _run(tmp_path, "cube_reader/uvm::RandomCubeTest", "first_beat_offset_ignored", sim)
    notes = _check_maps(job, log)
    head = re.search(r"MISMATCH .*?atom #(\d+) of \d+ \(n,c,h,w\)=\(([\d,]+)\) @0x\w+ differs first at byte (\d+)", log)
    assert head, "no MISMATCH with a differing atom"
    i, where, j = head.groups()
    assert notes[0][1].startswith(f"atom #{i} (n,c,h,w)=({where}) byte {j} ")
    fail = results["failures"][0]
    assert [Path(m).name for m in fail["maps"]] == [p.name for p, _ in notes]
    html = (tmp_path / "report" / "index.html").read_text()
    for m in fail["maps"]:
        assert (tmp_path / "report" / m).is_file() and f'href="{m}"' in html


def test_pixel_reader_component_order_swapped(tmp_path):
    job, log, _ = _run(tmp_path, "pixel_reader/uvm-short::EveryFormatTest", "pr_component_order_swapped")
    notes = _check_maps(job, log)
    head = re.search(r"MISMATCH .*?pixel #(\d+) \(h,w\)=\((\d+,\d+)\) of \d+ \[\w+\] differs: channel (\d+)", log)
    assert head, "no MISMATCH with a differing pixel"
    i, hw, c = head.groups()
    assert notes[0][1].startswith(f"pixel #{i} (h,w)=({hw}) channel {c} byte ")


def test_weight_reader_flipped_dense_byte(tmp_path):
    """The scoreboard self-test flips one dense byte of the model's answer (clean RTL): the mismatch it must report
    has its map, at that byte."""
    job, log, _ = _run(tmp_path, "weight_reader/uvm::ScoreboardSelfTest")
    notes = _check_maps(job, log)
    b = re.search(r"MISMATCH .*? differs first at dense byte (\d+) ", log)
    assert b, "no flipped dense byte reported"
    assert re.match(rf"transfer #\d+ dense byte {b.group(1)} \(0x[0-9a-f]+\): group \d+", notes[0][1])


def test_a_clean_job_writes_no_map(tmp_path):
    job, log, results = _run(tmp_path, "cube_reader/uvm::RandomCubeTest")
    assert results["regression"]["failed"] == 0, results["failures"]
    assert not list(job.glob("mismatch_*")) and "mismatch map" not in log
