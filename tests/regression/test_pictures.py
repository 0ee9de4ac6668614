"""Mismatch maps (dlaverif/platform/mismatch_map.py), the report's links to them, its charts and the history's trend and
holes diff, on fabricated data (no simulator): a map is written for differing bytes and names the first one's
coordinate, nothing for equal bytes; the report copies and links a failing job's maps; two kept regressions give a trend
chart and the holes that opened and closed."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np

from dlaverif.flow.regression import history
from dlaverif.flow.regression.__main__ import make_report
from dlaverif.platform.mismatch_map import WINDOW_ROWS, DiffRows, as_rows, write_map


def _rows(expected: np.ndarray, actual: np.ndarray) -> DiffRows:
    return DiffRows(
        "atom",
        expected,
        actual,
        lambda i: f"atom #{i} (n,c,h,w)=(0,{16 * (i % 2)},{i // 2},0)",
        lambda i, j: f"atom #{i} (n,c,h,w)=(0,{16 * (i % 2)},{i // 2},0) byte {j}",
        "cube3 [cube] nvdla.feature int8",
    )


def test_a_map_marks_the_first_difference_by_its_coordinate(tmp_path):
    rng = np.random.default_rng(5)
    want = rng.integers(0, 256, (40, 32)).astype(np.int16)
    got = want.copy()
    got[21, 7] ^= 0x40  # the first difference: atom #21 = (n,c,h,w)=(0,16,10,0), byte 7
    got[30:, 0] ^= 1  # ten more rows, partly outside the window
    info = write_map(_rows(want, got), tmp_path / "m.svg")
    assert info is not None and info.path.is_file()
    svg = info.path.read_text()
    assert info.first == "atom #21 (n,c,h,w)=(0,16,10,0) byte 7"
    assert "first: atom #21 (n,c,h,w)=(0,16,10,0) byte 7: expected 0x" in svg  # labels stay text in the SVG
    assert info.rows_differ == 11 and info.bytes_differ == 11
    lo, hi = info.window
    assert lo <= 21 < hi and hi - lo == WINDOW_ROWS
    assert f"{11 - sum(lo <= r < hi for r in [21, *range(30, 40)])} more differing atom(s) outside" in svg
    assert f"atom #{hi} " not in svg and f"atom #{lo} " in svg  # rows drawn: the window only
    assert str(info.path) in info.note() and info.first in info.note()
    assert info.path.stat().st_size < 100_000  # small


def test_equal_bytes_draw_nothing(tmp_path):
    want = np.arange(64, dtype=np.int16).reshape(2, 32)
    assert write_map(_rows(want, want.copy()), tmp_path / "m.svg") is None
    assert not (tmp_path / "m.svg").exists()


def test_short_rows_and_a_missing_byte(tmp_path):
    dense = np.arange(100, dtype=np.uint8)
    rows = as_rows(dense, np.array([0, 32, 40]), np.array([32, 8, 32]), 32)
    assert rows.shape == (3, 32) and (rows[1, 8:] == -1).all() and rows[2, 0] == 40
    got = rows.copy()
    got[1, 8] = 0x55  # a byte where the model has none differs too
    info = write_map(_rows(rows, got), tmp_path / "w.svg")
    assert info is not None and info.first.endswith("byte 8") and "expected none, actual 0x55" in info.path.read_text()


# ----------------------------------------------------------------------------- history and trend
def _results(passed: int, jobs: int, holes: dict[str, list[str]], percent: float) -> dict:
    return {
        "regression": {"suites": ["smoke"], "sims": ["verilator"], "jobs": jobs, "passed": passed},
        "functional": {"percent": percent},
        "code": {"totals": {"lines": [80, 100, 80.0]}},
        "signature": {"functional": {g: {"holes": h} for g, h in holes.items()}, "jobs": {"k": passed}},
    }


def test_holes_diff_lists_opened_and_closed_bins():
    before = _results(4, 4, {"cr.kind": ["reset"], "cr.base": [], "old.group": ["x"]}, 90.0)
    now = _results(3, 4, {"cr.kind": ["illegal"], "cr.base": ["huge_stride"], "new.group": ["y"]}, 80.0)
    d = history.holes_diff(before, now)
    assert d["opened"] == ["cr.base/huge_stride", "cr.kind/illegal"]
    assert d["closed"] == ["cr.kind/reset"]
    assert d["only_now"] == ["new.group"] and d["only_before"] == ["old.group"]


def test_two_kept_regressions_give_a_trend_and_a_holes_diff(tmp_path):
    hist = tmp_path / "history"
    first = history.record(_results(4, 4, {"cr.kind": ["reset"]}, 90.0), hist, when=1_700_000_000)
    second = history.record(_results(3, 4, {"cr.kind": ["illegal"]}, 85.0), hist, when=1_700_000_600)
    entries = history.load(hist)
    assert [e.name for e in entries] == [first.name, second.name]  # oldest first
    t = history.trend(entries, history.Entry("this report", entries[-1].results))  # the same run counts once
    assert [p["pass_rate"] for p in t["points"]] == [100.0, 75.0]
    assert t["holes"]["opened"] == ["cr.kind/illegal"] and t["holes"]["closed"] == ["cr.kind/reset"]
    assert history.trend(entries[:1])["holes"] is None
    archive = shutil.make_archive(str(tmp_path / "hist"), "gztar", hist)  # a history copied from elsewhere
    assert [e.name for e in history.load(Path(archive), tmp_path / "scratch")] == [first.name, second.name]


# ----------------------------------------------------------------------------- the report, on a fabricated regression
def _regression(folder: Path, status: str, maps: int) -> Path:
    """A regression folder as execute.py writes it: one job of cube_reader/uvm::RandomCubeTest, seed 1."""
    job = folder / "runs" / "verilator" / "cube_reader-uvm" / "RandomCubeTest" / "seed1"
    job.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({"suite": "smoke", "sims": ["verilator"], "shard": "1/1"}))
    (job / "sim.log").write_text("log\n")
    rec = {
        "key": "verilator:cube_reader/uvm:RandomCubeTest:1",
        "sim": "verilator",
        "run": "cube_reader/uvm",
        "test": "RandomCubeTest",
        "seed": 1,
        "count": "8",
        "status": status,
        "first_error": "" if status == "pass" else "MISMATCH cube8",
        "log": "runs/verilator/cube_reader-uvm/RandomCubeTest/seed1/sim.log",
        "rerun": "make sim ...",
        "wall_s": 3.0,
        "sim_time_ns": 1.0,
        "tests": [{"name": "RandomCubeTest", "passed": status == "pass"}],
    }
    (job / "job.json").write_text(json.dumps(rec))
    want = np.zeros((4, 32), np.int16)
    for n in (10, 8, 9)[:maps]:
        got = want.copy()
        got[1, 3] = n
        write_map(_rows(want, got), job / f"mismatch_RandomCubeTest_cube{n}.svg")
    return folder


def test_the_report_links_the_maps_and_draws_the_charts_and_the_trend(tmp_path):
    hist = tmp_path / "history"
    clean = _regression(tmp_path / "clean", "pass", 0)
    make_report([clean], tmp_path / "r1", history_dir=hist, keep=True)
    assert not (tmp_path / "r1" / "maps").exists()  # a clean job has no map
    broken = _regression(tmp_path / "broken", "fail", 3)
    out = tmp_path / "r2"
    r = make_report([broken], out, history_dir=hist, keep=True)
    maps = r["failures"][0]["maps"]
    assert [Path(m).name for m in maps] == [f"mismatch_RandomCubeTest_cube{n}.svg" for n in (8, 9, 10)]
    html = (out / "index.html").read_text()
    for m in maps:
        assert (out / m).is_file() and f'href="{m}"' in html and not Path(m).is_absolute()
    assert set(r["charts"]) == {"walltime", "testpoints", "trend"}  # no covergroup sampled: no coverage chart
    for rel in r["charts"].values():
        assert (out / rel).is_file() and f'src="{rel}"' in html
    assert len(r["trend"]["points"]) == 2 and [p["pass_rate"] for p in r["trend"]["points"]] == [100.0, 0.0]
    assert re.search(r'<ul id="holes-opened"><li>none</li></ul>', html)
    assert len(history.load(hist)) == 2


def test_make_report_keeps_nothing_unless_asked(tmp_path):
    make_report([_regression(tmp_path / "reg", "pass", 0)], tmp_path / "r", history_dir=tmp_path / "h")
    assert not (tmp_path / "h").exists()
