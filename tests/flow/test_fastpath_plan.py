"""A build's ``fastpath:`` plan entry (dlaverif/flow/fastpath.py): our three fast-path builds declare it; a wrong one
is refused in one line. The generated wrapper compiling: tests/sim/test_fastpath_wrapper.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from dlaverif.flow import runner, testplan
from dlaverif.flow.planschema import PlanError

WIDTHS = "data_width: 64, addr_width: 32, id_width: 2, stream_bytes: 4, tuser_width: 3"


def _plan(tmp_path: Path, build: str) -> Path:
    p = tmp_path / "plan.yaml"
    p.write_text(f"builds:\n  fast:\n{build}runs: {{}}\nsuites: {{}}\ntestpoints: []\n")
    return p


def _refusal(tmp_path: Path, build: str) -> str:
    with pytest.raises(PlanError) as exc:
        testplan.load(_plan(tmp_path, build))
    text = str(exc.value)
    assert "\n" not in text and "Traceback" not in text
    return text


def test_our_fast_path_builds_declare_their_reader_as_data():
    builds = testplan.load().builds
    fast = {n: b for n, b in builds.items() if b.options.fastpath is not None}
    assert {"cube_reader_hdl", "weight_reader_hdl", "pixel_reader_hdl"} <= set(fast)
    assert {b.toplevel for b in fast.values()} >= {"cube_reader", "weight_reader", "pixel_reader"}
    assert runner.hdl_top("cube_reader", builds["cube_reader_hdl"].options) == "cube_reader_fastpath"
    assert runner.hdl_top("cube_reader", builds["cube_reader"].options) == "cube_reader"
    assert builds["cube_reader_hdl"].options.fastpath.stream_bytes == 128


def test_a_missing_width_an_unknown_key_and_a_bad_prefix_are_one_line_each(tmp_path):
    text = _refusal(tmp_path, "    toplevel: r\n    fastpath: {data_width: 64}\n")
    assert "builds.fast.fastpath: missing key" in text and "addr_width" in text
    text = _refusal(tmp_path, f"    toplevel: r\n    fastpath: {{{WIDTHS}, tdata_width: 8}}\n")
    assert "builds.fast.fastpath" in text and "tdata_width" in text
    text = _refusal(tmp_path, f"    toplevel: r\n    fastpath: {{{WIDTHS}, axi: mem}}\n")
    assert "builds.fast.fastpath.axi" in text and "a port prefix ending in _" in text
    text = _refusal(
        tmp_path,
        "    toplevel: r\n    fastpath: {data_width: -8, addr_width: 32, id_width: 2, "
        "stream_bytes: 4, tuser_width: 3}\n",
    )
    assert "builds.fast.fastpath.data_width" in text and "a whole number or a parameter name" in text


def test_a_width_naming_no_parameter_of_the_build_is_one_line(tmp_path):
    text = _refusal(
        tmp_path,
        "    toplevel: r\n    parameters: {BEAT: 8}\n"
        "    fastpath: {data_width: BEATS, addr_width: 32, id_width: 2, stream_bytes: 4, tuser_width: 3}\n",
    )
    assert "builds.fast.fastpath.data_width: BEATS is none of the build's parameters (BEAT)" in text
