"""The design's assertions as the testbench sees them (docs/formal.md, "Assertions in simulation").

The property modules of ``blocks/rtl/props/`` are compiled into every simulation (``DLA_ASSERT``): a failing
``PROP_ASSERT`` (the design broke a rule) or ``PROP_ASSUME`` (the environment did: here the testbench's bus models)
appends one line to :data:`LOG_NAME` in the simulation's working directory (``prop_macros.svh``)::

    <time in ns> <ASSERT|ASSUME> <property module instance> <property name>

Two readers of that file, both needed:

* :class:`AssertionLog`, inside a simulation: the reader platform (:mod:`dlaverif.platform`) takes the new lines after
  every job and reports them as violations of that job (with its label and the reproducing command);
* :func:`mark_results`, after a simulation (:func:`dlaverif.flow.runner.run`): every failure is charged to the cocotb
  test
  that was running at its time (``sim_time_start`` .. ``sim_time_stop`` of the JUnit results) and that test is marked
  failed with it, so a violation fails the test that caused it in every flow (``make test``, ``make sim``,
  regressions, mutants), whatever its testbench.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

#: the file the property modules append to, in the simulation's working directory
LOG_NAME = "assertions.log"


@dataclass(frozen=True)
class Failure:
    """One failed check: when (ns), ``ASSERT`` (the design) or ``ASSUME`` (its environment), where, which."""

    time_ns: int
    kind: str
    where: str
    name: str

    def describe(self, period_ns: Optional[float] = None) -> str:
        """One line: the property, the time (and the clock cycle, when the period is known), the instance."""
        cycle = f" (cycle {int(self.time_ns // period_ns)})" if period_ns else ""
        side = "design" if self.kind == "ASSERT" else "environment (bus model)"
        return f"{self.kind} '{self.name}' failed at {self.time_ns} ns{cycle} in {self.where} [{side}]"


def parse(text: str) -> list[Failure]:
    """The failures of a log's text, in order. A line that is not a failure line is kept whole as a failure of
    unknown name (never dropped: a truncated log still fails the run)."""
    out: list[Failure] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        parts = line.split(" ", 3)
        if len(parts) == 4 and parts[0].isdigit() and parts[1] in ("ASSERT", "ASSUME"):
            where = parts[2].removesuffix(".prop_failed")  # %m inside the reporting task names the task too
            out.append(Failure(int(parts[0]), parts[1], where, parts[3].strip()))
        else:
            out.append(Failure(0, "ASSERT", "?", f"unreadable assertion log line: {line.strip()[:120]}"))
    return out


class AssertionLog:
    """Reads the failures appended to the log since the previous :meth:`take` (inside a running simulation). The
    lines already there when it is created belong to earlier tests of the same simulation and are skipped."""

    def __init__(self, path: Optional[Path] = None) -> None:
        self.path = path if path is not None else Path.cwd() / LOG_NAME
        self.offset = self.path.stat().st_size if self.path.exists() else 0

    def take(self) -> list[Failure]:
        if not self.path.exists():
            return []
        with self.path.open("rb") as f:
            f.seek(self.offset)
            data = f.read()
        end = data.rfind(b"\n") + 1  # a line still being written is read next time
        self.offset += end
        return parse(data[:end].decode(errors="replace"))


def case_time_ns(case: ET.Element, name: str) -> float:
    """A simulated time property of a cocotb JUnit ``<testcase>`` (``sim_time_start``, ``_stop``, ``_duration``),
    in ns (its unit is ``sim_time_unit``)."""
    props = {p.get("name"): p.get("value") for p in case.iter("property")}
    unit = {"fs": 1e-6, "ps": 1e-3, "ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}.get(
        props.get("sim_time_unit") or "ns", 1.0
    )
    return float(props.get(name) or 0) * unit


def mark_results(results: Path, log: Optional[Path] = None) -> list[Failure]:
    """Charge every failure of ``log`` (default: :data:`LOG_NAME` beside ``results``) to the test of the JUnit
    ``results`` whose simulated time span holds it (a failure after the last test's stop goes to the last test) and
    add a ``<failure>`` to that test (or extend its message). Rewrites ``results`` only when there is a failure.
    Returns the failures."""
    log = log if log is not None else results.parent / LOG_NAME
    if not log.exists() or not results.exists():
        return []
    failures = parse(log.read_text(errors="replace"))
    if not failures:
        return []
    tree = ET.parse(results)
    cases = list(tree.getroot().iter("testcase"))
    if not cases:
        return failures

    spans = [(case_time_ns(c, "sim_time_start"), case_time_ns(c, "sim_time_stop")) for c in cases]
    charged: dict[int, list[Failure]] = {}
    for f in failures:
        index = next((i for i, (lo, hi) in enumerate(spans) if lo <= f.time_ns <= hi), None)
        if index is None:
            index = max(range(len(cases)), key=lambda i: spans[i][0] if spans[i][0] <= f.time_ns else -1.0)
        charged.setdefault(index, []).append(f)
    for index, mine in charged.items():
        case = cases[index]
        text = f"{len(mine)} assertion failure(s); first: {mine[0].describe()}"
        fail = case.find("failure")
        if fail is None:
            fail = case.find("error")
        if fail is None:
            ET.SubElement(case, "failure", {"message": text})
        else:
            fail.set("message", f"{text}; {fail.get('message') or ''}")
    for suite in tree.getroot().iter("testsuite"):
        suite.set("failures", str(sum(1 for c in suite.iter("testcase") if c.find("failure") is not None)))
    tree.write(results, encoding="utf-8", xml_declaration=True)
    return failures
