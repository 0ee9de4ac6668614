"""The configuration axis's reach column (``configaxis._reach``), without a simulator: records written by hand in
job folders, the limits from the RTL's contracts and defaults, holes where a limit was not reached; the report's
templates render it."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest

from dlaverif.flow.regression import configaxis


def _col(tmp_path: Path, records: dict[str, list[dict]]) -> SimpleNamespace:
    jobs = {}
    for key, recs in records.items():
        folder = tmp_path / key
        folder.mkdir()
        for i, rec in enumerate(recs):
            (folder / f"reach_t{i}.json").write_text(json.dumps(rec))
        jobs[key] = {"folder": str(folder), "status": "PASS"}
    return SimpleNamespace(jobs=jobs)


def test_limits_reached_and_holes(tmp_path):
    col = _col(
        tmp_path,
        {
            "a": [{"top_bit": 63, "most_in_flight": 128, "longest_pages": 3, "bursts": 10}],
            "b": [{"top_bit": 40, "most_in_flight": 255, "longest_pages": 70, "bursts": 5}],
        },
    )
    got = configaxis._reach(col, ["a", "b"], "axi_rd_engine", {"ADDR_W": 64, "MAX_OUTSTANDING": 255})
    assert got["reached"] == {
        "top_bit": 63,
        "most_in_flight": 255,
        "most_beats_in_flight": 0,  # records without the field (older runs) count 0
        "most_jobs_in_flight": 0,  # no descriptor port (and older records): 0
        "longest_pages": 70,
        "bursts": 15,
        "occupancy": {},
        "lanes": {},
    }
    assert got["limits"] == {"top_bit": 63, "most_in_flight": 255} and got["holes"] == []
    # the engine's defaults (ADDR_W 40, MAX_OUTSTANDING 128) from its RTL, job a alone: bit 63 > 39, 128 of 128
    alone = configaxis._reach(col, ["a"], "axi_rd_engine", {})
    assert alone["limits"] == {"top_bit": 39, "most_in_flight": 128} and alone["holes"] == []
    low = configaxis._reach(col, ["b"], "cube_reader", {"AXI_ADDR_W": 64})
    assert low["holes"] == ["top_bit 40 of 63"]  # MAX_OUTSTANDING at its default 128: 255 reached it
    wr = configaxis._reach(col, ["b"], "weight_reader", {"DATA_DEPTH": 1024})
    assert "most_beats_in_flight" not in wr["limits"]  # beats are shown, not judged: queues are not on the bus


def test_no_record_is_a_hole_and_a_foreign_top_has_no_limits(tmp_path):
    col = _col(tmp_path, {"a": []})
    assert configaxis._reach(col, ["a"], "pixel_reader", {})["holes"] == [
        "most_in_flight: no record",
        "top_bit: no record",
    ]
    assert configaxis._reach(col, ["a"], "byte_dma", {})["holes"] == []


def test_templates_render_the_reach_column():
    folder = Path(configaxis.__file__).parent / "templates"
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder))
    row = {
        "reach": {
            "reached": {"top_bit": 40, "most_in_flight": 255, "longest_pages": 2},
            "limits": {"top_bit": 63},
            "holes": ["top_bit 40 of 63"],
        },
    }
    macro = env.from_string(
        "{% for c in cs %}{{ c.reach.reached.top_bit }}/{{ c.reach.limits.top_bit }}{% endfor %} "
        "{{ cs | selectattr('reach.holes') | list | length }}"
    )
    assert macro.render(cs=[row]) == "40/63 1"
    for name in ("index.html.j2", "summary.md.j2"):
        env.get_template(name)  # parses


def test_occupancy_against_each_depth_and_a_reach_bound_shown_as_a_waiver(tmp_path):
    """The weight reader at DATA_DEPTH 1024 (others at their RTL defaults: WGS_DEPTH 32, MAX_OUTSTANDING 64): the
    data queue full, the WGS queue not; a bound of most_in_flight below MAX_OUTSTANDING cuts the limit, is listed
    as waived with its value and reason, and is judged itself."""
    from dlaverif.flow.testplan import ReachBound
    from dlaverif.platform.reach import Probe

    rec = {"top_bit": 39, "most_in_flight": 50, "longest_pages": 3, "bursts": 4, "occupancy": {"dat": 1024, "wgs": 9}}
    col = _col(tmp_path, {"a": [rec]})
    probes = (Probe("dat", "u_fetch.u_q_dat.count", "DATA_DEPTH"), Probe("wgs", "u_fetch.u_q_wgs.count", "WGS_DEPTH"))
    bound = {"most_in_flight": ReachBound("most_in_flight", "DATA_DEPTH // 32", "a made-up reason")}
    got = configaxis._reach(col, ["a"], "weight_reader", {"DATA_DEPTH": 1024}, probes, bound)
    assert got["occupancy"] == [
        {"name": "dat", "deepest": 1024, "depth": 1024},
        {"name": "wgs", "deepest": 9, "depth": 32},
    ]
    assert got["limits"] == {"top_bit": 39, "most_in_flight": 32}  # 1024 // 32 = 32 < 64
    assert got["waived"] == ["most_in_flight 64 cut to 32 (DATA_DEPTH // 32): a made-up reason"]
    assert got["holes"] == ["occupancy wgs 9 of 32"]
    low = configaxis._reach(col, ["a"], "weight_reader", {"DATA_DEPTH": 4096 // 2}, probes, bound)
    assert low["waived"] == [] and low["limits"]["most_in_flight"] == 64  # 2048 // 32 = 64: nothing cut
    assert low["holes"] == ["most_in_flight 50 of 64", "occupancy dat 1024 of 2048", "occupancy wgs 9 of 32"]


def test_a_reach_bound_on_a_queue_cuts_its_depth(tmp_path):
    """A bound named after an occupancy probe cuts that queue's depth where it is below it (shown as a waiver, the
    row's depth is the bound, judged), and leaves it where it is not; the other queue keeps its depth."""
    from dlaverif.flow.testplan import ReachBound
    from dlaverif.platform.reach import Probe

    rec = {"top_bit": 11, "most_in_flight": 2, "longest_pages": 1, "bursts": 4, "occupancy": {"dat": 30, "wgs": 9}}
    col = _col(tmp_path, {"a": [rec]})
    probes = (Probe("dat", "u_fetch.u_q_dat.count", "DATA_DEPTH"), Probe("wgs", "u_fetch.u_q_wgs.count", "WGS_DEPTH"))
    bound = {"dat": ReachBound("dat", "min(DATA_DEPTH, (1 << AXI_ADDR_W) // 128 - 1)", "a made-up reason")}
    got = configaxis._reach(col, ["a"], "weight_reader", {"AXI_ADDR_W": 12, "MAX_OUTSTANDING": 2}, probes, bound)
    assert got["occupancy"] == [{"name": "dat", "deepest": 30, "depth": 31}, {"name": "wgs", "deepest": 9, "depth": 32}]
    assert got["waived"] == [
        "occupancy dat 160 cut to 31 (min(DATA_DEPTH, (1 << AXI_ADDR_W) // 128 - 1)): a made-up reason"
    ]
    assert got["holes"] == ["occupancy dat 30 of 31", "occupancy wgs 9 of 32"]
    wide = configaxis._reach(col, ["a"], "weight_reader", {"AXI_ADDR_W": 40, "MAX_OUTSTANDING": 2}, probes, bound)
    assert wide["waived"] == [] and wide["occupancy"][0]["depth"] == 160


def test_a_reach_bound_names_a_limit_or_a_queue_of_its_top():
    from dlaverif.flow import testplan

    raw = {"tops": {"t": {"occupancy": {"q": {"path": "u.count", "depth": "D"}}, "reach_bounds": {}}}}
    raw["tops"]["t"]["reach_bounds"] = {"q": {"bound": "D - 1", "why": "w"}}
    assert testplan._reach_data(raw)[1]["t"]["q"].bound == "D - 1"
    raw["tops"]["t"]["reach_bounds"] = {"r": {"bound": "D - 1", "why": "w"}}
    with pytest.raises(ValueError, match="'r'; allowed: top_bit, most_in_flight, q"):
        testplan._reach_data(raw)


def test_beat_lanes_against_one_lane_and_the_bus_and_rendered(tmp_path):
    """The weight reader on a 512-bit bus (64 lanes): a record whose widest beat is 64 lanes and narrowest 3 is a
    hole for the one-lane bin only; the row lists the pair against the lane count."""
    from dlaverif.platform.reach import Probe

    rec = {"top_bit": 39, "most_in_flight": 64, "longest_pages": 3, "bursts": 4, "lanes": {"fetch": [3, 64]}}
    col = _col(tmp_path, {"a": [rec]})
    probes = (Probe("fetch", "u_fetch.rd_fire", "AXI_DATA_W // 8", "u_fetch.rd_lo", "u_fetch.rd_hi"),)
    got = configaxis._reach(col, ["a"], "weight_reader", {"AXI_DATA_W": 512}, probes)
    assert got["lanes"] == [{"name": "fetch", "narrowest": 3, "widest": 64, "lanes": 64}]
    assert got["holes"] == ["lanes fetch: narrowest beat 3 lanes, not 1"]
    assert got["occupancy"] == []  # a beat-lanes probe is not a queue
