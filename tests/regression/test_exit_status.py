"""The flow's exit statuses reach the caller of make (docs/regressions.md, "Exit statuses"): make itself exits 2
whenever a recipe fails, so ``dlaverif/flow/make_status.sh`` runs make and exits with the status the flow chose, 0 / 1 /
2 / 3 / 130. And every input is checked before anything runs: a bad testplan (``TESTPLAN=``), ``REPORT=``,
``HISTORY=``, a make variable of ``make mutants`` or ``make report``, a corrupt durations file: one line, exit 2,
nothing written. Each case runs make from a shell as CI would, on fake run folders (no simulator)."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dlaverif.flow import formal, mutants, runner
from dlaverif.flow.regression import execute
from tests import plancopy
from tests.regression.test_faults import KEYS, MAKE_ERROR, _job_record, _manifest

WRAPPER = runner.ROOT / "dlaverif" / "flow" / "make_status.sh"
#: the selection variables a developer may have exported: each test names its own
SELECTION = ("SUITE", "SEEDS", "SEED_LIST", "TESTS", "RUN", "SHARD", "TESTCASE", "TESTPLAN", "CONFIG_SEED")


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SELECTION}
    return {**env, "PYTHONPATH": str(runner.ROOT), **extra}


def _make(*args: str, wrapper: bool = True, **extra: str) -> subprocess.CompletedProcess:
    """``make -s <args>`` in the checkout (through the wrapper unless ``wrapper`` is False), as a shell runs it."""
    cmd = [str(WRAPPER)] if wrapper else ["make"]
    return subprocess.run(
        [*cmd, "-s", "--no-print-directory", *args],
        cwd=runner.ROOT,
        env=_env(**extra),
        capture_output=True,
        text=True,
        timeout=600,
    )


def _own_lines(stderr: str) -> list[str]:
    """The lines the flow printed, without make's own ``make: *** ... Error N`` line."""
    return [ln for ln in stderr.splitlines() if not MAKE_ERROR.match(ln)]


def _tree(folder: Path) -> list[Path] | None:
    """Everything below ``folder`` (None: it does not exist): what a refused command must leave as it was."""
    return sorted(folder.rglob("*")) if folder.is_dir() else None


def _regressions() -> list[Path]:
    return sorted(execute.REGRESS.iterdir()) if execute.REGRESS.is_dir() else []


def _fake_run(folder: Path, statuses: list[str]) -> Path:
    """A run folder of the smoke suite whose jobs ended with ``statuses`` (KEYS of test_faults)."""
    reg = folder / "reg"
    _manifest(reg, KEYS[: len(statuses)], "1/1")
    for key, status in zip(KEYS, statuses):
        _job_record(reg, key, status)
    return reg


# ------------------------------------------------------------------------------------------- exit statuses
def test_a_report_that_passed_is_0_and_one_with_a_failed_job_is_1_through_the_wrapper_and_2_from_make(tmp_path):
    ok = _fake_run(tmp_path / "ok", ["pass", "pass"])
    p = _make("report", f"INPUTS={ok}", f"REPORT={tmp_path / 'ok-report'}", "HISTORY=none")
    assert p.returncode == 0, p.stderr
    bad = _fake_run(tmp_path / "bad", ["pass", "fail"])
    p = _make("report", f"INPUTS={bad}", f"REPORT={tmp_path / 'bad-report'}", "HISTORY=none")
    assert p.returncode == 1, p.stderr
    assert "**1 passed, 1 failed**" in p.stdout
    # make alone: every failed recipe is 2, so "a test failed" looks like "bad input" (why the wrapper exists)
    p = _make("report", f"INPUTS={bad}", f"REPORT={tmp_path / 'bad-report2'}", "HISTORY=none", wrapper=False)
    assert p.returncode == 2
    assert [ln.rsplit(" ", 2)[-2:] for ln in p.stderr.splitlines() if MAKE_ERROR.match(ln)] == [["Error", "1"]]


@pytest.mark.parametrize("target", ["regress", "sim", "report"])
def test_a_bad_make_variable_is_2_through_the_wrapper(tmp_path, target):
    before = _regressions()
    p = _make(target, "SIM=nosim" if target != "report" else f"INPUTS={tmp_path / 'nosuch'}")
    assert p.returncode == 2, p.stderr
    assert len(_own_lines(p.stderr)) == 1, p.stderr
    assert _regressions() == before


def test_a_run_folder_in_use_is_3_through_the_wrapper(tmp_path):
    reg = _fake_run(tmp_path, ["pass"])
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"from dlaverif.flow.regression import runfolder\nfrom pathlib import Path\nimport time\n"
            f"with runfolder.RunLock(Path({str(reg)!r})):\n print('locked', flush=True)\n time.sleep(120)",
        ],
        cwd=runner.ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        p = _make("regress", f"RESUME={reg}", f"REPORT={tmp_path / 'report'}", "HISTORY=none")
    finally:
        holder.kill()
        holder.wait()
    assert p.returncode == 3, p.stderr
    assert _own_lines(p.stderr) == [
        ln for ln in _own_lines(p.stderr) if ln.startswith(f"regress: refused: {reg} is in use by a running regression")
    ]
    assert not (tmp_path / "report").exists()


def test_an_interrupt_is_130_through_the_wrapper(tmp_path):
    """Ctrl-C (SIGINT to the process group) while ``make report`` reads its input: a manifest that is a FIFO, so
    the report is blocked in its read when the interrupt comes (no race with the flow's start)."""
    reg = tmp_path / "reg"
    reg.mkdir()
    fifo = reg / "manifest.json"
    os.mkfifo(fifo)
    p = subprocess.Popen(
        [str(WRAPPER), "-s", "--no-print-directory", "report", f"INPUTS={reg}", f"REPORT={tmp_path / 'report'}"],
        cwd=runner.ROOT,
        env=_env(HISTORY="none"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    writer = None
    try:
        deadline = time.monotonic() + 120
        while writer is None:  # a non-blocking open for writing succeeds once the report has the FIFO open to read
            try:
                writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                assert exc.errno == errno.ENXIO and time.monotonic() < deadline and p.poll() is None, exc
                time.sleep(0.1)
        time.sleep(0.5)  # the reader is now blocked in read(): no data, and the write end stays open
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=120)
    finally:
        if writer is not None:
            os.close(writer)
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130, (out, err)
    assert "regress: interrupted; no report written, the previous one is unchanged" in err
    assert not (tmp_path / "report").exists()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["reg"]  # the report's temporary folder is gone too


# ------------------------------------------------------------------------------ every input checked first
PLAN_TYPO = "suites.nightly.reseed: unknown key; allowed: count, reseeds, runs (did you mean 'reseeds'?)"


@pytest.mark.parametrize(
    "target", ["sim", "regress", "report", "mutants", "formal CONFIG=cube_reader@narrow_addr_wide_bus"]
)
def test_a_bad_testplan_is_one_line_exit_2_and_nothing_written(tmp_path, target):
    text = plancopy.top_text()  # the top plan, importing the blocks' plans from where they are
    assert text.count("    reseeds: 20") == 1
    plan = tmp_path / "plan.yaml"
    plan.write_text(text.replace("    reseeds: 20", "    reseed: 20"))
    line = text.splitlines().index(next(t for t in text.splitlines() if t.startswith("    reseeds: 20"))) + 1
    before = _regressions()
    extra = [f"INPUTS={_fake_run(tmp_path / 'run', ['pass'])}"] if target == "report" else []
    p = _make(*target.split(), *extra, f"TESTPLAN={plan}", f"REPORT={tmp_path / 'report'}", "HISTORY=none")
    assert p.returncode == 2, p.stdout + p.stderr
    assert _own_lines(p.stderr) == [f"{plan}:{line}: {PLAN_TYPO}"]
    assert not (tmp_path / "sim_build").exists() and not (tmp_path / "report").exists()  # the plan's project
    assert _regressions() == before


@pytest.mark.parametrize(
    "var, value, line",
    [
        ("REPORT", "{file}", "regress: REPORT={file}: exists and is not a folder"),
        ("REPORT", "{file}/report", "regress: REPORT={file}/report: cannot be created: {file} is not a folder"),
        ("REPORT", "/proc/1/report", "regress: REPORT=/proc/1/report: cannot be written: /proc/1: "),
        ("HISTORY", "{file}", "regress: HISTORY={file}: exists and is not a folder"),
    ],
)
def test_a_report_or_history_folder_that_cannot_be_written_is_refused_before_the_run(tmp_path, var, value, line):
    """Once found only after every job had run, as a traceback, the run left "running since"."""
    file = tmp_path / "a-file"
    file.write_text("mine\n")
    value, line = value.format(file=file), line.format(file=file)
    before = _regressions()
    others = {"REPORT": str(tmp_path / "report"), "HISTORY": str(tmp_path / "history")}
    p = _make("regress", "SUITE=smoke", "RUN=axi_rd_engine/directed", "SEEDS=1", **{**others, var: value})
    assert p.returncode == 2, p.stdout + p.stderr
    lines = _own_lines(p.stderr)
    assert len(lines) == 1 and lines[0].startswith(line), p.stderr
    assert p.stdout == ""
    assert sorted(x.name for x in tmp_path.iterdir()) == ["a-file"] and file.read_text() == "mine\n"
    assert _regressions() == before


def test_make_report_checks_its_report_folder_before_merging(tmp_path):
    reg = _fake_run(tmp_path / "run", ["pass"])
    file = tmp_path / "a-file"
    file.write_text("mine\n")
    p = _make("report", f"INPUTS={reg}", f"REPORT={file}/report", "HISTORY=none")
    assert p.returncode == 2
    assert _own_lines(p.stderr) == [f"regress: REPORT={file}/report: cannot be created: {file} is not a folder"]
    assert sorted(x.name for x in tmp_path.iterdir()) == ["a-file", "run"]


@pytest.mark.parametrize(
    "var, value, line",
    [
        ("SEED", "abc", "make mutants: SEED=abc: expected a whole number >= 0"),
        ("COUNT", "0", "make mutants: COUNT=0: expected a whole number >= 1"),
        ("MUTANT_JOBS", "x", "make mutants: MUTANT_JOBS=x: expected a whole number 1..512"),
        ("SIM", "nosim", "make mutants: SIM=nosim: expected verilator, icarus or a comma-separated list of them"),
        ("WAVES", "2", "make mutants: WAVES=2: expected 0 or 1"),
        ("CONFIG_SEED", "-3", "make mutants: CONFIG_SEED=-3: expected a whole number >= 0"),
    ],
)
def test_make_mutants_checks_its_variables_first(tmp_path, var, value, line):
    """Once: a traceback (int() of SEED at argument parsing), or SIM taken unchecked. Its outputs go to a folder of
    the test's own (``SIM_BUILD=``), so that another worker's mutants cannot change what is compared."""
    out = tmp_path / "sim_build"
    p = _make("mutants", SIM_BUILD=str(out), **{var: value})
    assert p.returncode == 2, p.stdout + p.stderr
    assert _own_lines(p.stderr) == [line]
    assert _tree(out / mutants.OUT_ROOT.name) is None


@pytest.mark.parametrize(
    "args, line",
    [
        (["MUTANT=nosuch"], "make formal: unknown mutant(s) ['nosuch']"),
        (["CONFIG=cube_reader@nosuch"], "make formal: no configuration 'cube_reader@nosuch' in blocks/plan.yaml"),
    ],
)
def test_make_formal_refuses_an_unknown_mutant_or_configuration_with_one_line_and_writes_nothing(tmp_path, args, line):
    """An unknown mutant was argparse's usage and error lines, after the output folder had been made. Its outputs go
    to a folder of the test's own (``SIM_BUILD=``): another worker's formal runs write into the checkout's."""
    out = tmp_path / "sim_build"
    p = _make("formal", *args, SIM_BUILD=str(out))
    assert p.returncode == 2, p.stdout + p.stderr
    lines = _own_lines(p.stderr)
    assert len(lines) == 1 and lines[0].startswith(line), p.stderr
    assert _tree(out / formal.OUT.name) is None


def test_a_corrupt_durations_file_is_refused_with_one_line_naming_it(tmp_path):
    """The shards of a regression split the jobs by it, on every machine alike: a corrupt one is refused, not
    ignored (dlaverif/flow/regression/jobs.py load_durations). The repository's file is left alone: the run is pointed
    at a corrupt copy."""
    bad = tmp_path / "durations.json"
    bad.write_text('{"verilator:a:b": {"wall_s": ')
    script = (
        "import sys\nfrom pathlib import Path\nfrom dlaverif.flow.regression import jobs, __main__ as m\n"
        f"jobs.load_durations.__defaults__ = (Path({str(bad)!r}),)\nsys.exit(m.main(sys.argv[1:]))"
    )
    before = _regressions()
    p = subprocess.run(
        [sys.executable, "-c", script, "run", "--suite=smoke", "--seeds=1", "--runs=axi_rd_engine/directed"],
        cwd=runner.ROOT,
        env=_env(REPORT=str(tmp_path / "report"), HISTORY="none"),
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stderr.splitlines() == [
        f"regress: {bad}: not a durations file (JSONDecodeError: Expecting value: line 1 column 30 (char 29)); "
        "restore it from git or copy a report's durations.json over it"
    ]
    assert sorted(x.name for x in tmp_path.iterdir()) == ["durations.json"]
    assert _regressions() == before
