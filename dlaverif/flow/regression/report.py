"""The regression report: ``results.json`` (machine readable), ``summary.md`` (what CI prints), ``junit.xml`` (one
JUnit file for the whole regression) and ``index.html`` (a static page rendered with Jinja2 from
``templates/``, opened from disk).

:func:`build_results` is the one place that turns collected jobs and merged coverage into the report's data; every
output renders that data. Its ``signature`` part (job outcomes, functional and code coverage) holds nothing that
depends on the machine or the clock, so two runs of the same suite and seeds can be compared by it.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

import jinja2

from dlaverif.flow import records, testplan

from . import codecov, fcov
from .collect import Collected
from .execute import ERROR, NOT_RUN, PASS, SKIPPED, STATUSES

TEMPLATES = Path(__file__).resolve().parent / "templates"


def _env() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def copy_maps(col: Collected, out: Path) -> dict[str, list[str]]:
    """Copy every job's mismatch maps into ``out/maps/<sim>/<run>/<test>/seed<N>/`` (the report opens from disk and
    may move: it links its own copies); returns job key -> paths relative to ``out``."""
    links: dict[str, list[str]] = {}
    for key, rec in sorted(col.jobs.items()):
        for src in rec.get("maps", []):
            rel = Path("maps") / rec["sim"] / rec["run"] / rec["test"] / f"seed{rec['seed']}" / Path(src).name
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, out / rel)
            links.setdefault(key, []).append(rel.as_posix())
    return links


def _failures(jobs: list[dict], maps: dict[str, list[str]]) -> list[dict]:
    """Every job that did not pass (``not run`` ones too; ``skipped`` ones are :func:`_skipped`'s), with its status
    and reason; the jobs of one failed build (status ``error``, the same reason) are one row that counts them."""
    out: list[dict] = []
    build_rows: dict[str, dict] = {}
    for j in jobs:
        if j["status"] in (PASS, SKIPPED):
            continue
        if j["status"] == ERROR and j["first_error"].startswith("build "):
            row = build_rows.get(j["first_error"])
            if row is not None:
                row["jobs"] += 1
                continue
        row = {
            **{k: j[k] for k in ("sim", "run", "test", "seed", "status", "first_error", "log", "rerun")},
            "log_tail": j.get("log_tail", []),
            "maps": maps.get(j["key"], []),
            "jobs": 1,
        }
        if j["status"] == ERROR and j["first_error"].startswith("build "):
            build_rows[j["first_error"]] = row
        out.append(row)
    return out


def _skipped(jobs: list[dict]) -> list[dict]:
    """One row per (simulator, run) whose jobs were skipped (its third-party RTL not found): how many, and the line
    saying how to get the files."""
    rows: dict[tuple[str, str], dict] = {}
    for j in jobs:
        if j["status"] == SKIPPED:
            row = rows.setdefault((j["sim"], j["run"]), {"sim": j["sim"], "run": j["run"], "jobs": 0})
            row["jobs"] += 1
            row["reason"] = j["first_error"]
    return [rows[k] for k in sorted(rows)]


def resume_command(col: Collected) -> str:
    """The command that runs what an incomplete regression left: a resume of the folder whose manifest lists the
    most jobs (a local run's folder; for Slurm the base folder, whose manifest lists every shard's jobs)."""
    if not col.manifests:
        return ""
    whole = max(col.manifests, key=lambda m: (len(m.get("jobs", [])), m["folder"]))
    return f"make regress RESUME={Path(whole['folder']).resolve()}"


def build_results(
    plan: testplan.Plan,
    col: Collected,
    groups: list[fcov.Covergroup],
    files: list[codecov.FileCoverage],
    maps: dict[str, list[str]] | None = None,
) -> dict:
    """Everything the report shows, as plain data (``maps``: job key -> its mismatch maps, :func:`copy_maps`)."""
    jobs = [col.jobs[k] for k in sorted(col.jobs)]
    maps = maps or {}
    failures = _failures(jobs, maps)
    seeds = sorted({j["seed"] for j in jobs})
    per_test: dict[tuple, dict] = defaultdict(lambda: {"seeds": {}, "wall_s": 0.0})
    for j in jobs:
        row = per_test[(j["sim"], j["run"], j["test"])]
        row["seeds"][j["seed"]] = j["status"]
        row["wall_s"] += j["wall_s"]
    tests = [
        {
            "sim": s,
            "run": r,
            "test": t,
            "id": testplan.test_id(plan.runs[r].module, t),
            **v,
            "wall_s": round(v["wall_s"], 1),
            "passed": all(x == PASS for x in v["seeds"].values()),
            "skipped": all(x == SKIPPED for x in v["seeds"].values()),
        }
        for (s, r, t), v in sorted(per_test.items())
    ]
    by_group = {g.name: g for g in groups}
    testpoints = []
    for tp in plan.testpoints:
        rows = [t for t in tests if t["id"] in tp.tests]
        ran = [r for r in rows if not r["skipped"]]  # a skipped test (its RTL not found) neither passes nor fails
        cgs = [
            {
                "name": c,
                "percent": round(by_group[c].percent, 2) if c in by_group else None,
                "met": by_group[c].met if c in by_group else False,
            }
            for c in tp.covergroups
        ]
        status = "not run" if not rows else SKIPPED if not ran else "pass" if all(r["passed"] for r in ran) else "fail"
        testpoints.append(
            {
                "name": tp.name,
                "desc": tp.desc,
                "tests": list(tp.tests),
                "rows": rows,
                "covergroups": cgs,
                "status": status,
            }
        )
    fc, fs = fcov.total(groups)
    code = codecov.totals(files)
    by_status = {st: sum(j["status"] == st for j in jobs) for st in STATUSES}
    passed, not_run, skipped = by_status[PASS], by_status[NOT_RUN], by_status[SKIPPED]
    signature = {
        "jobs": {j["key"]: j["status"] for j in jobs},
        "functional": {g.name: {"covered": g.covered, "size": g.size, "holes": g.holes} for g in groups},
        "code": {f.file: {k: v for k, v in f.to_dict().items() if k in ("line", "branch", "toggle")} for f in files},
    }
    return {
        "regression": {
            "suites": sorted({m["suite"] for m in col.manifests}),
            "sims": sorted({j["sim"] for j in jobs}),
            "seeds": seeds,
            "jobs": len(jobs),
            "passed": passed,
            "failed": len(jobs) - passed - not_run - skipped,  # fail, error, timeout, crashed
            "not_run": not_run,
            "skipped": skipped,
            "by_status": by_status,
            "complete": not_run == 0,
            "shards": sorted({m.get("shard", "1/1") for m in col.manifests if m.get("shard", "1/1")}),
            "inputs": sorted(m["folder"] for m in col.manifests),
        },
        "functional": {
            "covered": fc,
            "bins": fs,
            "percent": round(100.0 * fc / fs, 2) if fs else 0.0,
            "covergroups": [g.to_dict() for g in groups],
        },
        "code": {"totals": code, "line_goal": plan.coverage.line_goal, "files": [f.to_dict() for f in files]},
        "failures": failures,
        "skipped": _skipped(jobs),
        "tests": tests,
        "testpoints": testpoints,
        "jobs": [
            {
                k: j[k]
                for k in (
                    "key",
                    "sim",
                    "run",
                    "test",
                    "seed",
                    "status",
                    "wall_s",
                    "sim_time_ns",
                    "first_error",
                    "log",
                    "rerun",
                )
            }
            | {"log_tail": j.get("log_tail", [])}
            for j in jobs
        ],
        "signature": signature,
        "configurations": [],  # the configuration axis (.configaxis.rows), filled in by the report's builder
        "resume": resume_command(col) if not_run else "",
    }


def junit(results: dict, path: Path) -> Path:
    """One JUnit XML for the whole regression: a testsuite per (simulator, run), a testcase per job."""
    g = results["regression"]
    root = ET.Element(
        "testsuites",
        name="regression" if g.get("complete", True) else "regression (incomplete)",
        tests=str(g["jobs"]),
        failures=str(g.get("by_status", {}).get("fail", g["failed"])),
        errors=str(g["failed"] - g.get("by_status", {}).get("fail", g["failed"])),
        skipped=str(g.get("not_run", 0) + g.get("skipped", 0)),
    )
    suites: dict[str, ET.Element] = {}
    for j in results["jobs"]:
        name = f"{j['sim']}.{j['run']}"
        if name not in suites:
            suites[name] = ET.SubElement(root, "testsuite", name=name)
        case = ET.SubElement(
            suites[name], "testcase", classname=name, name=f"{j['test']}[seed={j['seed']}]", time=f"{j['wall_s']:.2f}"
        )
        if j["status"] == NOT_RUN:
            ET.SubElement(case, "skipped", message="not run")
        elif j["status"] == SKIPPED:  # its third-party RTL is not found: the line says how to get it
            ET.SubElement(case, "skipped", message=j["first_error"])
        elif j["status"] != PASS:  # fail: a check failed; error, timeout, crashed: the job did not end normally
            kind = "failure" if j["status"] == "fail" else "error"
            fail = ET.SubElement(case, kind, type=j["status"], message=f"{j['status']}: {j['first_error']}")
            tail = "".join(f"\n  {ln}" for ln in j.get("log_tail", []))
            fail.text = f"log: {j['log']}\nrerun: {j['rerun']}" + (f"\nlast lines of the log:{tail}" if tail else "")
    for s in suites.values():
        cases = list(s)
        s.set("tests", str(len(cases)))
        s.set("failures", str(sum(c.find("failure") is not None for c in cases)))
        s.set("errors", str(sum(c.find("error") is not None for c in cases)))
        s.set("skipped", str(sum(c.find("skipped") is not None for c in cases)))
    ET.indent(root)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path


def write(results: dict, out: Path) -> dict[str, Path]:
    """Write every output into ``out``; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    env = _env()
    paths = {
        "json": out / "results.json",
        "md": out / "summary.md",
        "html": out / "index.html",
        "junit": out / "junit.xml",
    }
    records.write_json(paths["json"], results, indent=1, sort_keys=True)
    records.write_text(paths["md"], env.get_template("summary.md.j2").render(r=results))
    records.write_text(paths["html"], env.get_template("index.html.j2").render(r=results))
    junit(results, paths["junit"])
    return paths
