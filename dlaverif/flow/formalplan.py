"""The property sets of ``make formal`` as plan data: a plan's ``formal:`` section, one self-contained entry per set.

A set names what it proves and how (docs/formal.md, "Declaring a property set"):

* the design: ``top`` (a module of the project RTL, ``blocks/rtl/``, compiled from ``design``: its file names, or
  every file of every list) or ``build`` (a build of the plan: its top, its file list and its parameters; any
  project's RTL);
* ``parameters``: the top's overrides for this set (over the build's);
* ``properties``: property lists (``.f``) or files compiled beside the design (paths from the project's root), e.g.
  the property modules a design binds under ``DLA_ASSERT`` and a formal top of its own;
* ``bind``: the package's AXI4 read-master property set (dlaverif/hdl/props/axi4_read_master_props.sv) attached to
  the design's AR/R ports by port prefix, either as a map (``prefix``, ``clock``, ``reset``, ``reset_active``,
  ``parameters``: what the master declares, ``ids``: its ARID/RID ports are connected) or as the path of the
  binding file the build's simulations already use (its ```AXI4_READ_MASTER_BIND(...)`` or
  ```AXI4_READ_MASTER_BIND_ID(...)`` line, dlaverif/hdl/props/axi4_read_master_bind.svh, read here: the one
  declaration; a define in its parameters takes the build's value); ``bind_parameters`` overrides some of the
  binding's parameters for the proof (e.g. a smaller ``TRACK``, a tractable table); ``assume`` (SystemVerilog
  conditions over the design's ``inputs``, each given with its width: made inputs of the generated top) keeps the
  free inputs within the design's contract (e.g. no descriptor of 0 bytes). Yosys 0.23 drops ``bind``, so the
  flow proves such a set on a small generated top (:func:`wrapper`) that instantiates the design and the property
  set side by side, every other input free;
* ``depth`` (``make formal``) and ``quick_depth`` (``make formal-quick``) of the BMC, ``induction`` (k of a
  k-induction after the BMC; 0 or absent: BMC only), ``cover`` (every ``PROP_COVER`` must be reached at full depth);
* ``cut`` (instances replaced by free values), ``unchecked`` (property modules whose checks are left out, each with
  its reason: the waivers), ``mutants_of`` (name prefixes of the files whose mutants a whole-design set is run
  against by ``make formal MUTANT=``), ``kills`` (the mutants ``make formal-mutants`` runs against it, each of
  which must make it FAIL; ``<mutant>@<configuration>``: at that configuration of its top), ``what`` (one line:
  what it proves).

This module knows nothing of the tools (dlaverif.flow.formal runs the sets) nor of the rest of the plan
(dlaverif.flow.testplan reads the section with :data:`SCHEMA` and calls :func:`proof`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Optional

from dlaverif.flow.planschema import Either, Fields, Names, Ref, Scalar, Seq

_NAMES = Either((Scalar("str"), Seq(Scalar("str"))))
BIND_SCHEMA = Either(
    (
        Scalar("str", means="the path of a binding file (its AXI4_READ_MASTER_BIND line)"),
        Fields(
            {
                "prefix": Scalar("str"),
                "clock": Scalar("str"),
                "reset": Scalar("str"),
                "reset_active": Scalar("int", (0, 1)),
                "parameters": Names(Scalar("any")),
                "ids": Scalar("bool"),
            },
            required=("prefix", "clock", "reset", "reset_active"),
        ),
    )
)
#: one entry of ``formal:`` (the section is a map from the set's name to this)
SCHEMA = Fields(
    {
        "top": Scalar("str"),
        "build": Ref("builds", "build"),
        "design": Seq(Scalar("str")),
        "parameters": Names(Scalar("int")),
        "properties": _NAMES,
        "bind": BIND_SCHEMA,
        "bind_parameters": Names(Scalar("any")),
        "inputs": Names(Scalar("int")),
        "assume": Seq(Scalar("str")),
        "depth": Scalar("int"),
        "quick_depth": Scalar("int"),
        "induction": Scalar("int"),
        "cover": Scalar("bool"),
        "cut": Seq(Scalar("str")),
        "unchecked": Names(Scalar("str")),
        "mutants_of": Seq(Scalar("str")),
        "kills": Seq(Scalar("str", pattern=r"\w+(@\w+)?", means="a mutant's name, or <mutant>@<configuration>")),
        "what": Scalar("str"),
    },
    required=("depth", "quick_depth", "what"),
    one_of=("top", "build"),
)


@dataclass(frozen=True)
class Binding:
    """axi4_read_master_props attached by port prefix to ``top``'s AR/R ports (axi4_read_master_bind.svh's
    arguments): ``reset_active`` the level at which ``reset`` resets, ``params`` the property set's overrides as
    SystemVerilog text (what the master declares: widths, ALIGNED, MAX_OUTSTANDING, MAX_BURST, ...), ``ids`` whether
    the master's ARID and RID are connected (AXI4_READ_MASTER_BIND_ID; ID_W their width) or taken as 0."""

    top: str
    prefix: str
    clock: str
    reset: str
    reset_active: int
    params: dict[str, str] = field(default_factory=dict)
    source: str = ""  # the binding file it was read from ("": the plan)
    ids: bool = False

    def width(self, name: str, default: int) -> int:
        """A width parameter of the property set (ADDR_W, DATA_W, ID_W) as a number, for the generated top's wires."""
        text = self.params.get(name)
        if text is None:
            return default
        m = re.fullmatch(r"\s*(?:\d+\s*'\s*[sS]?[dD]\s*)?(\d+)\s*", text)
        if m is None:
            raise ValueError(f"bind: {name} = {text!r} is not a decimal number (the generated top's wires need it)")
        return int(m.group(1))


@dataclass(frozen=True)
class Proof:
    """One property set, as its ``formal:`` entry declares it (the module docstring; docs/formal.md).

    The top is a design module whenever the design binds its own properties (a project's property modules
    instantiated in its RTL under ``DLA_ASSERT``, reset assumed in the first cycle by ``PROP_FORMAL_RESET``), so what
    is proved is what every simulation checks; a ``formal_<name>`` top among the set's ``properties`` where a block
    needs reduced parameters and free inputs it cannot get as the top; a generated top around a design that does not
    bind the read-master set itself (``bind``)."""

    name: str
    top: str  # the design's top module (with ``bind``: the module the generated top instantiates)
    design: tuple[str, ...] = ()  # project RTL file names (compile order is kept); () = every file of every list
    params: dict[str, int] = field(default_factory=dict)
    depth: int = 10  # `make formal`
    quick_depth: int = 8  # `make formal-quick`
    prove: int = 0  # k of a k-induction run after the BMC (0: BMC only); needs depth >= k (the base case)
    what: str = ""
    kills: tuple[str, ...] = ()  # the mutants make formal-mutants runs against it, each must FAIL it (name, or
    # name@<configuration of its top>: at that configuration)
    owns: tuple[str, ...] = ()  # for a whole-design set (design = ()): name prefixes of the files whose mutants it
    # is run against (the block's own files)
    cut: tuple[str, ...] = ()  # instances (`<module>/<instance>`) replaced by free values (Yosys cutpoint): their
    # outputs become free inputs of the rest, every cycle, so a deeper part is reached sooner
    unchecked: tuple[str, ...] = ()  # property modules whose checks are removed (they watch a cut instance)
    waivers: dict[str, str] = field(default_factory=dict)  # unchecked module -> why
    cover: bool = False  # full depth: every PROP_COVER must be reached too (yosys-smtbmc -c), or the set FAILs
    properties: tuple[Path, ...] = ()  # property lists / files compiled beside the design
    build: Optional[str] = None  # the plan build whose RTL it proves (None: the project RTL, blocks/rtl/)
    filelist: Optional[Path] = None  # that build's file list (None: the top's own list in blocks/rtl/)
    defines: dict[str, str] = field(default_factory=dict)  # that build's defines
    include_dirs: tuple[Path, ...] = ()  # that build's include folders
    bind: Optional[Binding] = None  # the read-master property set attached by port prefix
    inputs: dict[str, int] = field(default_factory=dict)  # design inputs the assumptions read -> width (bind only)
    assume: tuple[str, ...] = ()  # conditions on them, assumed every cycle on the generated top (bind only)

    @property
    def model_top(self) -> str:
        """The module Yosys elaborates: the design's top, or the generated top around it (``bind``)."""
        return "dla_formal_" + re.sub(r"\W", "_", self.name) if self.bind is not None else self.top


def _text(v: object) -> str:
    """A parameter value of the plan as SystemVerilog text (``true``/``false`` as 1'b1/1'b0)."""
    if isinstance(v, bool):
        return "1'b1" if v else "1'b0"
    return str(v)


#: ```AXI4_READ_MASTER_BIND(TOP, PREFIX, CLK, RST, RST_ACTIVE, (PARAMS))`` of a binding file (``_ID``: with IDs)
_BIND_CALL = re.compile(r"`AXI4_READ_MASTER_BIND(_ID)?\s*\(")


def _split_args(text: str) -> list[str]:
    """A macro call's arguments (``text`` after its opening parenthesis), split at top-level commas."""
    args: list[str] = []
    depth, cur = 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return [*args, cur.strip()]
            depth -= 1
        if ch == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += ch
    raise ValueError("unclosed `AXI4_READ_MASTER_BIND(")


#: a define's default in a binding file: ```ifndef NAME`` directly followed by ```define NAME value``
_DEFAULT_DEFINE = re.compile(r"`ifndef\s+(\w+)\s*\n\s*`define\s+\1[ \t]+([^\n]+)")


def binding_file(path: Path, defines: Mapping[str, object] = {}) -> Binding:
    """The binding a file declares with ```AXI4_READ_MASTER_BIND`` or ```AXI4_READ_MASTER_BIND_ID``
    (axi4_read_master_bind.svh): exactly one call, outside comments; a ```NAME`` in its parameters is replaced by
    ``defines[NAME]`` (the build's defines, which its simulations compile it with), or, when the build does not give
    it, by the file's own default (```ifndef NAME`` then ```define NAME value``, what the simulations compile then).
    ValueError names the file otherwise, and a define neither gives."""
    if not path.is_file():
        raise ValueError(f"bind: {path} does not exist")
    code = re.sub(r"/\*.*?\*/", "", re.sub(r"//[^\n]*", "", path.read_text()), flags=re.S)
    calls = list(_BIND_CALL.finditer(code))
    if len(calls) != 1:
        raise ValueError(f"bind: {path} has {len(calls)} `AXI4_READ_MASTER_BIND lines (one is needed)")
    try:
        args = _split_args(code[calls[0].end() :])
    except ValueError as exc:
        raise ValueError(f"bind: {path}: {exc}") from None
    if len(args) != 6:
        raise ValueError(f"bind: {path}: `AXI4_READ_MASTER_BIND takes 6 arguments, not {len(args)}")
    top, prefix, clock, reset, active, params = args
    level = {"1'b1": 1, "1": 1, "1'b0": 0, "0": 0}.get(active.replace(" ", ""))
    if level is None:
        raise ValueError(f"bind: {path}: reset level {active!r} is not 1'b0 or 1'b1")
    pairs = {k: v.strip() for k, v in re.findall(r"\.(\w+)\s*\(([^()]*)\)", params)}
    own = dict(_DEFAULT_DEFINE.findall(code))
    for k, v in pairs.items():
        for name in re.findall(r"`(\w+)", v):
            value = defines.get(name, own.get(name))
            if value is None:
                raise ValueError(f"bind: {path}: {k} uses `{name}, which neither the build nor the file defines")
            v = v.replace(f"`{name}", str(value).strip())
        pairs[k] = v
    return Binding(top, prefix, clock, reset, level, pairs, str(path), calls[0].group(1) is not None)


def _binding(name: str, top: str, raw: object, root: Path, defines: Mapping[str, str], over: Mapping) -> Binding:
    """The set's binding (a file or the plan's map) with ``over`` (``bind_parameters``) replacing its parameters."""
    if isinstance(raw, str):
        b = binding_file(root / raw, defines)
        if b.top != top:
            raise ValueError(f"formal.{name}.bind: {raw} binds {b.top}, not the set's top {top}")
    else:
        assert isinstance(raw, dict)  # the schema allows a path or this map
        params = {str(k): _text(v) for k, v in (raw.get("parameters") or {}).items()}
        reset, level, ids = str(raw["reset"]), int(raw["reset_active"]), bool(raw.get("ids", False))
        b = Binding(top, str(raw["prefix"]), str(raw["clock"]), reset, level, params, ids=ids)
    return dataclasses.replace(b, params={**b.params, **{str(k): _text(v) for k, v in over.items()}})


def _names(v: object) -> tuple[str, ...]:
    """One name or a list of them (the schema's ``_NAMES``)."""
    return (v,) if isinstance(v, str) else tuple(str(x) for x in v or ())  # type: ignore[attr-defined]


def proof(name: str, raw: Mapping, root: Path, builds: Mapping[str, object]) -> Proof:
    """The :class:`Proof` of the entry ``formal.<name>`` (checked against :data:`SCHEMA`); ``root``: where its
    paths start (the project's root); ``builds``: the plan's builds (``PlannedBuild``: toplevel, parameters,
    options.filelist, options.defines). ValueError, one line, on what the schema cannot say: both ``top`` and
    ``build``, a top that is not the build's, a ``design`` beside a ``build``, a quick depth above the depth, an
    induction deeper than the BMC, a property file that does not exist."""
    where = f"formal.{name}"
    if "top" in raw and "build" in raw:
        raise ValueError(f"{where}: top or build, not both (a build names its top)")
    params: dict[str, int] = {}
    filelist = None
    defines: dict[str, str] = {}
    incdirs: tuple[Path, ...] = ()
    build = raw.get("build")
    if build is not None:
        b = builds[build]
        top = str(b.toplevel)  # type: ignore[attr-defined]
        params.update(b.parameters)  # type: ignore[attr-defined]
        filelist = b.options.filelist  # type: ignore[attr-defined]
        defines = dict(b.options.defines)  # type: ignore[attr-defined]
        incdirs = tuple(b.options.include_dirs)  # type: ignore[attr-defined]
        if raw.get("design"):
            raise ValueError(f"{where}.design: a build's set compiles the build's file list")
    else:
        top = str(raw["top"])
    params.update({str(k): int(v) for k, v in (raw.get("parameters") or {}).items()})
    depth, quick, k = int(raw["depth"]), int(raw["quick_depth"]), int(raw.get("induction") or 0)
    if not 0 < quick <= depth:
        raise ValueError(f"{where}: quick_depth {quick} must be 1..depth ({depth})")
    if not 0 <= k <= depth:
        raise ValueError(f"{where}.induction: {k} must be 0 (BMC only) up to the depth {depth} (the base case)")
    props = tuple(root / p for p in _names(raw.get("properties")))
    missing = [str(p) for p in props if not p.is_file()]
    if missing:
        raise ValueError(f"{where}.properties: {missing[0]} does not exist")
    over = raw.get("bind_parameters") or {}
    for key in ("bind_parameters", "inputs", "assume"):
        if raw.get(key) and raw.get("bind") is None:
            raise ValueError(f"{where}.{key}: only a set with bind has a generated top to apply it to")
    inputs = {str(k): int(v) for k, v in (raw.get("inputs") or {}).items()}
    if any(w < 1 for w in inputs.values()):
        raise ValueError(f"{where}.inputs: a width is 1 or more")
    waivers = {str(m): " ".join(str(why).split()) for m, why in (raw.get("unchecked") or {}).items()}
    if not all(waivers.values()):
        raise ValueError(f"{where}.unchecked: every module left unchecked needs its reason")
    return Proof(
        name=name,
        top=top,
        design=tuple(str(f) for f in raw.get("design") or ()),
        params=params,
        depth=depth,
        quick_depth=quick,
        prove=k,
        what=" ".join(str(raw["what"]).split()),
        owns=tuple(str(p) for p in raw.get("mutants_of") or ()),
        kills=tuple(str(k) for k in raw.get("kills") or ()),
        cut=tuple(str(c) for c in raw.get("cut") or ()),
        unchecked=tuple(waivers),
        waivers=waivers,
        cover=bool(raw.get("cover", False)),
        properties=props,
        build=None if build is None else str(build),
        filelist=filelist,
        defines=defines,
        include_dirs=incdirs,
        bind=None if raw.get("bind") is None else _binding(name, top, raw["bind"], root, defines, over),
        inputs=inputs,
        assume=tuple(str(a) for a in raw.get("assume") or ()),
    )


#: the AR and R ports the read-master property set watches: name after the prefix -> (direction from the design,
#: width: a number or the property set's width parameter)
AR_R_PORTS: dict[str, tuple[str, int | str]] = {
    "arvalid": ("out", 1),
    "arready": ("in", 1),
    "araddr": ("out", "ADDR_W"),
    "arlen": ("out", 8),
    "arsize": ("out", 3),
    "arburst": ("out", 2),
    "rvalid": ("in", 1),
    "rready": ("out", 1),
    "rdata": ("in", "DATA_W"),
    "rresp": ("in", 2),
    "rlast": ("in", 1),
}
#: axi4_read_master_props' own width defaults (dlaverif/hdl/props/axi4_read_master_props.sv)
PROPS_WIDTHS = {"ADDR_W": 16, "DATA_W": 64, "ID_W": 4}
#: the ID ports a binding with ``ids`` connects too (AXI4_READ_MASTER_BIND_ID), as :data:`AR_R_PORTS`
ID_PORTS: dict[str, tuple[str, int | str]] = {"arid": ("out", "ID_W"), "rid": ("in", "ID_W")}


def wrapper(p: Proof) -> str:
    """The generated top of a set with ``bind``: the design at the set's parameters and axi4_read_master_props as the
    binding declares it, side by side, connected by the binding's port names (what axi4_read_master_bind.svh
    connects: ARLOCK, ARCACHE, ARPROT taken as 0; ARID and RID too unless the binding has ``ids``, then connected
    at ID_W bits). Its inputs are the clock, the reset, the
    slave's side of the AR/R ports and the set's ``inputs`` (which its ``assume`` conditions constrain every cycle);
    every other input of the design is left unconnected, made a free value every cycle by the flow (``setundef
    -undriven -anyseq``). Reset is assumed in the first cycle (PROP_FORMAL_RESET's rule)."""
    b = p.bind
    assert b is not None
    widths = {n: b.width(n, d) for n, d in PROPS_WIDTHS.items()}

    def rng(w: int | str) -> str:
        n = widths[w] if isinstance(w, str) else w
        return f"[{n - 1}:0] " if n > 1 else ""

    watched = {**AR_R_PORTS, **(ID_PORTS if b.ids else {})}
    ins = [f"  input  logic {rng(w)}{b.prefix}{n}" for n, (d, w) in watched.items() if d == "in"]
    ins += [f"  input  logic {rng(w)}{n}" for n, w in p.inputs.items()]
    outs = [f"  logic {rng(w)}{b.prefix}{n};" for n, (d, w) in watched.items() if d == "out"]
    dut_params = ", ".join(f".{k} ({v})" for k, v in p.params.items())
    ports = [f".{b.clock} (clk)", f".{b.reset} ({b.reset})"] + [f".{b.prefix}{n} ({b.prefix}{n})" for n in watched]
    ports += [f".{n} ({n})" for n in p.inputs]
    conns = ",\n    ".join(ports)
    prop_params = ", ".join(f".{k} ({v})" for k, v in b.params.items())
    active = f"1'b{b.reset_active}"
    sig = {n: f"{b.prefix}{n}" if n in watched else "'0" for n in (*AR_R_PORTS, *ID_PORTS)}
    return f"""// generated by dlaverif.flow.formal for the property set {p.name}: {p.top} and the AXI4 read-master
// property set bound by port prefix{f" ({b.source})" if b.source else ""}; not a design file
module {p.model_top} (
  input  logic clk,
  input  logic {b.reset},
{("," + chr(10)).join(ins)}
);
  logic f_init;
  initial f_init = 1'b1;
  always @(posedge clk) begin
    f_init <= 1'b0;
    if (f_init) assume ({b.reset} == {active});
  end
{"".join(f"  always @* assume ({a});{chr(10)}" for a in p.assume)}{chr(10).join(outs)}
  {p.top} {"#(" + dut_params + ") " if dut_params else ""}dut (
    {conns}
  );
  axi4_read_master_props {"#(" + prop_params + ") " if prop_params else ""}u_axi4_read_master_props (
    .clk (clk), .rst ({b.reset} == {active}), .stop (1'b0), .job_done (1'b0),
    .arid ({sig["arid"]}), .araddr ({sig["araddr"]}), .arlen ({sig["arlen"]}), .arsize ({sig["arsize"]}),
    .arburst ({sig["arburst"]}), .arlock (1'b0), .arcache (4'b0), .arprot (3'b0),
    .arvalid ({sig["arvalid"]}), .arready ({sig["arready"]}), .rid ({sig["rid"]}), .rdata ({sig["rdata"]}),
    .rresp ({sig["rresp"]}), .rlast ({sig["rlast"]}), .rvalid ({sig["rvalid"]}), .rready ({sig["rready"]}),
    .n_flight (), .n_acc (), .ar_new (), .head_addr (), .head_len (), .head_beat (), .halted ()
  );
endmodule
"""
