"""The (run, test, seed) pairs of a testplan suite, and deterministic shards of them.

A job is one cocotb test of one run (``blocks/plan.yaml``) with one seed on one simulator. cocotb 2 derives each
test's random seed from the run seed and the test name, so a test run alone with seed S sees the same stimulus as
inside its whole module; hence ``make sim ... TESTCASE=<test> SEED=<S>`` reproduces a job exactly.

Shards (``SHARD=i/n``) are balanced by recorded durations (:data:`DURATIONS`, the project's file beside its plan,
``blocks/durations.json`` here, in the repository so that every machine computes the same slices from the same
checkout; a project without one has no record, every job its default): longest job first onto the least loaded shard,
ties broken by the job's key, so the split depends only on the job list and the durations file.

The durations file is the one record of how long a job takes: per ``sim:run:test`` the median wall time of a
regression's jobs and the COUNT they ran with (``{"wall_s": 10.5, "count": 200}``; a report writes it,
:func:`durations_of`). :func:`expected_seconds` scales it to a job's own COUNT; the shards and the default
``JOB_TIMEOUT`` (:func:`dlaverif.flow.regression.execute.default_timeout`) both use it. It records the steps too: each
plan build's compile (``build:<sim>:<build>``) and each step of a report (``report:merge``, ``report:write-info``,
``report:genhtml``), which give ``BUILD_TIMEOUT`` and ``REPORT_TIMEOUT`` their defaults (:func:`step_limit`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import median
from typing import Iterable, Optional

from dlaverif.flow import project, testplan
from dlaverif.flow.planschema import Refusal, display

#: the project's record of its jobs' durations: project data beside its plan (it names the project's runs and tests)
DURATIONS = project.PLAN.parent / "durations.json"
DEFAULT_SECONDS = 10.0  # a job when nothing at all is recorded
OTHER_SIM_FACTOR = 4.0  # a job recorded on another simulator only (Icarus is slower than Verilator), or not at all
TIMEOUT_FACTOR = 10.0  # a default limit (JOB_TIMEOUT, BUILD_TIMEOUT, REPORT_TIMEOUT): this many times the expected time
TIMEOUT_FLOOR_S = 600.0  # ... and never less
#: the durations file's entries of steps, not jobs: ``build:<sim>:<build>`` (a plan build compiled by a regression),
#: ``report:<step>`` (a coverage merge, with the number of files it merged as its count, or genhtml of a report)
BUILD_STEP, REPORT_STEP = "build", "report"
STEP_KINDS = (BUILD_STEP, REPORT_STEP)


@dataclass(frozen=True, order=True)
class Job:
    """One (simulator, run, test, seed)."""

    sim: str
    run: str
    test: str
    seed: int
    count: str  # COUNT the run gets (the suite's, or the user's)
    config_seed: Optional[int] = None  # the CONFIG_SEED of a random draw of the configuration matrix (its run's)

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
    """Every job of a suite, sorted: the selection of :func:`dlaverif.flow.testplan.select` (``runs``: exact run names,
    ``tests``: glob patterns over ``run::test`` or ``test``, both comma-separated) for every simulator and seed."""
    s = plan.suite(suite)
    drawn = {c.run: c.seed for c in plan.configs.values() if c.kind == "random"}
    jobs = {
        Job(sim, e.run.name, t, seed, e.environment(count or s.count)["COUNT"], drawn.get(e.run.name))
        for e, chosen in testplan.select(plan, suite, runs, tests)
        for sim in sims
        for t in chosen
        for seed in seeds
    }
    return sorted(jobs)


@dataclass(frozen=True)
class Duration:
    """A job's recorded wall time and the COUNT (random items per family) it ran with; ``count`` None: not recorded
    (a plain number, the file's older form)."""

    wall_s: float
    count: Optional[int] = None


def _read_durations(path: Path) -> dict[str, Duration]:
    """Every entry of the durations file, jobs and steps (:func:`load_durations`)."""
    try:
        raw = json.loads(path.read_text()) if path.is_file() else {}
        return {
            str(k): Duration(float(v["wall_s"]), int(v["count"]) if v.get("count") else None)
            if isinstance(v, dict)
            else Duration(float(v))
            for k, v in raw.items()
        }
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        what = exc.strerror if isinstance(exc, OSError) else f"{type(exc).__name__}: {exc}"
        raise Refusal(
            f"{display(path)}: not a durations file ({' '.join(str(what).split())}); restore it from git or copy a "
            "report's durations.json over it"
        ) from None


def is_step(key: str) -> bool:
    """True for an entry of a step (a build, a report step: :data:`STEP_KINDS`), not of a job."""
    return key.split(":", 1)[0] in STEP_KINDS


def load_durations(path: Path = DURATIONS) -> dict[str, Duration]:
    """``sim:run:test`` -> its recorded :class:`Duration`. A file that is not one is refused (:class:`Refusal`, one
    line naming it), not ignored: every shard of a regression, on whatever machine, must split the jobs by the same
    durations, or jobs would be run twice or by no shard, and the timeouts would fall back to the default."""
    return {k: d for k, d in _read_durations(path).items() if not is_step(k)}


def load_step_durations(path: Path = DURATIONS) -> dict[str, Duration]:
    """The steps' entries of the durations file (:data:`STEP_KINDS`): ``build:<sim>:<build>``,
    ``report:<step>``."""
    return {k: d for k, d in _read_durations(path).items() if is_step(k)}


def step_limit(key: str, steps: dict[str, Duration], count: Optional[int], fallback_s: float) -> float:
    """The default wall-clock limit of a build or a report step (``key`` as in the durations file,
    :data:`STEP_KINDS`), as jobs get theirs: :func:`default_limit` of its recorded wall time, scaled by ``count``
    over the recorded count (a merge of more coverage files) and never below it. A build not recorded:
    :data:`OTHER_SIM_FACTOR` times the longest recorded build of its simulator (of any, when its simulator has none);
    a report step not recorded (each is a different tool), or no build recorded at all: ``fallback_s``."""
    known = steps.get(key)
    if known is not None:
        scale = max(1.0, count / known.count) if count and known.count else 1.0
        return default_limit(known.wall_s * scale)
    if not key.startswith(f"{BUILD_STEP}:"):
        return fallback_s
    builds = {k: d.wall_s for k, d in steps.items() if k.startswith(f"{BUILD_STEP}:")}
    sim = key.split(":")[1]
    same = [w for k, w in builds.items() if k.startswith(f"{BUILD_STEP}:{sim}:")] or list(builds.values())
    return default_limit(OTHER_SIM_FACTOR * max(same)) if same else fallback_s


def build_key(sim: str, build: str) -> str:
    """A plan build's entry in the durations file."""
    return f"{BUILD_STEP}:{sim}:{build}"


def step_entries(walls: Iterable[tuple[str, float, Optional[int]]]) -> dict[str, dict]:
    """What the measured steps of a report's regression (``key``, wall seconds, count) say for the durations file:
    per key the median wall time at the count most of them ran with (as :func:`durations_of` for jobs)."""
    return durations_of(
        {"key": key, "count": "" if count is None else str(count), "wall_s": wall} for key, wall, count in walls
    )


def durations_of(records: Iterable[dict]) -> dict[str, dict]:
    """What a regression's job records (``job.json``) say for the durations file: per ``sim:run:test`` the median
    wall time of its jobs at the COUNT most of them ran with (a merge of regressions run at two COUNTs keeps the
    more frequent one, ties to the larger), and that COUNT."""
    by_key: dict[str, list[tuple[str, float]]] = {}
    for r in records:
        key = r["key"] if "sim" not in r else f"{r['sim']}:{r['run']}:{r['test']}"  # a step's (step_entries)
        by_key.setdefault(key, []).append((str(r.get("count") or ""), r["wall_s"]))
    out: dict[str, dict] = {}
    for key, rows in sorted(by_key.items()):
        counts = Counter(c for c, _ in rows)
        count = max(counts, key=lambda c: (counts[c], int(c) if c.isdigit() else -1))
        entry: dict = {"wall_s": round(median(w for c, w in rows if c == count), 1)}
        if count.isdigit():
            entry["count"] = int(count)
        out[key] = entry
    return out


def expected_seconds(job: Job, durations: dict[str, Duration]) -> float:
    """How long ``job`` should take: its recorded wall time times its COUNT over the recorded COUNT, never less than
    the recorded time (a directed test draws no COUNT items, and a job's fixed cost, the simulator start and the
    set-up, does not shrink with fewer items). A job recorded on another simulator only: the longest of those times
    :data:`OTHER_SIM_FACTOR`; recorded nowhere: the median job's times :data:`OTHER_SIM_FACTOR`. A job is one seed:
    the number of seeds of a regression changes the number of jobs, not their length."""

    def scaled(d: Duration) -> float:
        mine = int(job.count) if str(job.count).isdigit() else None
        return d.wall_s * max(1.0, mine / d.count) if mine and d.count else d.wall_s

    known = durations.get(job.duration_key)
    if known is not None:
        return scaled(known)
    other = [scaled(d) for k, d in durations.items() if k.split(":", 1)[-1] == f"{job.run}:{job.test}"]
    if other:
        return max(other) * OTHER_SIM_FACTOR
    times = sorted(d.wall_s for d in durations.values())
    return (times[len(times) // 2] if times else DEFAULT_SECONDS) * OTHER_SIM_FACTOR


def simulation_seconds(
    sim: str, run: Optional[str], tests: Optional[Iterable[str]], count: str, durations: dict[str, Duration]
) -> float:
    """How long one simulation (one simulator process: ``make sim``'s run, a pytest simulation) should take: the
    sum of :func:`expected_seconds` of the tests it runs (``tests`` None: every test of ``run`` the file records on
    any simulator); a run or tests the file does not know: one unknown job's (the median's times
    :data:`OTHER_SIM_FACTOR`)."""
    if tests is None:
        tests = sorted({k.split(":", 2)[2] for k in durations if k.split(":", 2)[1:2] == [run]}) if run else []
    chosen = list(tests) or [""]
    return sum(expected_seconds(Job(sim, run or "", t, 0, count), durations) for t in chosen)


def default_limit(expected_s: float) -> float:
    """The default wall-clock limit of a step expected to take ``expected_s``: :data:`TIMEOUT_FACTOR` times that,
    never below :data:`TIMEOUT_FLOOR_S`, so a slow or busy machine does not trip it but a hung step ends."""
    return max(TIMEOUT_FLOOR_S, TIMEOUT_FACTOR * expected_s)


def parse_shard(text: Optional[str]) -> tuple[int, int]:
    """``"2/4"`` -> (2, 4); shards count from 1."""
    if not text:
        return 1, 1
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise ValueError(f"SHARD must be i/n with 1 <= i <= n, got {text!r}")
    return int(m.group(1)), int(m.group(2))


def shard(jobs: list[Job], index: int, total: int, durations: Optional[dict[str, Duration]] = None) -> list[Job]:
    """The ``index``-th of ``total`` slices (1-based): greedy longest-first (:func:`expected_seconds`) onto the least
    loaded slice."""
    if total == 1:
        return list(jobs)
    known = durations if durations is not None else load_durations()
    cost = {j: expected_seconds(j, known) for j in jobs}
    loads = [0.0] * total
    owner: dict[Job, int] = {}
    for j in sorted(jobs, key=lambda j: (-cost[j], j.key)):
        k = min(range(total), key=lambda i: (loads[i], i))
        owner[j] = k
        loads[k] += cost[j]
    return [j for j in jobs if owner[j] == index - 1]
