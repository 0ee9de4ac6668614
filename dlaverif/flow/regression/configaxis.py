"""The report's configuration axis: which configurations ran, passed, and what each covered.

A configuration is a build of the plan: an HDL top at its parameters. The matrix's configurations (``configs:`` of
``blocks/plan.yaml``, :class:`dlaverif.flow.testplan.Configuration`) are corners or random legal draws of a
``CONFIG_SEED``; the plan's own builds (``builds:``) are configurations too (the defaults, a 512-bit bus, ...). Per
configuration the report lists its parameters, its jobs by status, the functional bins and RTL lines its jobs
covered (their coverage merged apart from the others'), what its stimulus reached against its limits (the highest
address bit driven against ``AXI_ADDR_W``, the most reads in flight against ``MAX_OUTSTANDING``, the longest
contiguous read in pages, each probed queue's deepest occupancy against its depth, the narrowest and widest beat
in byte lanes against one lane and the bus: :mod:`dlaverif.platform.reach`, merged over its jobs; a limit not
reached is a hole), and
for one that failed the one command that rebuilds and reruns it (its first failing job's ``rerun_run``: ``make sim``
of that run and seed, with the regression's COUNT and RTL, and for a random draw its ``CONFIG_SEED``).
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from pathlib import Path
from typing import Optional

from dlaverif.flow import contracts, testplan
from dlaverif.platform import reach

from . import codecov, fcov
from .collect import Collected
from .execute import NOT_RUN, PASS, SKIPPED


def plan_for(col: Collected, plan: testplan.Plan) -> testplan.Plan:
    """``plan`` with the random draws of every ``CONFIG_SEED`` the collected runs were started with (their
    manifests say which), so that a report made later, or of runs of other seeds, knows their configurations."""
    seeds = sorted({int(m["config_seed"]) for m in col.manifests if m.get("config_seed") is not None})
    if not seeds or seeds == [plan.config_seed]:
        return plan
    runs, builds, configs = dict(plan.runs), dict(plan.builds), dict(plan.configs)
    for seed in seeds:
        other = testplan.load(config_seed=seed)
        runs.update(other.runs)
        builds.update(other.builds)
        configs.update(other.configs)
    return dataclasses.replace(plan, runs=runs, builds=builds, configs=configs)


def _kind(plan: testplan.Plan, build: testplan.PlannedBuild) -> tuple[str, Optional[testplan.Configuration]]:
    cfg = plan.configs.get(build.name)
    if cfg is not None:
        return cfg.kind, cfg
    return ("defaults" if not build.parameters else "plan build"), None


def _coverage(col: Collected, keys: list[str], plan: testplan.Plan, scratch: Path) -> tuple[list, list]:
    """(functional covered, bins, %) and (RTL lines covered, lines, %) of the jobs ``keys`` alone."""
    folders = [Path(col.jobs[k]["folder"]) for k in keys if col.jobs[k]["status"] not in (NOT_RUN, SKIPPED)]
    groups = fcov.covergroups(
        fcov.merge([f for d in folders for f in sorted(d.glob("fcov_*.xml"))], scratch / "fcov.xml"), plan.coverage
    )
    covered, bins = fcov.total(groups)
    merged = codecov.merge([f for d in folders for f in sorted(d.glob("coverage.dat"))], scratch / "code")
    lines = codecov.totals(codecov.score(merged, plan.coverage))["lines"] if merged else [0, 0, 0.0]
    return [covered, bins, round(100.0 * covered / bins, 2) if bins else 0.0], lines


def _reach(
    col: Collected,
    keys: list[str],
    top: str,
    parameters: dict,
    probes: tuple[reach.Probe, ...] = (),
    bounds: Optional[dict] = None,
) -> dict:
    """What the jobs ``keys`` reached (``dlaverif.platform.reach`` records in their folders), the limits of the
    configuration's resolved parameters and the holes between them (none when the top has no such limit).
    ``probes``: the top's occupancy probes, each judged against its depth there, and its beat-lanes probes, each
    judged against one lane and the bus's lane count; ``bounds``: the top's reach
    bounds (limit or occupancy probe -> ``testplan.ReachBound``), each cutting its limit or the queue's depth where
    the RTL cannot reach it (a waiver the row shows, with the bound's value and reason; the bound itself is then
    the limit judged)."""
    folders = [Path(col.jobs[k]["folder"]) for k in keys if col.jobs[k]["status"] not in (NOT_RUN, SKIPPED)]
    reached = reach.merge(reach.read_records(folders))
    try:
        resolved = contracts.resolve(top, parameters)
    except (OSError, ValueError):  # a top outside the project's RTL (third-party, a foreign DMA): no contracts
        resolved = dict(parameters)
    limit = reach.limits(resolved)
    depth = reach.depths(probes, resolved, contracts.evaluate) if probes else {}
    waived = []
    for name, b in sorted((bounds or {}).items()):
        for cut, what in ((limit, name), (depth, f"occupancy {name}")):
            if name in cut:
                value = contracts.evaluate(b.bound, resolved)
                if value < cut[name]:
                    waived.append(f"{what} {cut[name]} cut to {value} ({b.bound}): {b.why}")
                    cut[name] = value
    count = reach.depths(probes, resolved, contracts.evaluate, lanes=True) if probes else {}
    seen, beats = reached.get("occupancy", {}), reached.get("lanes", {})
    occupancy = [{"name": n, "deepest": seen.get(n), "depth": d} for n, d in depth.items()]
    lanes = [
        {"name": n, "narrowest": beats.get(n, [0, 0])[0] or None, "widest": beats.get(n, [0, 0])[1] or None, "lanes": c}
        for n, c in count.items()
    ]
    return {
        "reached": reached,
        "limits": limit,
        "holes": reach.holes(reached, limit, depth, count) if limit or depth or count else [],
        "occupancy": occupancy,
        "lanes": lanes,
        "waived": waived,
    }


def rows(plan: testplan.Plan, col: Collected, scratch_parent: Path) -> list[dict]:
    """One row per configuration that has a job in ``col`` (sorted by top, then kind, then name)."""
    by_build: dict[str, list[str]] = {}
    for key, j in sorted(col.jobs.items()):
        run = plan.runs.get(j["run"])
        if run is not None:
            by_build.setdefault(run.build.name, []).append(key)
    out = []
    scratch = Path(tempfile.mkdtemp(prefix=".configs-", dir=scratch_parent))
    try:
        for i, (name, keys) in enumerate(sorted(by_build.items())):
            build = plan.builds[name]
            kind, cfg = _kind(plan, build)
            jobs = [col.jobs[k] for k in keys]
            statuses = [j["status"] for j in jobs]
            bad = [j for j in jobs if j["status"] not in (PASS, NOT_RUN, SKIPPED)]
            functional, lines = _coverage(col, keys, plan, scratch / str(i))
            parameters = dict(cfg.parameters if cfg is not None else build.parameters)
            rerun = ""
            if bad:
                first = min(bad, key=lambda j: (j["sim"], j["seed"], j["run"], j["test"]))
                rerun = first.get("rerun_run") or first["rerun"]
            out.append(
                {
                    "name": name,
                    "top": build.toplevel,
                    "kind": kind,
                    "parameters": parameters,
                    "config_seed": cfg.seed if cfg is not None else None,
                    "runs": sorted({j["run"] for j in jobs}),
                    "jobs": len(jobs),
                    "passed": statuses.count(PASS),
                    "failed": len(bad),
                    "not_run": statuses.count(NOT_RUN),
                    "skipped": statuses.count(SKIPPED),
                    "status": "fail"
                    if bad
                    else "not run"
                    if NOT_RUN in statuses
                    else SKIPPED
                    if PASS not in statuses
                    else "pass",
                    "functional": functional,
                    "lines": lines,
                    "reach": _reach(
                        col,
                        keys,
                        build.toplevel,
                        parameters,
                        build.options.probes,
                        plan.reach_bounds.get(build.toplevel),
                    ),
                    "rerun": rerun,
                }
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    order = {"defaults": 0, "plan build": 1, "corner": 2, "random": 3}
    return sorted(out, key=lambda r: (r["top"], order.get(r["kind"], 9), r["name"]))
