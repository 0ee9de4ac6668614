"""Records that survive a full disk, the flow's own variable names, and a resume of a complete run, done on small fake
jobs (no simulator): every record written whole (:mod:`dlaverif.flow.records`), a record that cannot be read counts as
not run, a full disk (a real tmpfs, and a stand-in that fails the Nth write) ends the run with one line and a resume
finishes it once there is room, the variables the flow exports never reach cocotb under a name it reads, and a
resume of a complete run changes nothing."""

from __future__ import annotations

import errno
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dlaverif.flow import records, runner
from dlaverif.flow.regression import __main__ as cli, collect, execute, publish, resume, settings
from dlaverif.flow.regression.jobs import Job

from .regress_cli import REGRESSION, own_run

JOB = Job("verilator", "axi_rd_engine/directed", "stop_drains", 3, "8")
#: four jobs of the smoke suite (no simulator runs them here: each is a fake job process)
TESTS = "axi_rd_engine/directed::stop_drains,axi_rd_engine/directed::outstanding_limit"
SEEDS = "1,2"
PASSED = '<testsuites><testsuite><testcase name="{}" time="1" sim_time_ns="5"/></testsuite></testsuites>'
SPACE = os.strerror(errno.ENOSPC)


# ----------------------------------------------------------------------------- the atomic writer
def test_a_record_is_written_whole_and_a_failed_write_leaves_the_old_one_and_no_temporary_file(tmp_path, monkeypatch):
    path = tmp_path / "job.json"
    records.write_json(path, {"status": "pass"})
    assert json.loads(path.read_text()) == {"status": "pass"}
    assert oct(path.stat().st_mode & 0o777) == oct(0o666 & ~records._UMASK)  # as a plain write makes it

    def full(fh: Any, data: bytes) -> None:
        fh.write(data[: len(data) // 2])  # half of it reached the file, then the disk was full
        raise OSError(errno.ENOSPC, SPACE)

    monkeypatch.setattr(records, "_write_all", full)
    with pytest.raises(records.WriteError) as info:
        records.write_json(path, {"status": "fail", "first_error": "x" * 1000})
    assert json.loads(path.read_text()) == {"status": "pass"}  # the old record, whole
    assert [p.name for p in tmp_path.iterdir()] == ["job.json"]  # no temporary file left
    mount = records.mount_point(tmp_path)
    line = rf"{SPACE}: {re.escape(str(tmp_path))} \({re.escape(str(mount))} has \d+\.\d MB free\)"
    assert re.fullmatch(line, str(info.value)), info.value
    assert info.value.errno == errno.ENOSPC and isinstance(info.value, OSError)


def test_the_regression_package_writes_no_record_but_through_the_atomic_writer():
    # the one mechanism: a plain write_text or json.dump in the flow's regression code would be a record that a full
    # disk can leave as 0 bytes
    folder = Path(runner.ROOT) / "tb" / "flow" / "regression"
    plain = [
        f"{p.name}:{n}: {line.strip()}"
        for p in sorted(folder.glob("*.py"))
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if re.search(r"(?<!records)\.write_text\(|json\.dump\(", line)
    ]
    assert plain == []


@pytest.mark.parametrize(
    "content,fault",
    [
        (b"", "empty (0 bytes)"),
        (b'{"key": "verilator:axi_rd_engine/directed:stop_drains:1", "status": "pa', "not JSON, truncated or corrupt"),
        (b"\x00\x00\x00\x00", "not JSON, truncated or corrupt"),
        (b'["pass"]', "not a job record (wrong shape)"),
        (b'{"key": "k", "status": "maybe", "log": "", "first_error": "", "wall_s": 1}', "not a job record"),
        (b'{"status": "pass"}', "not a job record (wrong shape)"),
    ],
    ids=["0-bytes", "truncated", "binary", "a-list", "unknown-status", "no-key"],
)
def test_a_job_record_that_cannot_be_read_is_not_run_on_resume_with_one_line_naming_it(
    tmp_path, capsys, content, fault
):
    reg = tmp_path / "reg"
    keys = [Job("verilator", "axi_rd_engine/directed", "stop_drains", s, "8").key for s in (1, 2)]
    _manifest(reg, keys)
    good, bad = (Job("verilator", "axi_rd_engine/directed", "stop_drains", s, "8") for s in (1, 2))
    _record(reg, good, "pass")
    (reg / bad.folder()).mkdir(parents=True)
    (reg / bad.folder() / "job.json").write_bytes(content)
    mine, todo = resume.to_run(reg, [good, bad], True, False)
    assert [j.key for j in todo] == [bad.key]  # run again by the resume
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"regress: {reg / bad.folder() / 'job.json'}: {fault}"), err
    assert err.endswith("; the job counts as not run\n")
    # the report of such a run lists it as not run
    r = cli.make_report([reg], tmp_path / "report")
    assert r["signature"]["jobs"] == {good.key: "pass", bad.key: "not run"}


@pytest.mark.parametrize("content", [b"", b'{"verilator/axi_rd_engine": ', b'["ok"]', b'{"verilator/x": 3}'])
def test_a_build_record_that_cannot_be_read_makes_its_builds_compile_again(tmp_path, capsys, content):
    path = tmp_path / "builds" / "inputs.json"
    path.parent.mkdir()
    path.write_bytes(content)
    assert execute.read_build_record(path) == {}
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"regress: {path}: ") and "compiled again" in err


def test_a_build_input_stamp_that_cannot_be_read_means_the_build_is_stale(tmp_path):
    stamp = runner._BuildStamp(tmp_path, "verilator", "top")
    assert stamp.stale()
    stamp.write()
    assert not stamp.stale()
    for junk in (b"", b"\xff\xfe not text", b'["verilator", "top"'):
        stamp.path.write_bytes(junk)
        assert stamp.stale() and not stamp.path.exists()  # compiled again, never a traceback


@pytest.mark.parametrize(
    "content", [b"", b'{"suite": "smoke", "jobs": [', b'{"jobs": []}', b'{"suite": "smoke", "jobs": [1]}']
)
def test_make_report_of_a_folder_whose_manifest_cannot_be_read_is_one_line_exit_2(tmp_path, content):
    reg = tmp_path / "reg"
    reg.mkdir()
    (reg / "manifest.json").write_bytes(content)
    p = subprocess.run(
        [*REGRESSION, "report", str(reg), f"--out={tmp_path / 'report'}", "--history=none"],
        cwd=runner.ROOT,
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and p.stderr.startswith(f"regress: {reg / 'manifest.json'}: "), p.stderr
    assert not (tmp_path / "report").exists()


# ----------------------------------------------------------------------------- a build folder deleted mid-run
def test_a_job_whose_build_folder_is_gone_says_so(tmp_path):
    gone = tmp_path / "builds" / "verilator" / "axi_rd_engine"
    rec = execute.run_job(tmp_path, JOB, "smoke", False, timeout_s=60, command=_fake("pass"), build=gone)
    assert rec["status"] == "error"
    assert rec["first_error"] == f"no test ran: its build folder {gone} is gone (deleted while the run ran)"


def test_a_build_folder_deleted_while_the_job_runs_is_named_as_the_cause(tmp_path):
    build = tmp_path / "builds" / "verilator" / "axi_rd_engine"
    build.mkdir(parents=True)
    script = f"import shutil; shutil.rmtree({str(build)!r}); raise SystemExit('Traceback: no such file')"
    rec = execute.run_job(tmp_path, JOB, "smoke", False, timeout_s=60, command=_fake(script), build=build)
    assert rec["status"] == "error"
    assert rec["first_error"] == f"no test ran: its build folder {build} is gone (deleted while the run ran)"


# ----------------------------------------------------------------------------- a full disk while a run runs
def _fake(script: str) -> list[str]:
    """A job process that runs ``script`` (Python) instead of a simulation."""
    return [sys.executable, "-c", script]


def _manifest(reg: Path, keys: list[str]) -> None:
    reg.mkdir(parents=True, exist_ok=True)
    m = {"suite": "smoke", "sims": ["verilator"], "seeds": [1, 2], "shard": "1/1", "count": "", "jobs": keys}
    (reg / "manifest.json").write_text(json.dumps(m))


def _record(reg: Path, job: Job, status: str) -> None:
    folder = reg / job.folder()
    folder.mkdir(parents=True)
    (folder / "sim.log").write_text("log\n")
    rec = {**job.to_dict(), "key": job.key, "status": status, "first_error": "", "log": "x", "wall_s": 1.0}
    (folder / "job.json").write_text(json.dumps({**rec, "rerun": "make sim", "sim_time_ns": 1.0, "tests": []}))


@pytest.fixture
def fake_jobs(monkeypatch):
    """Regressions run in this process with fake jobs: each build "compiles" into an empty folder, each job writes
    a passing results file and ``blob_bytes`` of output (``blob.bin``) from a process of its own, as a simulation
    does; returns a dict whose ``blob_bytes`` a test may change."""
    cfg = {"blob_bytes": 0}

    def compile_builds(regdir: Path, plan: Any, jobs: list[Job], *args: Any, **kw: Any) -> dict:
        for j in jobs:
            execute.build_dir(regdir, j.sim, plan.runs[j.run].build.name).mkdir(parents=True, exist_ok=True)
        return {}

    def job_command(regdir: Path, job: Job, suite: str) -> list[str]:
        folder = regdir / job.folder()
        return _fake(
            f"open({str(folder / 'blob.bin')!r}, 'wb').write(b'x' * {cfg['blob_bytes']})\n"
            f"open({str(folder / 'results.xml')!r}, 'w').write({PASSED.format(job.test)!r})\n"
        )

    monkeypatch.setattr(execute, "compile_builds", compile_builds)
    monkeypatch.setattr(execute, "job_command", job_command)
    return cfg


def _run(base: Path, *extra: str) -> int:
    """``python -m dlaverif.flow.regression run`` of the four jobs into ``base`` (its own report and history), one at a
    time, in this process."""
    return cli.main(own_run(base, f"--seed-list={SEEDS}", f"--tests={TESTS}", "--jobs=1", "--coverage=0", *extra))


def _resume(base: Path, *extra: str) -> int:
    """The printed ``make regress RESUME=<base>/reg``, with the run's own report and history."""
    return cli.main(own_run(base, f"--resume={base / 'reg'}", "--jobs=1", *extra))


def _snapshot(*folders: Path) -> dict[str, tuple[int, bytes | None]]:
    """Every file and folder below ``folders``: its mtime and, for a file, its bytes."""
    out: dict[str, tuple[int, bytes | None]] = {}
    for top in folders:
        for p in [top, *top.rglob("*")]:
            st = p.lstat()
            out[str(p)] = (st.st_mtime_ns, p.read_bytes() if p.is_file() and not p.is_symlink() else None)
    return out


def _no_half_records(base: Path) -> None:
    """No 0-byte or unreadable record and no temporary file of the atomic writer anywhere below ``base``."""
    for p in base.rglob("*.json"):
        assert p.stat().st_size > 0, p
        json.loads(p.read_text())
    assert not [p for p in base.rglob("*.tmp")]


@pytest.mark.parametrize("nth", [4, 5, 7], ids=["first-job", "second-job", "last-job"])
def test_a_full_disk_at_the_nth_write_stops_the_run_with_one_line_and_the_resume_finishes_it(
    tmp_path, fake_jobs, monkeypatch, capsys, nth
):
    # writes: 1 the orchestrator record, 2 the manifest, 3 the state ("running"), 4..7 the four jobs' records, then
    # the report's
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "summary.md").write_text("the previous report\n")
    real, count = records._write_all, [0]

    def fails_at_nth(fh: Any, data: bytes) -> None:
        count[0] += 1
        if count[0] == nth:
            raise OSError(errno.ENOSPC, SPACE)
        real(fh, data)

    monkeypatch.setattr(records, "_write_all", fails_at_nth)
    assert _run(tmp_path) == 1
    out, err = capsys.readouterr()
    reg, again = tmp_path / "reg", f"make regress RESUME={tmp_path / 'reg'}"
    finished = nth - 4
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert re.fullmatch(
        rf"regress: stopped: {SPACE}: {re.escape(str(reg))}/runs/\S+ \(/\S* has \d+\.\d MB free\); "
        rf"{4 - finished} of 4 jobs not run, the finished ones are kept; make room, then: {re.escape(again)}\n",
        err,
    ), err
    state = json.loads((reg / "state.json").read_text())
    assert state["complete"] is False and state["stopped"] is True and state["resume"] == again
    assert state["reason"].startswith(f"stopped: {SPACE}: ")
    assert len(list(reg.rglob("job.json"))) == finished  # the finished jobs, nothing of the one cut short
    _no_half_records(tmp_path)
    assert (tmp_path / "report" / "summary.md").read_text() == "the previous report\n"  # the previous report
    assert not (tmp_path / "history").exists() and not (tmp_path / "latest").exists()
    # room again: the printed command runs the jobs not run and publishes the report
    monkeypatch.setattr(records, "_write_all", real)
    assert _resume(tmp_path) == 0
    out, err = capsys.readouterr()
    assert f"resuming: {4 - finished} of 4 jobs to run" in out
    r = json.loads((tmp_path / "report" / "results.json").read_text())
    assert r["regression"]["complete"] and set(r["signature"]["jobs"].values()) == {"pass"}
    assert len(r["signature"]["jobs"]) == 4
    assert json.loads((reg / "state.json").read_text())["complete"] is True
    assert len(list((tmp_path / "history").iterdir())) == 1


def test_a_full_disk_while_the_report_is_written_keeps_the_previous_report_and_the_run_resumes(
    tmp_path, fake_jobs, monkeypatch, capsys
):
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "summary.md").write_text("the previous report\n")
    real, count = records._write_all, [0]

    def fails_at_the_report(fh: Any, data: bytes) -> None:
        count[0] += 1
        if count[0] == 8:  # after the orchestrator record, manifest, state and four jobs: the report's results.json
            raise OSError(errno.ENOSPC, SPACE)
        real(fh, data)

    monkeypatch.setattr(records, "_write_all", fails_at_the_report)
    assert _run(tmp_path) == 1
    out, err = capsys.readouterr()
    report = tmp_path / "report"
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert re.fullmatch(
        rf"regress: report not written to {re.escape(str(report))}: {SPACE}: {re.escape(str(tmp_path))} "
        rf"\(/\S* has \d+\.\d MB free\); the previous report is unchanged\n",
        err,
    ), err
    assert sorted(p.name for p in report.iterdir()) == ["summary.md"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".report")) == [".report.lock"]
    state = json.loads((tmp_path / "reg" / "state.json").read_text())
    assert state["complete"] is False
    assert state["reason"].startswith(f"report not written: report not written to {report}: {SPACE}")
    monkeypatch.setattr(records, "_write_all", real)
    assert _resume(tmp_path) == 0
    out, err = capsys.readouterr()
    assert "resuming: 0 of 4 jobs to run" in out
    assert json.loads((report / "results.json").read_text())["regression"]["complete"]


@pytest.fixture
def small_fs(tmp_path):
    """An 8 MiB tmpfs in ``tmp_path`` (mounting needs root: skipped, saying so, where it is not permitted; the
    stand-in tests above cover the same path everywhere)."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(mnt)], capture_output=True, text=True)
    if p.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {p.stderr.strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], check=True)


def test_a_real_full_disk_stops_the_run_keeps_the_finished_jobs_and_the_resume_finishes_it(small_fs, fake_jobs, capsys):
    # each job writes 1 MB of output; the file system has room for two of them
    fake_jobs["blob_bytes"] = 1_000_000
    filler = small_fs / "filler"
    free = os.statvfs(small_fs).f_bavail * os.statvfs(small_fs).f_frsize
    filler.write_bytes(b"\0" * (free - 2_500_000))
    (small_fs / "report").mkdir()
    (small_fs / "report" / "summary.md").write_text("the previous report\n")
    assert _run(small_fs) == 1
    out, err = capsys.readouterr()
    reg, again = small_fs / "reg", f"make regress RESUME={small_fs / 'reg'}"
    lines = err.splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert re.fullmatch(
        rf"regress: stopped: {SPACE}: {re.escape(str(reg))}/runs/\S+ \({re.escape(str(small_fs))} has \d+\.\d MB "
        rf"free\); 2 of 4 jobs not run, the finished ones are kept; make room, then: {re.escape(again)}",
        lines[0],
    ), err
    state = json.loads((reg / "state.json").read_text())
    assert state["stopped"] is True and state["resume"] == again and SPACE in state["reason"]
    assert len(list(reg.rglob("job.json"))) == 2
    _no_half_records(small_fs)
    assert (small_fs / "report" / "summary.md").read_text() == "the previous report\n"
    filler.unlink()  # space freed
    assert _resume(small_fs) == 0
    out, err = capsys.readouterr()
    assert "resuming: 2 of 4 jobs to run" in out and "Traceback" not in err
    r = json.loads((small_fs / "report" / "results.json").read_text())
    assert r["regression"]["complete"] and r["regression"]["passed"] == 4


def test_a_tool_that_fails_on_the_cut_file_of_a_full_disk_is_reported_as_the_full_disk(small_fs):
    out = small_fs / "report"
    out.mkdir()
    (out / "index.html").write_text("old")

    def coverage_then_genhtml(folder: Path) -> None:
        # verilator_coverage writes coverage.info without checking its writes: the file is cut where the disk filled
        try:
            (folder / "coverage.info").write_bytes(b"TN:\n" * 5_000_000)
        except OSError:
            pass
        raise subprocess.CalledProcessError(
            255, ["/usr/bin/genhtml", "x"], stderr="genhtml: ERROR: no valid records found in tracefile\n"
        )

    with pytest.raises(publish.ReportError) as info:
        publish.swap_in(out, coverage_then_genhtml)
    assert re.fullmatch(
        rf"report not written to {re.escape(str(out))}: {SPACE}: {re.escape(str(small_fs))} "
        rf"\({re.escape(str(small_fs))} has 0\.\d MB free\); then genhtml failed \(exit 255\): genhtml: ERROR: no "
        r"valid records found in tracefile; the previous report is unchanged",
        str(info.value),
    ), info.value
    assert (out / "index.html").read_text() == "old" and sorted(p.name for p in small_fs.iterdir()) == ["report"]


# ----------------------------------------------------------------------------- a resume of a complete run
def test_a_resume_of_a_complete_run_changes_nothing_and_says_so(tmp_path, fake_jobs, capsys):
    assert _run(tmp_path) == 0
    capsys.readouterr()
    before = _snapshot(tmp_path)
    for extra in ((), ("--rerun=failed",)):
        assert _resume(tmp_path, *extra) == 0
        out, err = capsys.readouterr()
        assert err == "" and out == (
            f"regress: {tmp_path / 'reg'} is already complete (4 of 4 jobs passed; its report was published): "
            "nothing run, nothing written\n"
        )
        assert _snapshot(tmp_path) == before  # no file or folder written, touched or added
    assert len(list((tmp_path / "history").iterdir())) == 1


def test_a_resume_of_a_complete_run_into_another_report_folder_writes_it_there_and_keeps_no_second_entry(
    tmp_path, fake_jobs, capsys
):
    assert _run(tmp_path) == 0
    first = (tmp_path / "report" / "results.json").read_bytes()
    capsys.readouterr()
    assert cli.main(own_run(tmp_path, f"--resume={tmp_path / 'reg'}", "--jobs=1", name="2")) == 0
    assert "resuming: 0 of 4 jobs to run" in capsys.readouterr().out
    again = json.loads((tmp_path / "report2" / "results.json").read_text())
    assert again["signature"] == json.loads(first)["signature"]
    assert (tmp_path / "report" / "results.json").read_bytes() == first
    assert len(list((tmp_path / "history").iterdir())) == 1  # the run is kept once
    state = json.loads((tmp_path / "reg" / "state.json").read_text())
    assert state["complete"] and state["report"] == str(tmp_path / "report2")


def test_a_resume_of_a_complete_run_with_a_cut_record_names_it_once_and_runs_that_job_again(
    tmp_path, fake_jobs, capsys
):
    assert _run(tmp_path) == 0
    cut = next((tmp_path / "reg").rglob("job.json"))
    cut.write_bytes(cut.read_bytes()[:40])
    capsys.readouterr()
    assert _resume(tmp_path) == 0
    out, err = capsys.readouterr()
    assert err == f"regress: {cut}: not JSON, truncated or corrupt (" + err.split(" (", 1)[1]
    assert err.count("\n") == 1 and err.endswith("; the job counts as not run\n")
    assert "resuming: 1 of 4 jobs to run" in out and json.loads(cut.read_text())["status"] == "pass"


def test_a_resume_of_a_complete_run_with_failures_reruns_them_only_when_asked(tmp_path, fake_jobs, capsys):
    assert _run(tmp_path) == 0
    reg = tmp_path / "reg"
    rec_path = next(reg.rglob("job.json"))
    rec = json.loads(rec_path.read_text())
    rec_path.write_text(json.dumps({**rec, "status": "fail", "first_error": "MISMATCH"}))
    capsys.readouterr()
    assert _resume(tmp_path) == 0
    assert capsys.readouterr().out.endswith("nothing run, nothing written; RERUN=failed reruns the others\n")
    assert _resume(tmp_path, "--rerun=failed") == 0
    assert "resuming: 1 of 4 jobs to run" in capsys.readouterr().out
    assert json.loads(rec_path.read_text())["status"] == "pass"


# ----------------------------------------------------------------------------- the flow's own names
def _makefile_exports() -> set[str]:
    """The variables the Makefile exports to every process it starts (its ``export`` lines)."""
    names: set[str] = set()
    for line in (Path(runner.ROOT) / "Makefile").read_text().splitlines():
        if line.startswith("export "):
            rest = line[len("export ") :]
            names |= {rest.split(":=")[0].strip()} if ":=" in rest else set(rest.split())
    return names


def _cocotb_reads() -> set[str]:
    """Every environment variable the installed cocotb and cocotb_tools read by name."""
    import cocotb
    import cocotb_tools

    pattern = re.compile(r"""(?:_env\.\w+|environ\.get|getenv|environ\[)\(?\s*["']([A-Z][A-Z0-9_]*)["']""")
    names: set[str] = set()
    for pkg in (cocotb, cocotb_tools):
        for f in Path(str(pkg.__file__)).parent.rglob("*.py"):
            names |= set(pattern.findall(f.read_text(errors="replace")))
    return names


#: names of the simulators' and cocotb's own families, which no variable of the flow may take
TOOL_PREFIXES = ("COCOTB_", "GPI_", "PYGPI", "VERILATOR", "SYSTEMC", "IVERILOG", "VVP", "TOPLEVEL", "MODULE")


def test_every_name_the_flow_exports_and_cocotb_reads_is_kept_from_the_simulation():
    exports, reads = _makefile_exports(), _cocotb_reads()
    assert {"COVERAGE", "WAVES", "RANDOM_SEED", "COCOTB_RANDOM_SEED"} <= reads  # the scan finds what cocotb reads
    assert {"SIM", "COVERAGE", "SUITE", "CONFIG_SEED"} <= exports
    assert exports & reads == set(runner.SHADOWED)
    assert not [n for n in exports if n.startswith(TOOL_PREFIXES)]


def _documented() -> set[str]:
    """The variables of the tables of docs/regressions.md (make regress) and README.md (make sim, make test)."""
    names: set[str] = set()
    for doc in ("docs/regressions.md", "README.md"):
        text = (Path(runner.ROOT) / doc).read_text()
        for table in re.findall(r"\| variable \| meaning \| default \|\n\| --- .*\n((?:\|.*\n)+)", text):
            for row in table.splitlines():
                names |= {t.split("=")[0] for t in re.findall(r"`([A-Z_]+(?:=\w+)?)`", row.split("|")[1])}
    return names


#: each documented variable with the values its documentation gives
DOCUMENTED_VALUES = {
    "SIM": ["verilator", "icarus", "verilator,icarus"],
    "SUITE": ["smoke", "sim", "nightly", "mutants"],
    "RUN": ["axi_rd_engine/directed"],
    "TESTS": ["cube_reader/uvm::*"],
    "SEEDS": ["3"],
    "SEED_LIST": ["7,19"],
    "JOBS": ["2"],
    "COUNT": ["8"],
    "JOB_TIMEOUT": ["120"],
    "BUILD_TIMEOUT": ["1800"],
    "REPORT_TIMEOUT": ["3600"],
    "SIM_TIMEOUT": ["600"],
    "RESUME": ["sim_build/regress/latest"],
    "RERUN": ["failed"],
    "SHARD": ["2/4"],
    "CONFIG_SEED": ["7"],
    "LAUNCHER": ["local", "slurm"],
    "SHARDS": ["4"],
    "WAIT": ["0", "1"],
    "COVERAGE": ["0", "1"],
    "RTL": ["blocks/rtl"],
    "REPORT": ["sim_build/report"],
    "INPUTS": ["sim_build/regress/latest"],
    "HISTORY": ["none", "sim_build/history"],
    "TESTCASE": ["stop_drains"],
    "SEED": ["1"],
    "WAVES": ["0", "1"],
    "VERILATOR_PUBLIC": ["0", "1"],
}


def test_every_documented_variable_is_in_this_test():
    assert _documented() <= set(DOCUMENTED_VALUES), _documented() - set(DOCUMENTED_VALUES)


class _Recorder:
    """A cocotb runner stand-in: keeps the environment the simulation would start with (cocotb_tools takes the
    process environment over ``extra_env``) and writes a passing results file."""

    def __init__(self) -> None:
        self.env: dict[str, str] = {}

    def test(self, **kw: Any) -> None:
        self.env = {**kw["extra_env"], **os.environ}
        Path(kw["results_xml"]).write_text(PASSED.format("t"))


@pytest.mark.parametrize("var,value", [(v, x) for v, xs in DOCUMENTED_VALUES.items() for x in xs], ids=lambda v: str(v))
@pytest.mark.parametrize("waves", [False, True], ids=["no-waves", "waves"])
def test_a_documented_value_never_reaches_a_simulation_under_a_name_cocotb_reads(
    tmp_path, monkeypatch, var, value, waves
):
    monkeypatch.setenv(var, value)
    rec = _Recorder()
    b = runner.Build("verilator", "top", tmp_path, {}, rec)
    before = dict(os.environ)
    runner.run(b, "tb.module", 1, None, {"COUNT": "8"}, waves=waves, test_dir=tmp_path)
    assert dict(os.environ) == before  # this process's environment as it was
    reads = _cocotb_reads()
    seen = {k: v for k, v in rec.env.items() if k in reads}
    assert "COVERAGE" not in seen  # the flow's code coverage switch is not cocotb's Python coverage
    assert seen["WAVES"] == str(int(waves))  # the run's own choice, whatever make passed
    if var in reads and var not in runner.SHADOWED:
        pytest.fail(f"{var}={value} reaches cocotb, which reads {var}")
    assert rec.env["COUNT"] == "8"  # the run's own variables still arrive


def test_settings_still_take_coverage_from_the_environment(monkeypatch):
    # make passes COVERAGE=0/1 to the regression process, which decides the builds' code coverage
    for value, on in (("0", False), ("1", True)):
        monkeypatch.setenv("COVERAGE", value)
        a = cli.parser().parse_args(["run", "--tests=axi_rd_engine/directed::stop_drains", "--seeds=1"])
        from dlaverif.flow import testplan

        assert settings.check_run(a, testplan.load()).coverage is on


def test_collect_reads_the_job_record_fields_a_job_writes(tmp_path):
    # the shape a resume accepts is what run_job writes (a real record passes the check)
    rec = execute.run_job(tmp_path, JOB, "smoke", False, timeout_s=60, command=_fake("pass"))
    assert collect._is_job(json.loads((tmp_path / JOB.folder() / "job.json").read_text()))
    assert rec["status"] == "error"
