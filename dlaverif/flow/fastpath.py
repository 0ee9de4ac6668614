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

Nothing the reader's own ports say has to be copied into the plan: at the build, :func:`complete` reads the reader's
ports at the build's parameters (:mod:`dlaverif.flow.ports`) and fills in what the entry leaves out (the bus, ID,
stream, TUSER and register-slave widths; the control side: a register slave when the reader has ``<control>awaddr``,
else ``none``; every other port as an input or output; every further stream output as a sideband), and refuses, in
one line, what it declares that the ports contradict. A minimal entry names only the prefixes, clock and reset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Optional, Union

from dlaverif.fastpath import HDL_SOURCES, MEM_BYTES, OUT_DEPTH
from dlaverif.flow.planschema import Fields, Names, Scalar
from dlaverif.flow.ports import Port

__all__ = ["HDL_SOURCES", "SCHEMA", "FastPath", "complete", "environment", "from_plan", "render", "top_name", "write"]

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
)
CAPTURED_USER_BITS = 64  # hdl_stream_capture's TUSER word

Width = Union[int, str]


@dataclass(frozen=True)
class FastPath:
    """A build's fast-path declaration (the plan's ``fastpath:`` entry, defaults filled in); None: not declared, taken
    from the reader's ports by :func:`complete` (the renderer needs every field)."""

    data_width: Optional[Width] = None
    addr_width: Optional[Width] = None
    id_width: Optional[Width] = None
    stream_bytes: Optional[Width] = None
    tuser_width: Optional[Width] = None
    axi: Optional[str] = None  # the read master's prefix (None: the prefix of the reader's one ``*araddr`` output)
    stream: Optional[str] = None  # the stream's prefix (None: the prefix of its one other ``*tdata`` output)
    control: Optional[str] = None  # a register slave's prefix, NO_SLAVE, or None: as the reader's ports say
    control_addr_width: Optional[Width] = None
    irq: str = "irq"
    clock: Optional[str] = None  # None: the reader's one clock input (clk, clock, aclk, ap_clk, clk_i, ...)
    reset: Optional[str] = None  # None: its one reset input (rst, reset, aresetn, rst_ni, ...)
    reset_active_low: Optional[bool] = None  # None: as the reset's name says (rst_n, rst_ni, aresetn, rst_b: low)
    inputs: tuple[tuple[str, Width], ...] = ()
    outputs: tuple[tuple[str, Width], ...] = ()
    sidebands: tuple[tuple[str, Width], ...] = ()

    @property
    def slave(self) -> bool:
        """The reader has an AXI4-Lite register slave."""
        return self.control != NO_SLAVE

    @property
    def prefix(self) -> str:
        """The register slave's port prefix (the default when not declared)."""
        return self.control if self.control not in (None, NO_SLAVE) else DEFAULT_SLAVE


DEFAULT_SLAVE = "s_axil_"
#: the environment variable that tells a simulation the wrapper's clock, reset, polarity and prefixes
PORTS_VAR = "FASTPATH_PORTS"
#: the fields :func:`complete` names from the ports when the entry does not
NAMED = ("axi", "stream", "clock", "reset", "reset_active_low")
#: the stream ports the capture takes; any other output of the stream's prefix is a sideband
STREAM_PORTS = ("tdata", "tkeep", "tlast", "tvalid", "tready", "tuser")
#: width field -> the port (after its prefix) that gives it, and its value when the reader has no such port
_WIDTH_PORTS: dict[str, tuple[str, str, Optional[int]]] = {
    "data_width": ("axi", "rdata", None),
    "addr_width": ("axi", "araddr", None),
    "id_width": ("axi", "arid", 1),
    "stream_bytes": ("stream", "tkeep", None),
    "tuser_width": ("stream", "tuser", 1),
}


def _resolve(width: Optional[Width], parameters: Mapping[str, object]) -> int:
    """A width as a number (a parameter's name: the build's value of it); ValueError for one not known yet."""
    if width is None:
        raise ValueError("a width the fast path has not been told: complete() it from the reader's ports")
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
    twice = sorted({p for p in ports if ports.count(p) > 1} | ({str(fp.clock), str(fp.reset)} & set(ports)))
    if twice:
        raise ValueError(f"{where}: {', '.join(twice)} declared twice (clock, reset, inputs, outputs)")
    _check_user_bits(where, fp, parameters)
    return fp


def _check_user_bits(where: str, fp: FastPath, parameters: Mapping[str, object]) -> None:
    """ValueError when TUSER and the sidebands are more than the capture's 64 bits."""
    try:
        bits = _resolve(fp.tuser_width or 0, parameters) + sum(_resolve(w, parameters) for _, w in fp.sidebands)
    except ValueError:
        bits = 0  # a parameter that is not a number: the compiler says so
    if bits > CAPTURED_USER_BITS:
        raise ValueError(f"{where}: TUSER and sidebands are {bits} bits; the capture keeps {CAPTURED_USER_BITS}")


def _agree(
    where: str, key: str, declared: tuple[tuple[str, Width], ...], found: list[Port], parameters: Mapping[str, object]
) -> tuple[tuple[str, Width], ...]:
    """``found`` as a port map (name -> width) when ``declared`` is empty; else ``declared``, when it names the same
    ports with the same widths (ValueError naming the first difference)."""
    actual = {p.name: p.width for p in found}
    if not declared:
        unknown = [n for n, w in actual.items() if w is None]
        if unknown:
            raise ValueError(f"{where}.{key}: the type of {unknown[0]} is not a plain vector: declare {key}")
        return tuple((n, int(w or 0)) for n, w in actual.items())
    names = [n for n, _ in declared]
    if set(names) != set(actual):
        extra, missing = sorted(set(names) - set(actual)), sorted(set(actual) - set(names))
        what = f"declares {', '.join(extra)}, which the reader has not" if extra else ""
        what += ("; " if what else "") + (f"leaves out {', '.join(missing)}" if missing else "")
        raise ValueError(f"{where}.{key}: {what} (the reader's {key}: {', '.join(actual) or 'none'})")
    for name, width in declared:
        bits = _resolve(width, parameters)
        if actual[name] is not None and actual[name] != bits:
            raise ValueError(
                f"{where}.{key}.{name}: declared {width} ({bits} bits), but the port is {actual[name]} bits"
            )
    return declared


_CLOCK = re.compile(r"(^|_)a?(clk|clock)(_i)?$", re.I)
_RESET = re.compile(r"(^|_)a?(rst|reset)(_?n|_b|_l)?(_?i)?$", re.I)
_ACTIVE_LOW = re.compile(r"(rst|reset)(_?n|_b|_l)(_?i)?$", re.I)


def active_low(reset: str) -> bool:
    """A reset whose name says it holds at 0: ``rst_n``, ``rst_ni``, ``aresetn``, ``ARESETn``, ``rst_b``, ``rst_l``."""
    return bool(_ACTIVE_LOW.search(reset))


def _only(where: str, key: str, names: list[str]) -> str:
    """The one name of ``names``; ValueError asking for ``key`` to be declared when there are none or several."""
    if len(names) != 1:
        found = ", ".join(names) or "none"
        raise ValueError(f"{where}: the reader's ports do not name one {key} ({found}): declare {key}")
    return names[0]


def _names(where: str, fp: FastPath, ports: list[Port]) -> dict[str, Any]:
    """The clock, reset, its polarity and the two prefixes: as declared, else as the ports name them."""
    ins = [p.name for p in ports if p.direction == "input" and p.width == 1]
    outs = [p.name for p in ports if p.direction == "output"]
    axi = fp.axi or _only(where, "axi", [n[: -len("araddr")] for n in outs if n.endswith("araddr")])
    stream = fp.stream or _only(
        where, "stream", [n[: -len("tdata")] for n in outs if n.endswith("tdata") and not n.startswith(axi)]
    )
    clock = fp.clock or _only(where, "clock", [n for n in ins if _CLOCK.search(n)])
    reset = fp.reset or _only(where, "reset", [n for n in ins if _RESET.search(n)])
    low = active_low(reset) if fp.reset_active_low is None else fp.reset_active_low
    return {"axi": axi, "stream": stream, "clock": clock, "reset": reset, "reset_active_low": low}


def complete(where: str, fp: FastPath, ports: list[Port], parameters: Mapping[str, object]) -> FastPath:
    """``fp`` with everything it leaves out taken from the reader's ``ports`` (at ``parameters``), after checking what
    it declares against them; ValueError (one line) on a contradiction, a port the wrapper needs that the reader has
    not, a name the ports leave open (two clocks, no reset), or an inout port."""
    by = {p.name: p for p in ports}
    inout = [p.name for p in ports if p.direction not in ("input", "output")]
    if inout:
        raise ValueError(f"{where}: the fast path drives no inout port ({', '.join(inout)})")
    fp = replace(fp, **_names(where, fp, ports))
    for port in (fp.clock, fp.reset):
        if port not in by:
            raise ValueError(f"{where}: the reader has no port {port} (clock, reset)")
    control = fp.control or (DEFAULT_SLAVE if f"{DEFAULT_SLAVE}awaddr" in by else NO_SLAVE)
    fields: dict[str, Any] = {"control": control}
    width_ports = dict(_WIDTH_PORTS)
    if control != NO_SLAVE:
        width_ports["control_addr_width"] = ("control", "awaddr", None)
    for key, (side, suffix, absent) in width_ports.items():
        port = f"{control if side == 'control' else getattr(fp, side)}{suffix}"
        declared = getattr(fp, key)
        found = by.get(port)
        actual = found.width if found is not None else absent
        if found is None and absent is None and declared is None:
            raise ValueError(f"{where}: the reader has no port {port} ({key})")
        if declared is None:
            if actual is None:
                raise ValueError(f"{where}.{key}: the type of {port} is not a plain vector: declare {key}")
            fields[key] = actual  # (TKEEP has a bit a byte: its width is stream_bytes)
        elif actual is not None:
            bits = _resolve(declared, parameters)
            if bits != actual:
                raise ValueError(f"{where}.{key}: declared {declared}, but {port} is {actual} bits")
    stream = str(fp.stream)
    claimed = {str(fp.clock), str(fp.reset)}
    prefixes = [str(fp.axi), stream] + ([control] if control != NO_SLAVE else [])
    if control != NO_SLAVE:
        claimed.add(fp.irq)
    rest = [p for p in ports if p.name not in claimed and not p.name.startswith(tuple(prefixes))]
    sidebands = [
        Port(p.name[len(stream) :], p.direction, p.width)
        for p in ports
        if p.name.startswith(stream) and p.direction == "output" and p.name[len(stream) :] not in STREAM_PORTS
    ]
    fields["inputs"] = _agree(where, "inputs", fp.inputs, [p for p in rest if p.direction == "input"], parameters)
    fields["outputs"] = _agree(where, "outputs", fp.outputs, [p for p in rest if p.direction == "output"], parameters)
    fields["sidebands"] = _agree(where, "sidebands", fp.sidebands, sidebands, parameters)
    done = replace(fp, **fields)
    _check_user_bits(where, done, parameters)
    return done


def environment(fp: FastPath, parameters: Mapping[str, object]) -> dict[str, str]:
    """What a simulation of the wrapper tells the harness (:class:`dlaverif.fastpath.harness.HdlHarness`): the
    resolved data and address widths, the layout of the captured TUSER word (``name:bits`` from bit 0) and the names
    of :data:`PORTS_VAR`; ``fp`` completed (:func:`complete`)."""
    _completed(fp)
    user = [("tuser", fp.tuser_width), *fp.sidebands]
    names = {"clock": fp.clock, "reset": fp.reset, "reset_active_low": int(bool(fp.reset_active_low))}
    names.update({"axi": fp.axi, "stream": fp.stream})
    return {
        "FASTPATH_DATA_W": str(_resolve(fp.data_width, parameters)),
        "FASTPATH_ADDR_W": str(_resolve(fp.addr_width, parameters)),
        "FASTPATH_USER": ",".join(f"{n}:{_resolve(w, parameters)}" for n, w in user),
        # what the wrapper took the reader's clock, reset and prefixes to be: the testbench checks them against its
        # binding (dlaverif.platform.backends.FastPathBackend), so that a name the ports were read wrong by is found
        PORTS_VAR: ",".join(f"{k}={v}" for k, v in names.items()),
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


def _completed(fp: FastPath) -> None:
    """ValueError unless every field the wrapper needs is known (:func:`complete` fills them from the ports)."""
    missing = [k for k in (*_WIDTH_PORTS, "control", *NAMED) if getattr(fp, k) is None]
    if fp.control not in (None, NO_SLAVE) and fp.control_addr_width is None:
        missing.append("control_addr_width")
    if missing:
        raise ValueError(f"the fast path is not complete ({', '.join(missing)}): complete() it from the reader's ports")


def render(dut: str, parameters: Mapping[str, object], fp: FastPath) -> str:
    """The wrapper's SystemVerilog text (``fp`` completed, :func:`complete`)."""
    _completed(fp)
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
