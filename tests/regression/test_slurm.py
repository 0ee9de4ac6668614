"""LAUNCHER=slurm on a real one-node Slurm cluster (Debian's slurm-wlm and munge, started and stopped here by
tb/flow/regression/slurm_cluster.sh): a two-shard job array plus a merge job run the tiny regression, and the merged
report equals the local run's for the same seeds."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tb.flow import runner

from .conftest import SEEDS, TESTS, regress

pytestmark = pytest.mark.sim
SCRIPT = runner.ROOT / "tb" / "flow" / "regression" / "slurm_cluster.sh"


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
    p = regress(
        "run",
        "--launcher=slurm",
        "--shards=2",
        "--sim=verilator",
        "--suite=smoke",
        f"--seed-list={SEEDS}",
        f"--tests={TESTS}",
        "--jobs=1",
        f"--out={out}",
        f"--report-dir={report}",
        env=cluster,
    )
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
