"""The fast path's testbench wrapper, generated from a build's ``fastpath:`` plan entry (``builds.<name>.fastpath``).

Any reader with an AXI4 read master, an AXI4-Stream output and an AXI4-Lite register slave gets the fast path
(:mod:`dlaverif.fastpath.harness`) by declaring it in its plan: which ports are which (prefixes), the bus and
stream widths and the TUSER width. :func:`render` writes the wrapper module ``<dut>_fastpath``: the reader (the build's
``toplevel``, with the build's ``parameters`` passed through as the wrapper's own parameters), ``hdl_axi_mem`` on its
AXI4 read port, ``hdl_stream_capture`` on its stream, the clock generated in the HDL and the testbench controls the
harness drives (``tb_load``, ``tb_dump``, ``tb_inflight``, ``tb_cycle``, ``tb_data_w``, ``tb_addr_w``).
:func:`dlaverif.flow.runner.build` writes it into the build folder and compiles it as the HDL top.

The reader's ports are connected by name (``.*``): every port of the reader other than the clock, the reset (both
named in the entry), the AXI4 read master, the stream and the AXI4-Lite slave must be absent, or be declared by
nobody and left out of the fast path (use the default path for such a reader). Width fields are whole numbers or
the name of one of the build's parameters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Union

from dlaverif.fastpath import HDL_SOURCES, MEM_BYTES, OUT_DEPTH
from dlaverif.flow.planschema import Fields, Scalar

__all__ = ["HDL_SOURCES", "SCHEMA", "FastPath", "from_plan", "render", "top_name", "write"]

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_WIDTH = Scalar("any", pattern=rf"[1-9][0-9]*|{_IDENT}", means="a whole number or a parameter name")
_PORT = Scalar("str", pattern=_IDENT, means="a port name")
_PREFIX = Scalar("str", pattern=rf"{_IDENT}_", means="a port prefix ending in _")
#: ``builds.<name>.fastpath``: checked with the plan (dlaverif.flow.planschema)
SCHEMA = Fields(
    {
        "axi": _PREFIX,  # the AXI4 read master's prefix (m_axi_)
        "stream": _PREFIX,  # the AXI4-Stream output's prefix (m_axis_)
        "control": _PREFIX,  # the AXI4-Lite register slave's prefix (s_axil_)
        "control_addr_width": _WIDTH,  # its address width (8)
        "irq": _PORT,  # the reader's interrupt output (irq)
        "clock": _PORT,  # the reader's clock input (clk)
        "reset": _PORT,  # the reader's active-high reset input (rst)
        "data_width": _WIDTH,  # the AXI4 data width in bits
        "addr_width": _WIDTH,  # the AXI4 address width
        "id_width": _WIDTH,  # the AXI4 ID width
        "stream_bytes": _WIDTH,  # the stream's TDATA bytes (TKEEP bits)
        "tuser_width": _WIDTH,  # the stream's TUSER width (at most 64 bits are captured)
    },
    required=("data_width", "addr_width", "id_width", "stream_bytes", "tuser_width"),
)

Width = Union[int, str]


@dataclass(frozen=True)
class FastPath:
    """A build's fast-path declaration (the plan's ``fastpath:`` entry, defaults filled in)."""

    data_width: Width
    addr_width: Width
    id_width: Width
    stream_bytes: Width
    tuser_width: Width
    axi: str = "m_axi_"
    stream: str = "m_axis_"
    control: str = "s_axil_"
    control_addr_width: Width = 8
    irq: str = "irq"
    clock: str = "clk"
    reset: str = "rst"


def from_plan(where: str, raw: object, parameters: Mapping[str, object]) -> FastPath:
    """The declaration of ``raw`` (the plan's reader checked its keys and forms against :data:`SCHEMA`); ValueError
    (one line) for anything else, or a width naming no parameter of the build."""
    if not isinstance(raw, dict) or set(raw) - set(SCHEMA.keys) or set(SCHEMA.required) - set(raw):
        raise ValueError(f"{where}: a map of {', '.join(SCHEMA.keys)} with at least {', '.join(SCHEMA.required)}")
    for key, value in raw.items():
        pattern = _WIDTH.pattern if key.endswith("width") or key == "stream_bytes" else _PORT.pattern
        if isinstance(value, bool) or not re.fullmatch(
            pattern if key not in ("axi", "stream", "control") else _PREFIX.pattern, str(value)
        ):
            raise ValueError(f"{where}.{key}: not {value!r}")
        if pattern == _WIDTH.pattern and isinstance(value, str) and not value.isdigit() and value not in parameters:
            raise ValueError(f"{where}.{key}: {value} is none of the build's parameters ({', '.join(parameters)})")
    return FastPath(**raw)


def top_name(dut: str) -> str:
    """The wrapper module's name (the build's HDL top) for the reader module ``dut``."""
    return f"{dut}_fastpath"


def _sv(value: object) -> str:
    if isinstance(value, bool):
        return "1'b1" if value else "1'b0"
    if isinstance(value, (int, float)):
        return str(value)
    text = str(value)
    return text if re.fullmatch(r"[0-9]+|[0-9]*'[sS]?[bodhBODH][0-9a-fA-FxXzZ_]+", text) else f'"{text}"'


def render(dut: str, parameters: Mapping[str, object], fp: FastPath) -> str:
    """The wrapper's SystemVerilog text."""
    a, s, c = fp.axi, fp.stream, fp.control
    params = "".join(f"  parameter {k} = {_sv(v)},\n" for k, v in parameters.items())
    passed = ", ".join(f".{k}({k})" for k in parameters)
    reset = "" if fp.reset == "rst" else f", .{fp.reset}(rst)"
    clock = "" if fp.clock == "clk" else f", .{fp.clock}(clk)"
    slave_outs = ("awready", "wready", "bresp", "bvalid", "arready", "rdata", "rresp", "rvalid")
    copy = ", ".join(f"{c}{n}" for n in slave_outs)
    return f"""// {top_name(dut)}: the fast path's testbench wrapper around {dut}, made by dlaverif/flow/fastpath.py
// from the build's fastpath: plan entry (do not edit). hdl_axi_mem on {a}*, hdl_stream_capture on {s}*, the clock
// generated here; the AXI4-Lite slave's outputs copied at the falling edge; tb_*: dlaverif/fastpath/harness.py.
`timescale 1ns / 1ps
module {top_name(dut)} #(
{params}  parameter int FP_DATA_W = {fp.data_width},
  parameter int FP_ADDR_W = {fp.addr_width},
  parameter int FP_ID_W = {fp.id_width},
  parameter int FP_OUT_BYTES = {fp.stream_bytes},
  parameter int FP_TUSER_W = {fp.tuser_width},
  parameter int FP_CTRL_AW = {fp.control_addr_width},
  parameter int MEM_WORDS = {MEM_BYTES} / (FP_DATA_W / 8),
  parameter int OUT_DEPTH = {OUT_DEPTH}
) (
  output logic        clk,
  input  logic        rst,
  input  logic [FP_CTRL_AW-1:0] {c}awaddr,
  input  logic [2:0]  {c}awprot,
  input  logic        {c}awvalid,
  output logic        {c}awready,
  input  logic [31:0] {c}wdata,
  input  logic [3:0]  {c}wstrb,
  input  logic        {c}wvalid,
  output logic        {c}wready,
  output logic [1:0]  {c}bresp,
  output logic        {c}bvalid,
  input  logic        {c}bready,
  input  logic [FP_CTRL_AW-1:0] {c}araddr,
  input  logic [2:0]  {c}arprot,
  input  logic        {c}arvalid,
  output logic        {c}arready,
  output logic [31:0] {c}rdata,
  output logic [1:0]  {c}rresp,
  output logic        {c}rvalid,
  input  logic        {c}rready,
  output logic        {fp.irq},
  input  logic        tb_load,
  input  logic        tb_dump,
  output logic [31:0] tb_inflight,
  output logic [39:0] tb_cycle,
  output logic [15:0] tb_data_w,
  output logic [7:0]  tb_addr_w
);
  assign tb_data_w = 16'(FP_DATA_W);
  assign tb_addr_w = 8'(FP_ADDR_W);
  logic [FP_ID_W-1:0]      {a}arid, {a}rid;
  logic [FP_ADDR_W-1:0]    {a}araddr;
  logic [7:0]              {a}arlen;
  logic [2:0]              {a}arsize, {a}arprot;
  logic [1:0]              {a}arburst, {a}rresp;
  logic                    {a}arlock, {a}arvalid, {a}arready, {a}rlast, {a}rvalid, {a}rready;
  logic [3:0]              {a}arcache;
  logic [FP_DATA_W-1:0]    {a}rdata;
  logic [FP_OUT_BYTES*8-1:0] {s}tdata;
  logic [FP_OUT_BYTES-1:0] {s}tkeep;
  logic                    {s}tlast, {s}tvalid, {s}tready;
  logic [FP_TUSER_W-1:0]   {s}tuser;

  // the clock is generated here, not by cocotb (a GPI timer callback per edge was most of Verilator's time)
  initial clk = 1'b0;
  always #5 clk = ~clk;

  initial tb_cycle = 40'd0;
  always @(posedge clk) tb_cycle <= tb_cycle + 40'd1;

  // The slave's outputs reach cocotb copied at the falling edge: at and after each rising edge the master samples
  // what the slave drove before it, on both simulators (Verilator calls cocotb back after the edge's nonblocking
  // updates when the clock is generated in the HDL), and a VALID rises between edges, where cocotbext-axi expects it.
  logic        dut_awready, dut_wready, dut_bvalid, dut_arready, dut_rvalid;
  logic [1:0]  dut_bresp, dut_rresp;
  logic [31:0] dut_rdata;
  always @(negedge clk)
    {{{copy}}} <= {{dut_awready, dut_wready, dut_bresp, dut_bvalid, dut_arready, dut_rdata, dut_rresp, dut_rvalid}};

  {dut} #({passed}) dut (.*{clock}{reset},
    .{c}awready(dut_awready), .{c}wready(dut_wready), .{c}bresp(dut_bresp), .{c}bvalid(dut_bvalid),
    .{c}arready(dut_arready), .{c}rdata(dut_rdata), .{c}rresp(dut_rresp), .{c}rvalid(dut_rvalid));

  hdl_axi_mem #(.DW(FP_DATA_W), .AW(FP_ADDR_W), .IDW(FP_ID_W), .WORDS(MEM_WORDS)) u_mem (
    .clk, .rst, .load_tgl(tb_load), .dump_tgl(tb_dump), .cyc(tb_cycle),
    .arid({a}arid), .araddr({a}araddr), .arlen({a}arlen), .arsize({a}arsize),
    .arburst({a}arburst), .arvalid({a}arvalid), .arready({a}arready),
    .rid({a}rid), .rdata({a}rdata), .rresp({a}rresp), .rlast({a}rlast), .rvalid({a}rvalid),
    .rready({a}rready), .inflight(tb_inflight)
  );

  hdl_stream_capture #(.DATA_BYTES(FP_OUT_BYTES), .DEPTH(OUT_DEPTH)) u_out (
    .clk, .rst, .load_tgl(tb_load), .dump_tgl(tb_dump), .cyc(tb_cycle),
    .tdata({s}tdata), .tkeep({s}tkeep), .tlast({s}tlast), .tuser(64'({s}tuser)),
    .tvalid({s}tvalid), .tready({s}tready)
  );
endmodule
"""


def write(folder: Path, dut: str, parameters: Mapping[str, object], fp: FastPath) -> Path:
    """Write the wrapper into ``folder`` (only when its text changed, so that a build stays up to date)."""
    path = Path(folder) / f"{top_name(dut)}.sv"
    text = render(dut, parameters, fp)
    if not path.is_file() or path.read_text() != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return path
