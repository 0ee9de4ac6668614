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


#: SHA-256 of our three readers' wrappers as rendered before the control side became declarable (AXI4-Lite slave,
#: active-high reset): the generalised renderer must give them byte for byte
OUR_WRAPPERS = {
    "cube_reader_hdl": "14aa52d21ecf9eb525d577da3d54bb503a5de13820dea494feb65b3d74e50a33",
    "pixel_reader_hdl": "cc5c7933635f3864d59d37ee42ba5abbe0ac2ac4af2ab6ae63b987b98557cc97",
    "weight_reader_hdl": "0c566c23a5d1c9bb9f5401efb75545b83659b2134fdb201f4a9917ae6a718bbf",
}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: a descriptor-port reader with a status port, TID/TDEST and an active-low reset (examples/stream_dma's ports)
STREAM_DMA_FAST = """    toplevel: stream_dma
    properties: none
    fastpath: {axi: m_axi_gmem_, stream: m_axis_out_, control: none, clock: ap_clk, reset: ap_rst_n,
               reset_active_low: true, inputs: {enable: 1, s_desc_tvalid: 1, s_desc_addr: 32, s_desc_len: 16,
               s_desc_tag: 8, s_desc_tid: 4, s_desc_tdest: 4}, outputs: {s_desc_tready: 1, st_valid: 1, st_tag: 8,
               st_err: 1}, sidebands: {tid: 4, tdest: 4}, data_width: 64, addr_width: 32, id_width: 4,
               stream_bytes: 8, tuser_width: 1}
"""


def test_our_readers_wrappers_are_unchanged_byte_for_byte():
    import hashlib

    from dlaverif.flow import fastpath

    builds = testplan.load().builds
    for name, digest in OUR_WRAPPERS.items():
        b = builds[name]
        text = fastpath.render(b.toplevel, b.parameters, b.options.fastpath)
        assert hashlib.sha256(text.encode()).hexdigest() == digest, name
        assert "s_axil_awaddr" in text and ".rst, .load_tgl" in text  # (the digest is of this renderer's output)


def test_a_descriptor_port_reader_gets_its_control_ports_copied_and_its_reset_inverted(tmp_path):
    import yaml

    from dlaverif.flow import fastpath

    raw = yaml.safe_load((EXAMPLES / "desc_reader" / "testplan.yaml").read_text())["builds"]["desc_reader_fast"]
    fp = fastpath.from_plan("desc_reader_fast", raw["fastpath"], {})
    assert not fp.slave and fp.reset_active_low
    text = fastpath.render(raw["toplevel"], {}, fp)
    assert "s_axil_" not in text and "FP_CTRL_AW" not in text  # no register slave
    assert "  output logic        clk_i,\n  input  logic        rst_ni,\n" in text  # the reader's own names
    assert "  assign clk_i = clk;\n" in text and "  assign rst = !rst_ni;\n" in text
    assert "  input  logic [36-1:0] desc_addr_i,\n" in text and "  input  logic        desc_valid_i,\n" in text
    assert (
        "always @(negedge clk)\n    {desc_ready_o, fin_o, fin_id_o} <= {dut_desc_ready_o, dut_fin_o, dut_fin_id_o};"
        in text
    )
    assert "desc_reader #() dut (.*, .clk_i(clk),\n    .desc_ready_o(dut_desc_ready_o)," in text
    assert fastpath.environment(fp, {}) == {
        "FASTPATH_DATA_W": "64",
        "FASTPATH_ADDR_W": "36",
        "FASTPATH_USER": "tuser:4",
    }


def test_stream_sidebands_are_captured_above_tuser(tmp_path):
    from dlaverif.flow import fastpath

    b = testplan.load(_plan(tmp_path, STREAM_DMA_FAST)).builds["fast"]
    fp = b.options.fastpath
    text = fastpath.render(b.toplevel, b.parameters, fp)
    assert ".tuser(64'({m_axis_out_tdest, m_axis_out_tid, m_axis_out_tuser}))" in text
    assert "  logic [4-1:0] m_axis_out_tid;\n" in text
    assert fastpath.environment(fp, b.parameters)["FASTPATH_USER"] == "tuser:1,tid:4,tdest:4"


@pytest.mark.parametrize(
    "change, said",
    [
        ("control: none,", "irq and control_addr_width belong to a register slave"),
        ("inputs: {enable: 1,", "ap_rst_n declared twice"),
        ("tuser_width: 1}", "TUSER and sidebands are 65 bits; the capture keeps 64"),
    ],
)
def test_a_wrong_control_side_is_one_line(tmp_path, change, said):
    bad = {
        "control: none,": "control: none, irq: st_valid,",
        "inputs: {enable: 1,": "inputs: {enable: 1, ap_rst_n: 1,",
        "tuser_width: 1}": "tuser_width: 57}",
    }[change]
    text = _refusal(tmp_path, STREAM_DMA_FAST.replace(change, bad))
    assert "builds.fast.fastpath" in text and said in text


def test_a_reset_polarity_is_true_or_false(tmp_path):
    text = _refusal(tmp_path, STREAM_DMA_FAST.replace("reset_active_low: true", "reset_active_low: low"))
    assert "builds.fast.fastpath.reset_active_low" in text
