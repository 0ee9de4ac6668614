"""A build's ``fastpath:`` plan entry (dlaverif/flow/fastpath.py): our three fast-path builds declare it; a wrong one
is refused in one line; what it leaves out comes from the reader's ports (dlaverif/flow/ports.py, read by Verilator),
and what it declares is checked against them. The generated wrapper compiling: tests/sim/test_fastpath_wrapper.py."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dlaverif.flow import fastpath, ports, runner, testplan
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


def _completed(build: testplan.PlannedBuild, work: Path) -> fastpath.FastPath:
    """``build``'s fast path completed from its reader's ports, as :func:`dlaverif.flow.runner.build` completes it."""
    return runner.fastpath_of(build.name, build.toplevel, build.parameters, build.options, work)


def test_our_fast_path_builds_declare_their_reader_as_data():
    builds = testplan.load().builds
    fast = {n: b for n, b in builds.items() if b.options.fastpath is not None}
    assert {"cube_reader_hdl", "weight_reader_hdl", "pixel_reader_hdl"} <= set(fast)
    assert {b.toplevel for b in fast.values()} >= {"cube_reader", "weight_reader", "pixel_reader"}
    assert runner.hdl_top("cube_reader", builds["cube_reader_hdl"].options) == "cube_reader_fastpath"
    assert runner.hdl_top("cube_reader", builds["cube_reader"].options) == "cube_reader"


@pytest.mark.sim  # Verilator reads the reader's ports
def test_the_widths_a_plan_leaves_out_are_the_readers_ports_at_the_builds_parameters(tmp_path):
    """The cube reader's defaults (blocks/rtl/cube_reader/cube_reader.sv: a 256-bit bus of 40 address bits, ID 4, a
    1024-bit output, 64 TUSER bits, an 8-bit register slave), and a 128-bit stream_dma's (examples/stream_dma)."""
    fp = _completed(testplan.load().builds["cube_reader_hdl"], tmp_path / "cube")
    widths = (fp.data_width, fp.addr_width, fp.id_width, fp.stream_bytes, fp.tuser_width, fp.control_addr_width)
    assert widths == (256, 40, 4, 128, 64, 8) and fp.control == "s_axil_" and fp.inputs == fp.outputs == ()
    found = ports.read([STREAM_DMA_RTL], "stream_dma", {"DATA_W": 128}, work=tmp_path / "dma")
    fp = fastpath.complete(
        "w128",
        fastpath.FastPath(axi="m_axi_gmem_", stream="m_axis_out_", clock="ap_clk", reset="ap_rst_n"),
        found,
        {"DATA_W": 128},
    )
    assert (fp.data_width, fp.addr_width, fp.id_width, fp.stream_bytes, fp.tuser_width) == (128, 32, 4, 16, 1)
    assert fp.control == "none" and fp.sidebands == (("tid", 4), ("tdest", 4))
    assert dict(fp.inputs) == {
        "enable": 1,
        "s_desc_tvalid": 1,
        "s_desc_addr": 32,
        "s_desc_len": 16,
        "s_desc_tag": 8,
        "s_desc_tid": 4,
        "s_desc_tdest": 4,
    }
    assert dict(fp.outputs) == {"s_desc_tready": 1, "st_valid": 1, "st_tag": 8, "st_err": 1}


@pytest.mark.sim  # Verilator reads the reader's ports
def test_a_full_declaration_is_what_completion_derives(tmp_path):
    """STREAM_DMA_FAST, written by hand from stream_dma.sv's declarations, is what the ports give at the defaults."""
    declared = testplan.load(_plan(tmp_path, STREAM_DMA_FAST)).builds["fast"].options.fastpath
    assert declared is not None
    found = ports.read([STREAM_DMA_RTL], "stream_dma", {}, work=tmp_path / "dma")
    bare = dataclasses.replace(
        declared,
        data_width=None,
        addr_width=None,
        id_width=None,
        stream_bytes=None,
        tuser_width=None,
        control=None,
        inputs=(),
        outputs=(),
        sidebands=(),
    )
    derived = fastpath.complete("bare", bare, found, {})
    assert fastpath.render("stream_dma", {}, derived) == fastpath.render("stream_dma", {}, declared)
    assert fastpath.complete("full", declared, found, {}) == declared


@pytest.mark.sim  # Verilator reads the reader's ports
@pytest.mark.parametrize(
    "change, said",
    [
        ("data_width: 64", "builds.x.fastpath.data_width: declared 32, but m_axi_gmem_rdata is 64 bits"),
        ("enable: 1, ", "builds.x.fastpath.inputs: leaves out enable"),
        ("st_err: 1}", "builds.x.fastpath.outputs: declares st_done, which the reader has not"),
        ("st_tag: 8,", "builds.x.fastpath.outputs.st_tag: declared 6 (6 bits), but the port is 8 bits"),
        ("clock: ap_clk", "builds.x.fastpath: the reader has no port clk (clock, reset)"),
    ],
)
def test_a_declaration_the_ports_contradict_is_one_line(tmp_path, change, said):
    bad = {
        "data_width: 64": "data_width: 32",
        "enable: 1, ": "",
        "st_err: 1}": "st_err: 1, st_done: 1}",
        "st_tag: 8,": "st_tag: 6,",
        "clock: ap_clk": "clock: clk",
    }[change]
    declared = testplan.load(_plan(tmp_path, STREAM_DMA_FAST.replace(change, bad))).builds["fast"].options.fastpath
    assert declared is not None
    found = ports.read([STREAM_DMA_RTL], "stream_dma", {}, work=tmp_path / "dma")
    with pytest.raises(ValueError) as exc:
        fastpath.complete("builds.x.fastpath", declared, found, {})
    assert said in str(exc.value) and "\n" not in str(exc.value)


@pytest.mark.sim  # Verilator reads the reader's ports
def test_an_incomplete_fast_path_is_not_rendered_and_a_missing_top_is_one_line(tmp_path):
    with pytest.raises(ValueError, match="not complete"):
        fastpath.render("stream_dma", {}, fastpath.FastPath())
    with pytest.raises(ValueError, match="verilator could not read nosuch's ports: %Error"):
        ports.read([STREAM_DMA_RTL], "nosuch", {}, work=tmp_path)


def test_an_unknown_key_and_a_bad_prefix_are_one_line_each(tmp_path):
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
STREAM_DMA_RTL = EXAMPLES / "stream_dma" / "rtl" / "stream_dma.sv"
#: a descriptor-port reader with a status port, TID/TDEST and an active-low reset (examples/stream_dma's ports)
STREAM_DMA_FAST = """    toplevel: stream_dma
    properties: none
    fastpath: {axi: m_axi_gmem_, stream: m_axis_out_, control: none, clock: ap_clk, reset: ap_rst_n,
               reset_active_low: true, inputs: {enable: 1, s_desc_tvalid: 1, s_desc_addr: 32, s_desc_len: 16,
               s_desc_tag: 8, s_desc_tid: 4, s_desc_tdest: 4}, outputs: {s_desc_tready: 1, st_valid: 1, st_tag: 8,
               st_err: 1}, sidebands: {tid: 4, tdest: 4}, data_width: 64, addr_width: 32, id_width: 4,
               stream_bytes: 8, tuser_width: 1}
"""


@pytest.mark.sim  # Verilator reads the reader's ports
def test_our_readers_wrappers_are_unchanged_byte_for_byte(tmp_path):
    import hashlib

    builds = testplan.load().builds
    for name, digest in OUR_WRAPPERS.items():
        b = builds[name]
        text = fastpath.render(b.toplevel, b.parameters, _completed(b, tmp_path / name))
        assert hashlib.sha256(text.encode()).hexdigest() == digest, name
        assert "s_axil_awaddr" in text and ".rst, .load_tgl" in text  # (the digest is of this renderer's output)


@pytest.mark.sim  # Verilator reads the reader's ports
def test_a_descriptor_port_reader_gets_its_control_ports_copied_and_its_reset_inverted(tmp_path):
    import yaml

    raw = yaml.safe_load((EXAMPLES / "desc_reader" / "testplan.yaml").read_text())["builds"]["desc_reader_fast"]
    rtl = EXAMPLES / "desc_reader" / "rtl" / "desc_reader.sv"
    found = ports.read([rtl], "desc_reader", {}, work=tmp_path)
    fp = fastpath.complete("desc_reader_fast", fastpath.from_plan("desc_reader_fast", raw["fastpath"], {}), found, {})
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
        "FASTPATH_PORTS": "clock=clk_i,reset=rst_ni,reset_active_low=1,axi=mem_,stream=pkt_",
    }
    assert dict(fp.inputs) == {"desc_valid_i": 1, "desc_addr_i": 36, "desc_len_i": 12, "desc_id_i": 4}
    assert dict(fp.outputs) == {"desc_ready_o": 1, "fin_o": 1, "fin_id_o": 4}  # (examples/desc_reader/rtl's ports)


@pytest.mark.parametrize(
    "name, low",
    [
        ("rst", False),
        ("reset", False),
        ("rst_i", False),
        ("rst_n", True),
        ("rst_ni", True),
        ("aresetn", True),
        ("ARESETn", True),
        ("rst_b", True),
        ("ap_rst_n", True),
        ("srst", False),
    ],
)
def test_a_resets_polarity_is_read_from_its_name(name, low):
    assert fastpath.active_low(name) is low


def _port(name: str, direction: str = "input", width: int = 1) -> ports.Port:
    return ports.Port(name, direction, width)


#: a reader's ports, as :func:`dlaverif.flow.ports.read` gives them: one clock, one reset, a read master, a stream
MINIMAL = [
    _port("aclk"), _port("aresetn"), _port("go"),
    _port("rd_araddr", "output", 48), _port("rd_arid", "output", 2), _port("rd_rdata", "input", 128),
    _port("o_tdata", "output", 128), _port("o_tkeep", "output", 16), _port("o_tdest", "output", 3),
]  # fmt: skip


def test_everything_a_minimal_reader_leaves_open_is_named_by_its_ports():
    fp = fastpath.complete("b", fastpath.FastPath(), MINIMAL, {})
    assert (fp.axi, fp.stream, fp.clock, fp.reset, fp.reset_active_low) == ("rd_", "o_", "aclk", "aresetn", True)
    assert (fp.data_width, fp.addr_width, fp.id_width, fp.stream_bytes, fp.tuser_width) == (128, 48, 2, 16, 1)
    assert fp.control == "none" and fp.inputs == (("go", 1),) and fp.outputs == () and fp.sidebands == (("tdest", 3),)


@pytest.mark.parametrize(
    "change, said",
    [
        ([_port("clk")], "the reader's ports do not name one clock (aclk, clk): declare clock"),
        ([_port("rst")], "the reader's ports do not name one reset (aresetn, rst): declare reset"),
        ([_port("p_araddr", "output", 32)], "the reader's ports do not name one axi (rd_, p_): declare axi"),
        ([_port("bidir", "inout")], "the fast path drives no inout port (bidir)"),
    ],
)
def test_a_name_the_ports_leave_open_is_one_line(change, said):
    with pytest.raises(ValueError) as exc:
        fastpath.complete("b", fastpath.FastPath(), MINIMAL + change, {})
    assert f"b: {said}" == str(exc.value)
    named = {"clk": {"clock": "aclk"}, "rst": {"reset": "aresetn"}, "p_araddr": {"axi": "rd_"}}.get(change[0].name)
    if named:  # declared, the name is no longer open; the other port is then one more control port
        fp = fastpath.complete("b", fastpath.FastPath(**named), MINIMAL + change, {})
        key, value = next(iter(named.items()))
        assert getattr(fp, key) == value and change[0].name in dict(fp.inputs + fp.outputs)


def test_a_simulation_refuses_wrapper_names_its_binding_contradicts():
    from dlaverif.platform.backends import check_wrapper_names
    from dlaverif.platform.binding import DescriptorControl, DutBinding, ResetPin

    binding = DutBinding(
        control=DescriptorControl("v", "r", (), "done"),
        clock="aclk",
        reset=ResetPin("aresetn", active_high=False),
        axi_master="rd",
        streams=("o",),
    )
    check_wrapper_names(binding, "clock=aclk,reset=aresetn,reset_active_low=1,axi=rd_,stream=o_")
    check_wrapper_names(binding, "")  # a build from before the names were recorded: nothing to compare
    with pytest.raises(RuntimeError) as exc:
        check_wrapper_names(binding, "clock=aclk,reset=aresetn,reset_active_low=0,axi=rd_,stream=o_")
    assert str(exc.value) == (
        "the fast-path wrapper took the reader's reset_active_low 0 (the binding: 1): declare them in the build's "
        "fastpath: entry"
    )


def test_stream_sidebands_are_captured_above_tuser(tmp_path):

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
