"""Read regressions back: run folders, shard folders, or ``.tar.gz`` archives of them copied from other machines.

Every input is searched for ``manifest.json`` files (one per regression or shard folder, written by the launcher);
each job record (``job.json``) is read with the paths of its coverage files and of its mismatch maps
(``mismatch_*.svg``, written by the scoreboards, :mod:`dlaverif.platform.mismatch_map`). Jobs are keyed by
``sim:run:test:seed``; a job found twice counts once: the newest record (``ended``; a job rerun by a resume with
``RERUN=failed``, in another folder than its first try when the run was resumed on the other launcher), the last
input winning between equally old ones (the same shard collected twice).

Every job a manifest lists is in the result: one with no record (an interrupted run, a shard cancelled or whose
node died, a Slurm shard that never started: the Slurm launcher writes a manifest of every job into the base
folder) is a ``not run`` record, never a silent gap. A ``not run`` job contributes no coverage.
"""

from __future__ import annotations

import re
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

from dlaverif.flow import project, records

_DEFAULT_RTL = str(project.RTL)


NOT_RUN = "not run"


def not_run_record(key: str, manifest: dict) -> dict:
    """The record of a job of ``manifest`` that left none (the same fields as a job.json)."""
    from .execute import rerun_command  # execute imports the runner; collect stays light for the tests
    from .jobs import Job

    sim, rest = key.split(":", 1)
    run, test, seed = rest.rsplit(":", 2)
    count = str(manifest.get("count") or "")
    drawn = run in manifest.get("random_runs", [])  # a random draw of the configuration matrix: its CONFIG_SEED
    job = Job(sim, run, test, int(seed), count, manifest.get("config_seed") if drawn else None)
    rtl = manifest.get("rtl") or ""
    rtl_dir = Path(rtl) if rtl and rtl != _DEFAULT_RTL else None
    return {
        **job.to_dict(),
        "key": key,
        "status": NOT_RUN,
        "first_error": "not run",
        "signal": None,
        "log_tail": [],
        "log": "",
        "wall_s": 0.0,
        "sim_time_ns": 0.0,
        "tests": [],
        "folder": manifest["folder"],
        "rerun": rerun_command(job, manifest["suite"], bool(count), rtl_dir),
        "rerun_run": rerun_command(job, manifest["suite"], bool(count), rtl_dir, whole_run=True),
    }


@dataclass
class Collected:
    manifests: list[dict] = field(default_factory=list)
    jobs: dict[str, dict] = field(default_factory=dict)  # key -> job record (+ "folder")
    fcov_files: list[Path] = field(default_factory=list)
    code_files: list[Path] = field(default_factory=list)
    build_walls: list[tuple[str, float, None]] = field(default_factory=list)  # (durations key, seconds, no count)


def _unpack(archive: Path, into: Path) -> Path:
    dest = into / archive.name.removesuffix(".tar.gz").removesuffix(".tgz")
    if not dest.is_dir():
        dest.mkdir(parents=True)
        with tarfile.open(archive) as tar:
            tar.extractall(dest, filter="data")
    return dest


def _natural(p: Path) -> list:
    """Sort key: numbers in the name by value (``cube9`` before ``cube10``)."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", p.name)]


#: the fields of a job record (job.json) that reading a run back relies on, and their types
JOB_FIELDS: dict[str, type | tuple[type, ...]] = {
    "key": str,
    "status": str,
    "log": str,
    "first_error": str,
    "wall_s": (int, float),
}


_TOLD: set[str] = set()  # the unreadable job records this process has named


def _is_job(rec: object) -> bool:
    """A job record of the shape :func:`collect` and the report read (a status a job writes, not ``not run``)."""
    from .execute import STATUSES  # execute imports the runner; collect stays light for the tests

    return (
        isinstance(rec, dict)
        and all(isinstance(rec.get(k), t) for k, t in JOB_FIELDS.items())
        and rec["status"] in STATUSES
        and rec["status"] != NOT_RUN
        and isinstance(rec.get("ended", 0.0), (int, float))
    )


def _is_manifest(m: object) -> bool:
    """A regression's manifest: its suite, and the keys of its jobs when it lists them (an older one may not)."""
    return (
        isinstance(m, dict)
        and isinstance(m.get("suite"), str)
        and isinstance(m.get("jobs", []), list)
        and all(isinstance(k, str) for k in m.get("jobs", []))
    )


def collect(inputs: list[Path], scratch: Path) -> Collected:
    """Gather every regression folder below each input (a folder or an archive; archives unpack into scratch)."""
    from .execute import read_build_walls  # execute imports the runner; collect stays light for the tests
    from .jobs import build_key

    out = Collected()
    for inp in inputs:
        inp = Path(inp)
        if inp.is_file() and inp.name.endswith((".tar.gz", ".tgz")):
            inp = _unpack(inp, scratch)
        if not inp.is_dir():
            raise FileNotFoundError(f"no regression folder or archive at {inp}")
        manifests = sorted(inp.rglob("manifest.json"))
        if not manifests:
            raise FileNotFoundError(f"{inp} holds no regression (no manifest.json below it)")
        for mf in manifests:
            reg = mf.parent
            out.manifests.append({**records.read_json(mf, _is_manifest, "regression manifest"), "folder": str(reg)})
            out.build_walls += [
                (build_key(*key.split("/", 1)), wall, None) for key, wall in sorted(read_build_walls(reg).items())
            ]
            for jf in sorted(reg.glob("runs/*/*/*/seed*/job.json")):
                try:
                    rec = records.read_json(jf, _is_job, "job record")
                except records.BadRecord as exc:  # a write cut short by a full disk or a crash: not a result
                    if str(jf) not in _TOLD:  # said once, however often this process reads the folder
                        _TOLD.add(str(jf))
                        print(f"regress: {exc}; the job counts as not run", file=sys.stderr, flush=True)
                    continue
                rec["folder"] = str(jf.parent)
                rec["log"] = str(reg / rec["log"])
                known = out.jobs.get(rec["key"])
                if known is None or known.get("ended", 0.0) <= rec.get("ended", 0.0):
                    out.jobs[rec["key"]] = rec
    for manifest in out.manifests:
        for key in manifest.get("jobs", []):
            if key not in out.jobs:
                out.jobs[key] = not_run_record(key, manifest)
    for rec in out.jobs.values():
        if rec["status"] == NOT_RUN:
            rec["maps"] = []
            continue
        folder = Path(rec["folder"])
        out.fcov_files += sorted(folder.glob("fcov_*.xml"))
        out.code_files += sorted(folder.glob("coverage.dat"))
        rec["maps"] = [str(p) for p in sorted(folder.glob("mismatch_*.svg"), key=_natural)]
    return out
