"""What ``make lint`` lints with Verilator: one line of ``verilator --lint-only -Wall`` arguments per target, with
the coverage flags the regression builds with (``runner.VERILATOR_COVERAGE_ARGS``).

- every module of blocks/rtl/ as a top with the first per-top list that compiles it (:func:`filelists.lint_plan`),
  without and with its assertions bound (``DLA_ASSERT``, the property list ``blocks/rtl/props/props.f``);
- every testplan build that names its own file list (RTL we did not write): its toplevel with that list, the
  build's defines, include folders and lint waivers, and its property list with ``DLA_ASSERT`` unless it binds
  none. A file of such a list is not linted as a module of its own: the build names its top. A build whose RTL is
  not found here (``NVDLA_HW``) is left out, with the one line saying how to get it
  (:func:`dlaverif.thirdparty.skipped`);
- every file of ``blocks/rtl/props/`` (the bound property modules and the formal tops, which no ``<top>.f`` names)
  as a top of its own, with ``--assert``, over every module of ours and the property folder (``-y``).

``python -m dlaverif.flow.lintplan`` prints the lines, each shell-quoted (``make lint`` evaluates them one by one).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from dlaverif import thirdparty
from dlaverif.flow import filelists, runner, testplan
from dlaverif.flow.buildopts import BuildOptions
from dlaverif.flow.planschema import exit_status

# with the coverage flags of the regression's builds, which warn about branches a parameter makes constant
COMMON = ["--lint-only", "-Wall", "--timing", *runner.VERILATOR_COVERAGE_ARGS]


def _args(top: str, design: filelists.FileList, props: filelists.FileList | None, opts: BuildOptions) -> list[str]:
    out = [*COMMON, *opts.waiver_args()]
    defines = {**design.defines, **opts.defines}
    incdirs = [*design.incdirs, *opts.include_dirs]
    sources = list(design.sources)
    if props is not None:
        out.append("--assert")
        defines[filelists.ASSERT_DEFINE] = "1"
        incdirs += props.incdirs
        sources += props.sources
    out += [f"+define+{k}={v}" for k, v in defines.items()]
    out += [f"+incdir+{d}" for d in incdirs]
    out += design.compile_args("verilator")
    return out + [str(p) for p in sources] + ["--top-module", top]


def _ours(rtl: Path) -> list[list[str]]:
    plist = rtl / filelists.PROPS_DIR / filelists.PROPS_LIST
    props = filelists.parse(plist)
    props.incdirs.append(plist.parent)
    out = []
    for flist, module in filelists.lint_plan(rtl):
        design = filelists.parse(rtl / flist)
        out += [_args(module, design, None, BuildOptions()), _args(module, design, props, BuildOptions())]
    return out


def _props_tops(rtl: Path) -> list[list[str]]:
    design = filelists.compiled(rtl)
    pdir = rtl / filelists.PROPS_DIR
    head = [*COMMON, "--assert", *(f"+incdir+{d}" for d in design.incdirs), *map(str, design.sources), "-y", str(pdir)]
    return [[*head, str(f), "--top-module", f.stem] for f in sorted(pdir.glob("*.sv"))]


def _builds(plan: testplan.Plan) -> list[list[str]]:
    out = []
    for b in plan.builds.values():
        if b.options.filelist is None:
            continue  # one of ours: linted module by module above
        if b.missing is not None:  # third-party RTL not found: skipped, said in one line, the rest is linted
            print(f"lint: {thirdparty.skipped(b.name, b.missing)}", file=sys.stderr)
            continue
        design, props = runner.design_files(b.toplevel, b.options)
        out.append(_args(b.toplevel, design, None, b.options))
        if props is not None:
            out.append(_args(b.toplevel, design, props, b.options))
    return out


def targets(plan: testplan.Plan | None = None, rtl: Path = runner.RTL) -> list[list[str]]:
    """Every lint invocation's arguments, each once, ours first."""
    found = _ours(rtl) + _props_tops(rtl) + _builds(plan or testplan.load())
    return list({tuple(a): a for a in found}.values())


def main() -> int:
    """Print every lint invocation's arguments, one line each (make lint runs them)."""
    for args in targets():
        print(shlex.join(args))
    return 0


if __name__ == "__main__":
    sys.exit(exit_status("make lint", main))
