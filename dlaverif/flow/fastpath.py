"""The fast path's testbench wrapper, generated from a build's ``fastpath:`` plan entry (``builds.<name>.fastpath``).

Any reader with an AXI4 read master and an AXI4-Stream output gets the fast path (:mod:`dlaverif.fastpath.harness`) by
declaring it in its plan: which ports are which (prefixes), the bus and stream widths, the TUSER width, and how the
testbench reaches its control side. :func:`render` writes the wrapper module ``<dut>_fastpath``: the reader (the
build's ``toplevel``, with the build's ``parameters`` passed through as the wrapper's own parameters),
``hdl_axi_mem`` on its AXI4 read port, ``hdl_stream_capture`` on its stream, the clock generated in the HDL and the
testbench controls the harness drives (``tb_load``, ``tb_dump``, ``tb_inflight``, ``tb_cycle``, ``tb_data_w``,
``tb_addr_w``). :func:`dlaverif.flow.runner.build` writes it into the build folder and compiles it as the HDL top, and
gives the simulation :func:`environment` (the resolved widths the harness reads).

The control side is one of (or both):

* an AXI4-Lite register slave (``control``: its prefix, ``s_axil_`` by default; ``irq`` its interrupt output);
* named ports (``control: none`` for a reader without a register slave): ``inputs`` the testbench drives (a
  descriptor port's valid and payload fields, an enable), passed through; ``outputs`` it samples (a descriptor
  port's ready, a status port, a done pulse), copied at the falling edge like the slave's outputs. Each with its
  width.

The wrapper's clock and reset ports carry the reader's names (``clock``, ``reset``), so that one binding serves both
paths; ``reset_active_low`` declares the reset's polarity (the HDL memory and capture see it active-high). Stream
sidebands that return a job's fields (``sidebands``, e.g. ``{tid: 4, tdest: 4}``: ``<stream>tid``, ...) are captured
with TUSER on every transfer (TUSER in the low bits, then each sideband in the order given: 64 bits in all).

The reader's ports are connected by name (``.*``): every port of the reader must be the clock, the reset, the AXI4
read master, the stream, the AXI4-Lite slave or a declared input or output. Width fields are whole numbers or the
name of one of the build's parameters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Union

from dlaverif.fastpath import HDL_SOURCES, MEM_BYTES, OUT_DEPTH
from dlaverif.flow.planschema import Fields, Names, Scalar

__all__ = ["HDL_SOURCES", "SCHEMA", "FastPath", "environment", "from_plan", "render", "top_name", "write"]

_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_WIDTH = Scalar("any", pattern=rf"[1-9][0-9]*|{_IDENT}", means="a whole number or a parameter name")
_PORT = Scalar("str", pattern=_IDENT, means="a port name")
_PREFIX = Scalar("str", pattern=rf"{_IDENT}_", means="a port prefix ending in _")
_CONTROL = Scalar("str", pattern=rf"{_IDENT}_|none", means="a port prefix ending in _, or none")
NO_SLAVE = "none"  # ``control: none``: no AXI4-Lite register slave (the control side is ``inputs``/``outputs``)
_PORT_MAPS = ("inputs", "outputs", "sidebands")
#: ``builds.<name>.fastpath``: checked with the plan (dlaverif.flow.planschema)
SCHEMA = Fields(
    {
        "axi": _PREFIX,  # the AXI4 read master's prefix (m_axi_)
        "stream": _PREFIX,  # the AXI4-Stream output's prefix (m_axis_)
        "control": _CONTROL,  # the AXI4-Lite register slave's prefix (s_axil_), or none
        "control_addr_width": _WIDTH,  # its address width (8)
        "irq": _PORT,  # the reader's interrupt output (irq), with a register slave
        "clock": _PORT,  # the reader's clock input (clk)
        "reset": _PORT,  # the reader's synchronous reset input (rst)
        "reset_active_low": Scalar("bool"),  # the reset holds the reader in reset at 0 (false: at 1)
        "inputs": Names(_WIDTH),  # further inputs the testbench drives (port -> width): descriptor port, enable
        "outputs": Names(_WIDTH),  # further outputs it samples (port -> width): ready, status, done
        "sidebands": Names(_WIDTH),  # stream sidebands captured with TUSER (name after the prefix -> width)
        "data_width": _WIDTH,  # the AXI4 data width in bits
        "addr_width": _WIDTH,  # the AXI4 address width
        "id_width": _WIDTH,  # the AXI4 ID width
        "stream_bytes": _WIDTH,  # the stream's TDATA bytes (TKEEP bits)
        "tuser_width": _WIDTH,  # the stream's TUSER width (with the sidebands at most 64 bits are captured)
    },
    required=("data_width", "addr_width", "id_width", "stream_bytes", "tuser_width"),
)
CAPTURED_USER_BITS = 64  # hdl_stream_capture's TUSER word

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
    reset_active_low: bool = False
    inputs: tuple[tuple[str, Width], ...] = ()
    outputs: tuple[tuple[str, Width], ...] = ()
    sidebands: tuple[tuple[str, Width], ...] = ()

    @property
    def slave(self) -> bool:
        """The reader has an AXI4-Lite register slave."""
        return self.control != NO_SLAVE


def _resolve(width: Width, parameters: Mapping[str, object]) -> int:
    """A width as a number (a parameter's name: the build's value of it)."""
    value = parameters.get(width, width) if isinstance(width, str) else width
    return int(str(value))


def from_plan(where: str, raw: object, parameters: Mapping[str, object]) -> FastPath:
    """The declaration of ``raw`` (the plan's reader checked its keys and forms against :data:`SCHEMA`); ValueError
    (one line) for anything else, a width naming no parameter of the build, a port declared twice, ``irq`` or
    ``control_addr_width`` without a register slave, or more than 64 bits of TUSER and sidebands."""
    if not isinstance(raw, dict) or set(raw) - set(SCHEMA.keys) or set(SCHEMA.required) - set(raw):
        raise ValueError(f"{where}: a map of {', '.join(SCHEMA.keys)} with at least {', '.join(SCHEMA.required)}")
    widths: list[tuple[str, object]] = []
    for key, value in raw.items():
        if key in _PORT_MAPS:
            if not isinstance(value, dict) or not value:
                raise ValueError(f"{where}.{key}: a map of port name -> width, not {value!r}")
            for port, width in value.items():
                if not re.fullmatch(_IDENT, str(port)):
                    raise ValueError(f"{where}.{key}: {port!r} is not a port name")
                widths.append((f"{key}.{port}", width))
            continue
        if key == "reset_active_low":
            if not isinstance(value, bool):
                raise ValueError(f"{where}.{key}: true or false, not {value!r}")
            continue
        if key.endswith("width") or key == "stream_bytes":
            widths.append((key, value))
            continue
        pattern = {"axi": _PREFIX, "stream": _PREFIX, "control": _CONTROL}.get(key, _PORT).pattern
        if isinstance(value, bool) or not re.fullmatch(pattern, str(value)):
            raise ValueError(f"{where}.{key}: not {value!r}")
    for key, value in widths:
        if isinstance(value, bool) or not re.fullmatch(_WIDTH.pattern, str(value)):
            raise ValueError(f"{where}.{key}: not {value!r} (a whole number or a parameter name)")
        if isinstance(value, str) and not value.isdigit() and value not in parameters:
            raise ValueError(f"{where}.{key}: {value} is none of the build's parameters ({', '.join(parameters)})")
    fields: dict[str, Any] = {k: v for k, v in raw.items() if k not in _PORT_MAPS}
    fields.update({k: tuple((str(p), w) for p, w in raw.get(k, {}).items()) for k in _PORT_MAPS})
    fp = FastPath(**fields)  # the forms were checked above
    if not fp.slave and ({"irq", "control_addr_width"} & set(raw)):
        raise ValueError(f"{where}: irq and control_addr_width belong to a register slave, and control is none")
    ports = [p for p, _ in fp.inputs + fp.outputs]
    twice = sorted({p for p in ports if ports.count(p) > 1} | ({fp.clock, fp.reset} & set(ports)))
    if twice:
        raise ValueError(f"{where}: {', '.join(twice)} declared twice (clock, reset, inputs, outputs)")
    try:
        bits = _resolve(fp.tuser_width, parameters) + sum(_resolve(w, parameters) for _, w in fp.sidebands)
    except ValueError:
        bits = 0  # a parameter that is not a number: the compiler says so
    if bits > CAPTURED_USER_BITS:
        raise ValueError(f"{where}: TUSER and sidebands are {bits} bits; the capture keeps {CAPTURED_USER_BITS}")
    return fp


def environment(fp: FastPath, parameters: Mapping[str, object]) -> dict[str, str]:
    """What a simulation of the wrapper tells the harness (:class:`dlaverif.fastpath.harness.HdlHarness`): the
    resolved data and address widths and the layout of the captured TUSER word (``name:bits`` from bit 0)."""
    user = [("tuser", fp.tuser_width), *fp.sidebands]
    return {
        "FASTPATH_DATA_W": str(_resolve(fp.data_width, parameters)),
        "FASTPATH_ADDR_W": str(_resolve(fp.addr_width, parameters)),
        "FASTPATH_USER": ",".join(f"{n}:{_resolve(w, parameters)}" for n, w in user),
    }


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


def _range(width: Width) -> str:
    """A port declaration's packed range, padded as the wrapper's fixed ports are (none for one bit)."""
    return f"{'':6}" if str(width) == "1" else f"[{width}-1:0]"


def _ports(fp: FastPath) -> str:
    """The declared inputs and outputs as the wrapper's own ports."""
    ins = "".join(f"  input  logic {_range(w)} {p},\n" for p, w in fp.inputs)
    return ins + "".join(f"  output logic {_range(w)} {p},\n" for p, w in fp.outputs)


def _slave_ports(fp: FastPath) -> str:
    c = fp.control
    return f"""  input  logic [FP_CTRL_AW-1:0] {c}awaddr,
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
"""


def _slave_copy(fp: FastPath) -> str:
    c = fp.control
    slave_outs = ("awready", "wready", "bresp", "bvalid", "arready", "rdata", "rresp", "rvalid")
    copy = ", ".join(f"{c}{n}" for n in slave_outs)
    return f"""
  // The slave's outputs reach cocotb copied at the falling edge: at and after each rising edge the master samples
  // what the slave drove before it, on both simulators (Verilator calls cocotb back after the edge's nonblocking
  // updates when the clock is generated in the HDL), and a VALID rises between edges, where cocotbext-axi expects it.
  logic        dut_awready, dut_wready, dut_bvalid, dut_arready, dut_rvalid;
  logic [1:0]  dut_bresp, dut_rresp;
  logic [31:0] dut_rdata;
  always @(negedge clk)
    {{{copy}}} <= {{dut_awready, dut_wready, dut_bresp, dut_bvalid, dut_arready, dut_rdata, dut_rresp, dut_rvalid}};
"""


def _outputs_copy(fp: FastPath) -> str:
    if not fp.outputs:
        return ""
    decls = "".join(f"  logic {_range(w)} dut_{p};\n" for p, w in fp.outputs)
    ports = ", ".join(p for p, _ in fp.outputs)
    duts = ", ".join(f"dut_{p}" for p, _ in fp.outputs)
    return f"""
  // The control side's outputs reach cocotb copied at the falling edge: at each rising edge the testbench sees what
  // the reader drove before it (Verilator calls cocotb back after the edge's nonblocking updates when the clock is
  // generated in the HDL), as the default path sees them.
{decls}  always @(negedge clk)
    {{{ports}}} <= {{{duts}}};
"""


def render(dut: str, parameters: Mapping[str, object], fp: FastPath) -> str:
    """The wrapper's SystemVerilog text."""
    a, s, c = fp.axi, fp.stream, fp.control
    params = "".join(f"  parameter {k} = {_sv(v)},\n" for k, v in parameters.items())
    passed = ", ".join(f".{k}({k})" for k in parameters)
    own_rst = fp.reset == "rst" and fp.reset_active_low  # the reader's reset is called rst but is active-low
    # an active-low reset reaches the reader by name (.*), an active-high one of another name as rst
    reset = "" if fp.reset == "rst" or fp.reset_active_low else f", .{fp.reset}(rst)"
    clock = "" if fp.clock == "clk" else f", .{fp.clock}(clk)"
    rst = "fp_rst" if own_rst else "rst"  # the HDL memory's and capture's active-high reset
    mem_rst = ".rst" if rst == "rst" else f".rst({rst})"
    glue = "" if fp.clock == "clk" else f"  logic clk;\n  assign {fp.clock} = clk;\n"
    if fp.reset_active_low:
        glue += f"  logic {rst};\n  assign {rst} = !{fp.reset};\n"
    elif fp.reset != "rst":
        glue += f"  logic rst;\n  assign rst = {fp.reset};\n"
    copies = (_slave_copy(fp) if fp.slave else "") + _outputs_copy(fp)
    outs = "".join(f",\n    .{p}(dut_{p})" for p, _ in fp.outputs)
    slave_outs = (
        f""",
    .{c}awready(dut_awready), .{c}wready(dut_wready), .{c}bresp(dut_bresp), .{c}bvalid(dut_bvalid),
    .{c}arready(dut_arready), .{c}rdata(dut_rdata), .{c}rresp(dut_rresp), .{c}rvalid(dut_rvalid)"""
        if fp.slave
        else ""
    )
    user_bits = "".join(f"{s}{n}, " for n, _ in reversed(fp.sidebands))
    user = f"64'({{{user_bits}{s}tuser}})" if fp.sidebands else f"64'({s}tuser)"
    sidebands = "".join(f"  logic {_range(w)} {s}{n};\n" for n, w in fp.sidebands)
    what = "the AXI4-Lite slave's outputs" if fp.slave else "the control side's outputs"
    ctrl_aw = f"  parameter int FP_CTRL_AW = {fp.control_addr_width},\n" if fp.slave else ""
    clock_port = f"  output logic        {fp.clock},\n  input  logic        {fp.reset},\n"
    return f"""// {top_name(dut)}: the fast path's testbench wrapper around {dut}, made by dlaverif/flow/fastpath.py
// from the build's fastpath: plan entry (do not edit). hdl_axi_mem on {a}*, hdl_stream_capture on {s}*, the clock
// generated here; {what} copied at the falling edge; tb_*: dlaverif/fastpath/harness.py.
`timescale 1ns / 1ps
module {top_name(dut)} #(
{params}  parameter int FP_DATA_W = {fp.data_width},
  parameter int FP_ADDR_W = {fp.addr_width},
  parameter int FP_ID_W = {fp.id_width},
  parameter int FP_OUT_BYTES = {fp.stream_bytes},
  parameter int FP_TUSER_W = {fp.tuser_width},
{ctrl_aw}  parameter int MEM_WORDS = {MEM_BYTES} / (FP_DATA_W / 8),
  parameter int OUT_DEPTH = {OUT_DEPTH}
) (
{clock_port}{_slave_ports(fp) if fp.slave else ""}{_ports(fp)}  input  logic        tb_load,
  input  logic        tb_dump,
  output logic [31:0] tb_inflight,
  output logic [39:0] tb_cycle,
  output logic [15:0] tb_data_w,
  output logic [7:0]  tb_addr_w
);
  assign tb_data_w = 16'(FP_DATA_W);
  assign tb_addr_w = 8'(FP_ADDR_W);
{glue}  logic [FP_ID_W-1:0]      {a}arid, {a}rid;
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
{sidebands}
  // the clock is generated here, not by cocotb (a GPI timer callback per edge was most of Verilator's time)
  initial clk = 1'b0;
  always #5 clk = ~clk;

  initial tb_cycle = 40'd0;
  always @(posedge clk) tb_cycle <= tb_cycle + 40'd1;
{copies}
  {dut} #({passed}) dut (.*{clock}{reset}{slave_outs}{outs});

  hdl_axi_mem #(.DW(FP_DATA_W), .AW(FP_ADDR_W), .IDW(FP_ID_W), .WORDS(MEM_WORDS)) u_mem (
    .clk, {mem_rst}, .load_tgl(tb_load), .dump_tgl(tb_dump), .cyc(tb_cycle),
    .arid({a}arid), .araddr({a}araddr), .arlen({a}arlen), .arsize({a}arsize),
    .arburst({a}arburst), .arvalid({a}arvalid), .arready({a}arready),
    .rid({a}rid), .rdata({a}rdata), .rresp({a}rresp), .rlast({a}rlast), .rvalid({a}rvalid),
    .rready({a}rready), .inflight(tb_inflight)
  );

  hdl_stream_capture #(.DATA_BYTES(FP_OUT_BYTES), .DEPTH(OUT_DEPTH)) u_out (
    .clk, {mem_rst}, .load_tgl(tb_load), .dump_tgl(tb_dump), .cyc(tb_cycle),
    .tdata({s}tdata), .tkeep({s}tkeep), .tlast({s}tlast), .tuser({user}),
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
