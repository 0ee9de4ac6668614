"""The (run, test, seed) pairs of a testplan suite, and deterministic shards of them.

A job is one cocotb test of one run (``tb/testplan.yaml``) with one seed on one simulator. cocotb 2 derives each
test's random seed from the run seed and the test name, so a test run alone with seed S sees the same stimulus as
inside its whole module; hence ``make sim ... TESTCASE=<test> SEED=<S>`` reproduces a job exactly.

Shards (``SHARD=i/n``) are balanced by recorded durations (:data:`DURATIONS`, a file in the repository so that
every machine computes the same slices from the same checkout): longest job first onto the least loaded shard,
ties broken by the job's key, so the split depends only on the job list and the durations file.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Iterable, Optional

from tb.flow import testplan

DURATIONS = Path(__file__).resolve().parent / "durations.json"
DEFAULT_SECONDS = 10.0


@dataclass(frozen=True, order=True)
class Job:
    """One (simulator, run, test, seed)."""

    sim: str
    run: str
    test: str
    seed: int
    count: str  # COUNT the run gets (the suite's, or the user's)

    @property
    def key(self) -> str:
        return f"{self.sim}:{self.run}:{self.test}:{self.seed}"

    @property
    def duration_key(self) -> str:
        return f"{self.sim}:{self.run}:{self.test}"

    def folder(self) -> Path:
        """The job's run folder, relative to the regression folder."""
        return Path("runs") / self.sim / self.run.replace("/", "-") / self.test / f"seed{self.seed}"

    def to_dict(self) -> dict:
        return asdict(self)


def parse_seeds(seeds: Optional[str], seed_list: Optional[str], default: int) -> list[int]:
    """``SEED_LIST=3,17,40`` wins; else ``SEEDS=N`` gives seeds 1..N (the suite's ``reseeds`` by default)."""
    if seed_list and seed_list.strip():
        out = [int(s) for s in re.split(r"[,\s]+", seed_list.strip()) if s]
        if not out or len(set(out)) != len(out):
            raise ValueError(f"SEED_LIST must list distinct integers, got {seed_list!r}")
        return out
    n = int(seeds) if seeds and str(seeds).strip() else default
    if n < 1:
        raise ValueError(f"SEEDS must be >= 1, got {n}")
    return list(range(1, n + 1))


def expand(
    plan: testplan.Plan,
    suite: str,
    sims: Iterable[str],
    seeds: list[int],
    tests: Optional[str] = None,
    count: Optional[str] = None,
    runs: Optional[str] = None,
) -> list[Job]:
    """Every job of a suite, sorted: the selection of :func:`tb.flow.testplan.select` (``runs``: exact run names,
    ``tests``: glob patterns over ``run::test`` or ``test``, both comma-separated) for every simulator and seed."""
    s = plan.suite(suite)
    jobs = {
        Job(sim, e.run.name, t, seed, e.environment(count or s.count)["COUNT"])
        for e, chosen in testplan.select(plan, suite, runs, tests)
        for sim in sims
        for t in chosen
        for seed in seeds
    }
    return sorted(jobs)


def load_durations(path: Path = DURATIONS) -> dict[str, float]:
    return json.loads(path.read_text()) if path.is_file() else {}


def parse_shard(text: Optional[str]) -> tuple[int, int]:
    """``"2/4"`` -> (2, 4); shards count from 1."""
    if not text:
        return 1, 1
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise ValueError(f"SHARD must be i/n with 1 <= i <= n, got {text!r}")
    return int(m.group(1)), int(m.group(2))


def shard(jobs: list[Job], index: int, total: int, durations: Optional[dict[str, float]] = None) -> list[Job]:
    """The ``index``-th of ``total`` slices (1-based): greedy longest-first onto the least loaded slice."""
    if total == 1:
        return list(jobs)
    known = durations if durations is not None else load_durations()
    default = sorted(known.values())[len(known) // 2] if known else DEFAULT_SECONDS
    cost = {j: float(known.get(j.duration_key, default)) for j in jobs}
    loads = [0.0] * total
    owner: dict[Job, int] = {}
    for j in sorted(jobs, key=lambda j: (-cost[j], j.key)):
        k = min(range(total), key=lambda i: (loads[i], i))
        owner[j] = k
        loads[k] += cost[j]
    return [j for j in jobs if owner[j] == index - 1]
