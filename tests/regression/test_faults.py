"""What goes wrong on a farm, done for real on small fake jobs (no simulator): a job that kills itself with a signal,
one that stops itself (SIGSTOP) under a small timeout with a child of its own, an interrupt while jobs run, a lock
left by a killed run, a full file system under the report (a real tmpfs), Slurm shards that never ran, and every
bad make variable. Each asserts the status, the files and what the report says."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dlaverif import executor
from dlaverif.flow import filelists, runner
from dlaverif.flow.regression import execute, jobs, publish, runfolder
from dlaverif.flow.regression.__main__ import make_report
from dlaverif.flow.regression.jobs import Duration, Job, load_durations

JOB = Job("verilator", "axi_rd_engine/directed", "stop_drains", 3, "8")


def _fake(script: str) -> list[str]:
    """A job process that runs ``script`` (Python) instead of a simulation."""
    return [sys.executable, "-c", script]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"


# ----------------------------------------------------------------------------- a job ends, whatever happens
def test_a_job_killed_by_a_signal_is_crashed_with_the_signal_and_the_end_of_its_log(tmp_path):
    script = "import os, signal\nfor i in range(30): print('line', i, flush=True)\nos.kill(os.getpid(), signal.SIGKILL)"
    rec = execute.run_job(tmp_path, JOB, "smoke", False, timeout_s=60, command=_fake(script))
    assert rec["status"] == "crashed" and rec["signal"] == 9
    assert rec["first_error"] == "crashed (signal 9, SIGKILL): the job process was killed"
    assert rec["log_tail"] == [f"line {i}" for i in range(20, 30)]
    on_disk = json.loads((tmp_path / JOB.folder() / "job.json").read_text())
    assert on_disk["status"] == "crashed" and on_disk["signal"] == 9 and on_disk["log_tail"][-1] == "line 29"


def test_a_simulator_killed_by_a_signal_is_crashed_too(tmp_path):
    # what the job process does when cocotb reports "Command failed with return code: -11" (execute._child_job)
    script = f"open({str(tmp_path / JOB.folder() / 'signal.txt')!r}, 'w').write('11')\nraise SystemExit(139)"
    rec = execute.run_job(tmp_path, JOB, "smoke", False, timeout_s=60, command=_fake(script))
    assert (rec["status"], rec["signal"]) == ("crashed", 11)
    assert rec["first_error"] == "crashed (signal 11, SIGSEGV): the simulator was killed"


def test_a_stopped_job_times_out_and_its_whole_process_group_is_killed(tmp_path):
    pidfile = tmp_path / "grandchild.pid"
    script = (
        "import os, signal, subprocess\n"
        f"p = subprocess.Popen(['sleep', '300']); open({str(pidfile)!r}, 'w').write(str(p.pid))\n"
        "print('about to stop', flush=True)\nos.kill(os.getpid(), signal.SIGSTOP)"
    )
    t0 = time.monotonic()
    rec = execute.run_job(tmp_path, JOB, "smoke", False, timeout_s=2.0, command=_fake(script))
    took = time.monotonic() - t0
    assert rec["status"] == "timeout"
    assert rec["first_error"] == "timeout: still running after 2s (JOB_TIMEOUT), process group killed"
    assert rec["log_tail"] == ["about to stop"]
    assert 2.0 <= took < 2.0 + executor.KILL_GRACE_S + 3  # SIGTERM reaches a stopped process only with SIGCONT
    grandchild, end = int(pidfile.read_text()), time.monotonic() + 5
    while _alive(grandchild) and time.monotonic() < end:  # SIGKILL was sent; its delivery is asynchronous
        time.sleep(0.05)
    assert not _alive(grandchild)  # the job's child (the "simulator", a 300 s sleep) is gone too


def test_statuses_pass_fail_and_error_come_from_the_results_file(tmp_path):
    ok = '<testsuites><testsuite><testcase name="stop_drains" time="1" sim_time_ns="5"/></testsuite></testsuites>'
    bad = (
        '<testsuites><testsuite><testcase name="stop_drains" time="1" sim_time_ns="5">'
        '<failure message="MISMATCH beat 3&#10;more"/></testcase></testsuite></testsuites>'
    )
    results = {}
    for name, xml in (("pass", ok), ("fail", bad), ("error", None)):
        folder = tmp_path / name / JOB.folder()
        write = f"open({str(folder / 'results.xml')!r}, 'w').write({xml!r})" if xml else "print('Traceback: boom')"
        results[name] = execute.run_job(tmp_path / name, JOB, "smoke", False, timeout_s=60, command=_fake(write))
    assert results["pass"]["status"] == "pass" and results["pass"]["first_error"] == ""
    assert results["fail"]["status"] == "fail" and results["fail"]["first_error"] == "MISMATCH beat 3"
    assert results["error"]["status"] == "error"
    assert results["error"]["first_error"] == "no test ran: Traceback: boom"


def test_an_interrupt_stops_running_jobs_and_leaves_nothing_of_them(tmp_path):
    ex = executor.Executor()
    threading.Timer(1.0, ex.stop).start()
    t0 = time.monotonic()
    rec = execute.run_job(
        tmp_path, JOB, "smoke", False, timeout_s=60, executor=ex, command=_fake("import time; time.sleep(60)")
    )
    assert time.monotonic() - t0 < 10
    assert rec["status"] == "not run"
    assert not (tmp_path / JOB.folder()).exists()  # no partial coverage or job.json of an interrupted job
    later = execute.run_job(tmp_path, JOB, "smoke", False, timeout_s=60, executor=ex, command=_fake("pass"))
    assert later["status"] == "not run" and later["first_error"] == "interrupted before it started"


def test_the_default_timeout_is_generous_and_derived_from_the_recorded_duration():
    durations = {
        "verilator:r:long": Duration(235.7, 8),
        "verilator:r:short": Duration(2.0, 8),
        "verilator:r:mid": Duration(20.0, 8),
    }
    job = Job("verilator", "r", "long", 1, "8")
    assert execute.default_timeout(job, durations) == pytest.approx(2357.0)  # 10 x its recorded length
    assert execute.default_timeout(Job("verilator", "r", "short", 1, "8"), durations) == 600.0  # the floor
    assert execute.default_timeout(Job("icarus", "r", "long", 1, "8"), durations) == pytest.approx(9428.0)  # x4 x10
    assert execute.default_timeout(Job("verilator", "r", "new", 1, "8"), durations) == 800.0  # median 20 x4 x10


def test_the_default_timeout_scales_with_the_jobs_count_over_the_recorded_one():
    durations = {"verilator:r:long": Duration(235.7, 8), "verilator:r:old": Duration(235.7)}
    at = {c: execute.default_timeout(Job("verilator", "r", "long", 1, c), durations) for c in ("80", "4", "8")}
    assert at["80"] == pytest.approx(23570.0)  # ten times the items: ten times the expected length
    assert at["4"] == at["8"] == pytest.approx(2357.0)  # fewer items: never below the recorded length
    assert execute.default_timeout(Job("icarus", "r", "long", 1, "80"), durations) == pytest.approx(94280.0)
    # an entry of the file's older form (a plain number, no COUNT): taken as it is
    assert execute.default_timeout(Job("verilator", "r", "old", 1, "80"), durations) == pytest.approx(2357.0)


@pytest.mark.sim
def test_a_report_records_the_count_its_durations_were_measured_at(tiny_regression, tmp_path):
    # the durations.json a real regression's report wrote (copy it to blocks/ to use it)
    written = json.loads((tiny_regression / "report" / "durations.json").read_text())
    records = [json.loads(f.read_text()) for f in (tiny_regression / "reg" / "runs").rglob("job.json")]
    steps = {k: e for k, e in written.items() if jobs.is_step(k)}
    written = {k: e for k, e in written.items() if not jobs.is_step(k)}
    assert set(written) == {f"{r['sim']}:{r['run']}:{r['test']}" for r in records}
    assert {e["count"] for e in written.values()} == {8}  # the smoke suite's COUNT, on every job of the tiny run
    # the steps, measured too: each build the run compiled (its builds/walls.json) and each step of the report
    walls = json.loads((tiny_regression / "reg" / execute.BUILD_WALLS).read_text())
    assert sorted(walls) == ["verilator/axi_rd_engine", "verilator/cube_reader"]
    builds = {k: e for k, e in steps.items() if k.startswith("build:")}
    assert builds == {f"build:{k.replace('/', ':')}": {"wall_s": round(w, 1)} for k, w in walls.items()}
    assert {"report:merge", "report:write-info", "report:genhtml"} <= set(steps)
    assert steps["report:merge"]["count"] == len(records)  # one merge of every job's coverage.dat
    (tmp_path / "durations.json").write_text(json.dumps(written))
    loaded = load_durations(tmp_path / "durations.json")
    key = "verilator:axi_rd_engine/directed:stop_drains"
    walls = sorted(r["wall_s"] for r in records if f"{r['sim']}:{r['run']}:{r['test']}" == key)
    assert loaded[key] == Duration(round((walls[0] + walls[1]) / 2, 1), 8)  # the median of its two seeds
    for count, factor in (("8", 1), ("800", 100)):
        job = Job("verilator", "axi_rd_engine/directed", "stop_drains", 1, count)
        expected = max(jobs.TIMEOUT_FLOOR_S, jobs.TIMEOUT_FACTOR * loaded[key].wall_s * factor)
        assert execute.default_timeout(job, loaded) == pytest.approx(expected)


# ----------------------------------------------------------------------------- runs that cannot collide
def test_a_second_process_is_refused_a_locked_run_folder_and_a_killed_holder_leaves_no_stale_lock(tmp_path):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"from dlaverif.flow.regression import runfolder\nfrom pathlib import Path\nimport time\n"
            f"with runfolder.RunLock(Path({str(tmp_path)!r})):\n print('locked', flush=True)\n time.sleep(120)",
        ],
        cwd=runner.ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(runner.ROOT)},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(runfolder.Busy, match=rf'in use by a running regression \(.*"pid": {holder.pid}'):
            runfolder.RunLock(tmp_path).__enter__()
    finally:
        holder.kill()
        holder.wait()
    with runfolder.RunLock(tmp_path):  # the kernel dropped the killed holder's lock
        pass


def test_run_folders_are_new_every_time_and_latest_moves_atomically(tmp_path):
    name = runfolder.new_name("smoke", ["verilator"], (1, 1), when=0)
    assert name.endswith("-smoke-verilator") and len(name.split("-")[0]) == 8
    assert runfolder.new_name("smoke", ["verilator", "icarus"], (2, 3), when=0).endswith("-verilator-icarus-shard2of3")
    a, b = runfolder.create(tmp_path, "x"), runfolder.create(tmp_path, "x")
    assert (a.name, b.name) == ("x", "x.2")
    runfolder.point_latest(tmp_path, a)
    runfolder.point_latest(tmp_path, b)
    assert (tmp_path / "latest").resolve() == b.resolve() and os.readlink(tmp_path / "latest") == "x.2"


def test_two_runs_finishing_together_publish_one_after_the_other(tmp_path):
    report = tmp_path / "report"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from dlaverif.flow.regression import runfolder\nfrom pathlib import Path\nimport time\n"
            f"with runfolder.publishing(Path({str(report)!r})):\n print('held', flush=True)\n time.sleep(3)\n"
            "print('released', flush=True)",
        ],
        cwd=runner.ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(runner.ROOT)},
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        t0 = time.monotonic()
        with runfolder.publishing(report):  # waits for the other run's report and latest
            waited = time.monotonic() - t0
            assert holder.stdout.readline().strip() == "released"
    finally:
        holder.kill()
        holder.wait()
    assert waited > 1.0


# ----------------------------------------------------------------------------- incomplete runs and Slurm shards
def _job_record(reg: Path, key: str, status: str) -> None:
    sim, rest = key.split(":", 1)
    run, test, seed = rest.rsplit(":", 2)
    job = Job(sim, run, test, int(seed), "8")
    folder = reg / job.folder()
    folder.mkdir(parents=True)
    (folder / "sim.log").write_text("log\n")
    rec = {
        **job.to_dict(),
        "key": key,
        "status": status,
        "first_error": "" if status == "pass" else f"{status}: why",
        "log": str((folder / "sim.log").relative_to(reg)),
        "rerun": "make sim ...",
        "wall_s": 1.0,
        "sim_time_ns": 1.0,
        "tests": [],
    }
    (folder / "job.json").write_text(json.dumps(rec))


KEYS = [f"verilator:axi_rd_engine/directed:{t}:{s}" for t in ("stop_drains", "outstanding_limit") for s in (1, 2)]


def _manifest(folder: Path, jobs: list[str], shard: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    m = {"suite": "smoke", "sims": ["verilator"], "seeds": [1, 2], "shard": shard, "count": "", "jobs": jobs}
    (folder / "manifest.json").write_text(json.dumps(m))


def test_a_report_lists_every_job_of_the_manifest_and_says_the_run_is_incomplete(tmp_path):
    reg = tmp_path / "reg"
    _manifest(reg, KEYS, "1/1")
    _job_record(reg, KEYS[0], "pass")
    _job_record(reg, KEYS[1], "timeout")
    r = make_report([reg], tmp_path / "report")
    g = r["regression"]
    assert (g["jobs"], g["passed"], g["failed"], g["not_run"], g["complete"]) == (4, 1, 1, 2, False)
    assert r["signature"]["jobs"] == {KEYS[0]: "pass", KEYS[1]: "timeout", KEYS[2]: "not run", KEYS[3]: "not run"}
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert summary.splitlines()[2] == (
        f"**INCOMPLETE: 2 of 4 jobs not run.** Continue with `make regress RESUME={reg.resolve()}`."
    )
    assert "**1 passed, 1 failed**, 2 not run of 4 jobs" in summary
    html = (tmp_path / "report" / "index.html").read_text()
    assert html.index('id="incomplete"') < html.index("<h2>")  # at the top of the page
    junit = ET.parse(tmp_path / "report" / "junit.xml").getroot()
    assert (junit.get("tests"), junit.get("errors"), junit.get("skipped")) == ("4", "1", "2")
    assert junit.get("name") == "regression (incomplete)"


def test_slurm_shards_that_never_ran_or_died_are_not_run_not_a_gap(tmp_path):
    base = tmp_path / "slurm-base"
    _manifest(base, KEYS, "")  # what slurm.launch writes: every job of the regression
    _manifest(base / "shard1", KEYS[:2], "1/2")  # ran, one job crashed
    _job_record(base / "shard1", KEYS[0], "pass")
    _job_record(base / "shard1", KEYS[1], "crashed")
    # shard 2 was cancelled before it started: no folder at all
    r = make_report([base], tmp_path / "report")
    assert r["signature"]["jobs"] == {KEYS[0]: "pass", KEYS[1]: "crashed", KEYS[2]: "not run", KEYS[3]: "not run"}
    assert r["regression"]["shards"] == ["1/2"] and r["resume"] == f"make regress RESUME={base.resolve()}"
    _manifest(base / "shard2", KEYS[2:], "2/2")  # a node that died after writing its manifest: the same
    r = make_report([base], tmp_path / "report")
    assert r["regression"]["not_run"] == 2 and r["regression"]["shards"] == ["1/2", "2/2"]


# ----------------------------------------------------------------------------- reports written safely
@pytest.fixture
def small_fs(tmp_path):
    """A 1 MiB tmpfs (root and mount needed: the test says so when they are missing)."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)], capture_output=True, text=True)
    if p.returncode != 0:
        pytest.fail(f"cannot mount a tmpfs (needs root): {p.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=True)


def _fill(fs: Path, leave: int) -> None:
    """Fill ``fs`` up to ``leave`` bytes free."""
    st = os.statvfs(fs)
    free = st.f_bavail * st.f_frsize
    (fs / "filler").write_bytes(b"\0" * max(0, free - leave))


def test_a_full_disk_keeps_the_previous_report_and_says_no_space_left(tmp_path, small_fs):
    reg = tmp_path / "reg"
    _manifest(reg, KEYS, "1/1")
    for k in KEYS:
        _job_record(reg, k, "pass")
    out = small_fs / "report"
    make_report([reg], out)  # the previous, good report
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    _job_record(reg := tmp_path / "reg2", KEYS[0], "fail")
    _manifest(reg, KEYS[:1], "1/1")
    _fill(small_fs, 8192)
    p = subprocess.run(
        [sys.executable, "-m", "dlaverif.flow.regression", "report", str(reg), f"--out={out}", "--history="],
        cwd=runner.ROOT,
        capture_output=True,
        text=True,
    )
    assert p.returncode == 1
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith(f"regress: report not written to {out}: No space left on device")
    after = {q.relative_to(out): q.read_bytes() for q in out.rglob("*") if q.is_file()}
    assert after == before  # the previous report, byte for byte
    assert sorted(q.name for q in small_fs.iterdir()) == ["filler", "report"]  # no partial folder left


def test_a_failing_report_step_leaves_the_old_one(tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    (out / "index.html").write_text("old")

    def broken(folder: Path) -> None:
        (folder / "index.html").write_text("half")
        raise subprocess.CalledProcessError(255, ["/usr/bin/genhtml", "x"], stderr="genhtml: ERROR: cannot read\n")

    with pytest.raises(publish.ReportError, match=r"genhtml failed \(exit 255\): genhtml: ERROR: cannot read"):
        publish.swap_in(out, broken)
    assert (out / "index.html").read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["report"]
    publish.swap_in(out, lambda f: (f / "index.html").write_text("new"))
    assert (out / "index.html").read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["report"]


@pytest.fixture
def ctrl_c():
    """SIGINT raises KeyboardInterrupt in this process (as in a terminal; a test worker may ignore it)."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield lambda: os.kill(os.getpid(), signal.SIGINT)
    signal.signal(signal.SIGINT, old)


def test_an_interrupt_while_the_report_is_built_leaves_the_old_one(tmp_path, ctrl_c):
    out = tmp_path / "report"
    out.mkdir()
    (out / "index.html").write_text("old")

    def interrupted(folder: Path) -> None:
        (folder / "index.html").write_text("half")
        ctrl_c()

    published = []
    with pytest.raises(KeyboardInterrupt):
        publish.swap_in(out, interrupted, published.append)
    assert published == [] and (out / "index.html").read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report"]  # nothing of the new one


def test_an_interrupt_while_the_report_is_put_in_place_acts_once_it_is_whole(tmp_path, ctrl_c):
    out = tmp_path / "report"
    out.mkdir()
    (out / "index.html").write_text("old")
    steps: list[str] = []

    def history_and_latest(results: str) -> None:
        ctrl_c()  # Ctrl-C right after the swap: what goes with the report (history, latest, state) is still done
        steps.extend([results, "history", "latest"])

    with pytest.raises(KeyboardInterrupt):
        publish.swap_in(out, lambda f: (f / "index.html").write_text("new") and "results", history_and_latest)
    assert steps == ["results", "history", "latest"]
    assert (out / "index.html").read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["report"]


# ----------------------------------------------------------------------------- input checked before anything runs
#: make's own closing line for a failed recipe ("make: *** [...] Error 2", "make[1]: ***" when make runs inside make,
#: as under `make test`): not the flow's output
MAKE_ERROR = re.compile(r"^make(\[\d+\])?: \*\*\* ")


def _own_lines(stderr: str) -> list[str]:
    """The lines the flow printed, without make's error line."""
    return [ln for ln in stderr.splitlines() if not MAKE_ERROR.match(ln)]


BAD = [
    ("SEEDS", "abc", "SEEDS=abc: expected a whole number 1..100000"),
    ("SEEDS", "0", "SEEDS=0: expected a whole number 1..100000"),
    ("JOBS", "abc", "JOBS=abc: expected a whole number 1..512"),
    ("JOBS", "0", "JOBS=0: expected a whole number 1..512"),
    ("SUITE", "nosuch", "SUITE=nosuch: no such suite; allowed: smoke, sim, nightly, mutants"),
    ("SIM", "nosim", "SIM=nosim: expected verilator, icarus or a comma-separated list of them"),
    ("RUN", "nosuch", "RUN=nosuch: not a run of suite smoke; allowed: agents/clocked, "),
    ("TESTS", "nosuch", "TESTS=nosuch: matches no test of suite smoke (globs over run::test or a test name)"),
    ("SEED_LIST", "3,3", "SEED_LIST=3,3: expected distinct whole numbers, comma-separated"),
    ("SHARD", "3/2", "SHARD=3/2: expected i/n with 1 <= i <= n"),
    ("SHARDS", "0", "SHARDS=0: expected a whole number 1..1000"),
    ("LAUNCHER", "lsf", "LAUNCHER=lsf: expected local or slurm"),
    ("WAIT", "yes", "WAIT=yes: expected 0 or 1"),
    ("COVERAGE", "2", "COVERAGE=2: expected 0 or 1"),
    ("JOB_TIMEOUT", "-5", "JOB_TIMEOUT=-5: expected a number of seconds > 0"),
    ("JOB_TIMEOUT", "nan", "JOB_TIMEOUT=nan: expected a number of seconds > 0"),
    ("BUILD_TIMEOUT", "0", "BUILD_TIMEOUT=0: expected a number of seconds > 0 (empty: the default of every build)"),
    ("REPORT_TIMEOUT", "x", "REPORT_TIMEOUT=x: expected a number of seconds > 0 (empty: the default of every step"),
    ("RESUME", "/nonexistent", "RESUME=/nonexistent: no such folder"),
    ("RERUN", "failed", "RERUN=failed: only with RESUME=<run folder>"),
    ("RERUN", "all", "RERUN=all: expected failed"),
    ("COUNT", "x", "COUNT=x: expected a whole number >= 1"),
    ("RTL", "/nonexistent", "RTL=/nonexistent: no such folder"),
    ("CONFIG_SEED", "abc", "CONFIG_SEED=abc: expected a whole number >= 0"),
    ("WAVES", "abc", "WAVES=abc: expected 0 or 1"),
    ("ASSERT", "2", "ASSERT=2: expected 0 or 1"),
    ("MISMATCH_MAPS", "-1", "MISMATCH_MAPS=-1: expected a whole number >= 0"),  # read inside every simulation
]


@pytest.mark.sim
@pytest.mark.parametrize("var,value,line", BAD, ids=[f"{v}={x}" for v, x, _ in BAD])
def test_each_bad_make_variable_is_one_line_exit_2_and_nothing_written(tmp_path, var, value, line):
    before = sorted(execute.REGRESS.iterdir()) if execute.REGRESS.is_dir() else []
    env = {k: v for k, v in os.environ.items() if k not in ("SUITE", "SEEDS", "SEED_LIST", "TESTS", "RUN", "SHARD")}
    env |= {
        var: value,
        "REPORT": str(tmp_path / "report"),
        "HISTORY": str(tmp_path / "history"),
        "PYTHONPATH": str(runner.ROOT),
    }
    p = subprocess.run(
        ["make", "-s", "--no-print-directory", "regress", "JOBS=" + (value if var == "JOBS" else "1")],
        cwd=runner.ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2, p.stdout + p.stderr
    lines = _own_lines(p.stderr)
    assert len(lines) == 1 and lines[0].startswith(f"regress: {line}"), p.stderr
    assert p.stdout == ""
    assert not (tmp_path / "report").exists() and not (tmp_path / "history").exists()
    assert (sorted(execute.REGRESS.iterdir()) if execute.REGRESS.is_dir() else []) == before


@pytest.mark.sim
@pytest.mark.parametrize(
    "var,value,line",
    [
        ("RUN", "nosuch", "RUN=nosuch: not a run of suite sim"),
        ("TESTS", "nosuch", "TESTS=nosuch: matches no test of suite sim"),
        ("SUITE", "nosuch", "SUITE=nosuch: no such suite"),
        ("SIM", "nosim", "SIM=nosim: expected verilator, icarus"),
        ("SEED", "x", "SEED=x: expected a whole number >= 0"),
        ("CONFIG_SEED", "abc", "CONFIG_SEED=abc: expected a whole number >= 0"),
        ("WAVES", "abc", "WAVES=abc: expected 0 or 1"),  # once taken for on: its header said WAVES=1
        ("ASSERT", "yes", "ASSERT=yes: expected 0 or 1"),
        ("MISMATCH_MAPS", "x", "MISMATCH_MAPS=x: expected a whole number >= 0"),
        ("VERILATOR_PUBLIC", "on", "VERILATOR_PUBLIC=on: expected 0 or 1"),
        ("SIM_TIMEOUT", "0", "SIM_TIMEOUT=0: expected a number of seconds > 0"),
        ("BUILD_TIMEOUT", "x", "BUILD_TIMEOUT=x: expected a number of seconds > 0"),
        ("TESTCASE", "foo(", "TESTCASE=foo(: not a test name or regular expression (missing ), unterminated"),
    ],
)
def test_make_sim_refuses_the_same_names(var, value, line):
    env = {k: v for k, v in os.environ.items() if k not in ("SUITE", "TESTS", "RUN", "TESTCASE")}
    p = subprocess.run(
        ["make", "-s", "--no-print-directory", "sim", f"{var}={value}"],
        cwd=runner.ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2
    lines = _own_lines(p.stderr)
    assert len(lines) == 1 and lines[0].startswith(f"make sim: {line}"), p.stderr


def test_a_resume_reuses_a_build_only_when_its_inputs_are_unchanged(tmp_path):
    from dlaverif.flow import testplan

    plan = testplan.load()
    rtl = tmp_path / "rtl"
    shutil.copytree(runner.RTL, rtl)
    engine = plan.builds["axi_rd_engine"]
    first = execute.build_inputs("verilator", engine, True, rtl)
    assert execute.build_inputs("verilator", engine, True, rtl) == first
    assert execute.build_inputs("verilator", engine, False, rtl) != first  # without code coverage
    assert execute.build_inputs("icarus", engine, True, rtl) != first
    assert execute.build_inputs("verilator", plan.builds["axi_rd_engine_a12_dw1024"], True, rtl) != first
    source = filelists.locate(rtl, "axi_rd_engine.sv")
    source.write_text(source.read_text() + "\n// edited\n")
    assert execute.build_inputs("verilator", engine, True, rtl) != first  # the RTL changed since


@pytest.mark.sim
def test_an_interrupt_during_the_builds_records_no_broken_build_and_leaves_every_job_to_the_resume(tmp_path):
    from dlaverif.flow import testplan

    plan = testplan.load()
    ex = executor.Executor()
    ex.stop()  # the interrupt arrives as the build starts: its process group is ended at once
    jobs = [JOB, Job("verilator", "axi_rd_engine/directed", "outstanding_limit", 3, "8")]
    recs = execute.run_shard(tmp_path, plan, "smoke", jobs, 1, False, False, executor=ex)
    assert [r["status"] for r in recs] == ["not run", "not run"]
    assert not (tmp_path / "builds" / "status.json").exists()  # not recorded as a failed build
    assert not list(tmp_path.rglob("job.json"))
