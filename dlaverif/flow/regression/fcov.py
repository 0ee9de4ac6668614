"""Functional coverage of a regression: every job's cocotb-coverage XML merged with cocotb-coverage's own
``merge_coverage`` (hits add up across tests, seeds and shards), then scored against the testplan's goals with its
exclusions (``coverage:`` in ``blocks/plan.yaml``).

An excluded bin leaves the denominator of its covergroup (and is listed with its tag and reason); a bin is covered
when its merged hits reach the cover point's ``at_least``. The order of the merged files is fixed (sorted paths)
so the same runs give the same merged file.
"""

from __future__ import annotations

import fnmatch
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from cocotb_coverage.coverage import merge_coverage

from dlaverif.flow import testplan


@dataclass
class Covergroup:
    name: str
    goal: float
    bins: dict[str, int]  # bin -> merged hits
    at_least: int = 1
    excluded: dict[str, testplan.Exclusion] = field(default_factory=dict)

    @property
    def holes(self) -> list[str]:
        return [b for b, h in self.bins.items() if h < self.at_least and b not in self.excluded]

    @property
    def size(self) -> int:
        return len(self.bins) - len(self.excluded)

    @property
    def covered(self) -> int:
        return self.size - len(self.holes)

    @property
    def percent(self) -> float:
        return 100.0 * self.covered / self.size if self.size else 100.0

    @property
    def met(self) -> bool:
        return self.percent >= self.goal

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "goal": self.goal,
            "percent": round(self.percent, 2),
            "covered": self.covered,
            "size": self.size,
            "holes": self.holes,
            "hits": self.bins,
            "excluded": {b: {"tag": e.tag, "reason": e.reason} for b, e in self.excluded.items()},
        }


def merge(files: list[Path], out: Path) -> Path | None:
    """Merge cocotb-coverage XML files into ``out`` (None when there is nothing to merge)."""
    files = sorted(Path(f) for f in files)
    if not files:
        return None
    out.parent.mkdir(parents=True, exist_ok=True)
    merge_coverage(lambda _msg: None, str(out), *map(str, files))
    return out


def covergroups(merged: Path | None, cov: testplan.CoveragePlan) -> list[Covergroup]:
    """Every cover point / cross of the merged database, with goals and exclusions applied."""
    if merged is None:
        return []
    out = []
    for el in ET.parse(merged).getroot().iter():
        name = el.attrib.get("abs_name", "").removeprefix("top.")
        if "at_least" not in el.attrib or name.count(".") != 1:
            continue
        bins = {b.attrib["bin"]: int(b.attrib["hits"]) for b in el if "bin" in b.attrib}
        excluded = {
            b: e for b in bins for e in cov.exclusions if e.covergroup == name and fnmatch.fnmatchcase(b, e.bin)
        }
        out.append(Covergroup(name, cov.goal(name), bins, int(el.attrib["at_least"]), excluded))
    return sorted(out, key=lambda g: g.name)


def total(groups: list[Covergroup]) -> tuple[int, int]:
    """(covered bins, bins) over all covergroups, exclusions removed."""
    return sum(g.covered for g in groups), sum(g.size for g in groups)
