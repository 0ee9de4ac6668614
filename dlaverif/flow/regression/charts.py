"""The report's charts: static SVG files next to ``index.html`` (matplotlib, Agg backend), drawn from the report's
data (:func:`dlaverif.flow.regression.report.build_results`) and the history's trend (:mod:`.history`).

* ``charts/covergroups.svg``: functional coverage per covergroup (bars, the goal marked);
* ``charts/testpoints.svg``: functional coverage per testpoint (its covergroups' bins together);
* ``charts/walltime.svg``: wall time per test, all seeds;
* ``charts/trend.svg``: pass rate, functional and line coverage across the kept regressions (with two or more).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.fonttype"] = "none"  # labels stay text in the SVG
matplotlib.rcParams["svg.hashsalt"] = "charts"  # the same data gives the same file (ids do not change)

import matplotlib.pyplot as plt  # noqa: E402  (after matplotlib.use)

_PASS, _FAIL, _BELOW, _NONE = "#74c476", "#ef6548", "#fdae6b", "#bdbdbd"


def _bars(
    labels: list[str],
    values: list[float],
    colors: list[str],
    xlabel: str,
    title: str,
    out: Path,
    goals: list[float] | None = None,
    xmax: float | None = None,
    texts: list[str] | None = None,
) -> Path:
    """Horizontal bars, one per label, top to bottom; ``goals`` marked as ticks."""
    n = max(len(labels), 1)
    width_in = 4.5 + 0.06 * max((len(s) for s in labels), default=0)
    fig, ax = plt.subplots(figsize=(width_in, 0.9 + 0.2 * n))
    y = list(range(len(labels)))
    ax.barh(y, values, color=colors, height=0.7)
    if goals:
        ax.scatter(goals, y, marker="|", s=120, color="black", zorder=3, label="goal")
        ax.legend(loc="lower right", fontsize=7, frameon=False)
    for yi, v, t in zip(y, values, texts or [f"{v:.1f}" for v in values]):
        ax.text(v, yi, f" {t}", va="center", fontsize=6.5)
    ax.set_yticks(y, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_title(title, fontsize=9)
    if xmax is not None:
        ax.set_xlim(0, xmax)
    ax.tick_params(axis="x", labelsize=7)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out


def covergroups(results: dict, out: Path) -> Path | None:
    """Functional coverage per covergroup, its goal marked; None when no covergroup was sampled."""
    groups = results["functional"]["covergroups"]
    if not groups:
        return None
    return _bars(
        [g["name"] for g in groups],
        [g["percent"] for g in groups],
        [_PASS if g["percent"] >= g["goal"] else _BELOW for g in groups],
        "bins covered (%)",
        f"Functional coverage per covergroup: {results['functional']['percent']:.1f}% of all bins",
        out,
        goals=[g["goal"] for g in groups],
        xmax=112,
    )


def testpoint_coverage(results: dict) -> list[tuple[str, float | None]]:
    """(testpoint, % of the bins of its covergroups covered) for the testpoints that name covergroups; None when
    none of them was sampled."""
    by_name = {g["name"]: g for g in results["functional"]["covergroups"]}
    out: list[tuple[str, float | None]] = []
    for tp in results["testpoints"]:
        names = [c["name"] for c in tp["covergroups"]]
        if not names:
            continue
        sampled = [by_name[n] for n in names if n in by_name]
        size = sum(g["size"] for g in sampled)
        out.append((tp["name"], 100.0 * sum(g["covered"] for g in sampled) / size if size else None))
    return out


def testpoints(results: dict, out: Path) -> Path | None:
    """Functional coverage per testpoint (grey: no covergroup of it sampled in this regression)."""
    rows = testpoint_coverage(results)
    if not rows:
        return None
    return _bars(
        [n for n, _ in rows],
        [p or 0.0 for _, p in rows],
        [_NONE if p is None else _PASS if p >= 100.0 else _BELOW for _, p in rows],
        "bins of its covergroups covered (%)",
        "Functional coverage per testpoint",
        out,
        xmax=112,
        texts=["not sampled" if p is None else f"{p:.1f}" for _, p in rows],
    )


def walltime(results: dict, out: Path) -> Path | None:
    """Wall time per test over all its seeds (red: a seed failed)."""
    tests = results["tests"]
    if not tests:
        return None
    sims = {t["sim"] for t in tests}
    return _bars(
        [f"{t['run']}::{t['test']}" + (f" [{t['sim']}]" if len(sims) > 1 else "") for t in tests],
        [t["wall_s"] for t in tests],
        [_PASS if t["passed"] else _NONE if t.get("skipped") else _FAIL for t in tests],
        "wall time, all seeds (s)",
        f"Wall time per test ({sum(t['wall_s'] for t in tests):.0f} s in all)",
        out,
    )


def trend(points: list[dict], out: Path) -> Path | None:
    """Pass rate, functional and line coverage across the kept regressions (oldest left); None with fewer than
    two."""
    if len(points) < 2:
        return None
    x = list(range(len(points)))
    fig, ax = plt.subplots(figsize=(max(5.0, 0.55 * len(points) + 2.5), 3.4))
    ax.plot(x, [p["pass_rate"] for p in points], "o-", color="#238b45", label="jobs passed (%)")
    ax.plot(x, [p["functional"] for p in points], "s-", color="#2171b5", label="functional bins (%)")
    lines = [(i, p["line"]) for i, p in enumerate(points) if p["line"] is not None]
    if lines:
        ax.plot([i for i, _ in lines], [v for _, v in lines], "^-", color="#6a51a3", label="RTL lines (%)")
    ax.set_xticks(x, [p["name"] for p in points], rotation=30, ha="right", fontsize=6.5)
    ax.set_ylim(0, 105)
    ax.set_ylabel("%", fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower left", frameon=False)
    ax.set_title(f"Across {len(points)} regressions (history)", fontsize=9)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out


def draw_all(results: dict, points: list[dict], out: Path) -> dict[str, str]:
    """Every chart into ``out/charts/``; returns name -> path relative to ``out`` (the ones drawn)."""
    folder = out / "charts"
    drawn = {
        "covergroups": covergroups(results, folder / "covergroups.svg"),
        "testpoints": testpoints(results, folder / "testpoints.svg"),
        "walltime": walltime(results, folder / "walltime.svg"),
        "trend": trend(points, folder / "trend.svg"),
    }
    return {k: str(p.relative_to(out)) for k, p in drawn.items() if p is not None}
