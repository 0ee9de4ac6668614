"""The scoreboard base every reader shares: pairing a finished job with what the monitors published, reporting."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Optional

from pyuvm import ConfigDB, uvm_analysis_port, uvm_subscriber

from dlaverif.agents.analysis import JobLog
from dlaverif.platform.mismatch_map import DiffRows, write_map
from dlaverif.platform.reporting import MAX_REPORTS, max_maps, reproduce_command
from dlaverif.platform.tb import ReaderTB


class JobScoreboard(uvm_subscriber):
    """Pairs each finished job with what the TB's monitors published since the previous one, checks it, reports a
    mismatch with the block's details and the reproducing command, and forwards the checked job on ``ap``.

    Self-test hooks: ``corrupt(item, expected)`` corrupts the model's answer; ``expect_reports`` maps item names to
    a text their report must contain (and only those items may be reported).

    A block that counts what it checked (atoms, pixels, bytes) names it in :attr:`counted` and adds to
    :attr:`units_checked`; the summary then says how many."""

    #: what :attr:`units_checked` counts, for the summary ("atoms", "pixels", "dense bytes"); "": nothing counted
    counted = ""

    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.log: Optional[JobLog] = None
        self.tb: Optional[ReaderTB] = None
        self.addr_bits: int = ConfigDB().get(self, "", "ADDR_BITS")  # AXI_ADDR_W (the test base sets it)
        self.units_checked = 0
        self.checked = 0
        self.dropped = 0  # jobs a reset dropped while in flight (checked for their reads only)
        self.check_seconds = 0.0  # wall time spent comparing with the models (make bench reports it)
        self.errors = 0
        self.reports: list[tuple[str, str]] = []  # (item name, the report in one line)
        self.protocol: list[tuple[str, str]] = []  # (item name, its first protocol error)
        self.corrupt: Optional[Callable[[Any, Any], object]] = None
        self.expect_reports: dict[str, str] = {}
        self.maps: list[Path] = []  # mismatch maps written by this test (at most max_maps())
        self._expected: Any = None  # the answer the last job was compared with (drawn on a mismatch)

    def observe(self, tb: ReaderTB) -> None:
        """Subscribe to the TB's monitors and checkers (connect phase)."""
        self.tb = tb
        self.log = tb.observe()

    def write(self, item) -> None:
        assert self.log is not None, "observe() subscribed the scoreboard in the connect phase"
        t0 = time.perf_counter()
        item.response().observe(self.tb.control.split(item, self.log) if self.tb is not None else self.log.take())
        protocol = self.tb.protocol_problems(item) if self.tb is not None else []
        if protocol:
            self.protocol.append((item.get_name(), protocol[0]))
        dropped = item.response().dropped
        if dropped is not None:  # a reset dropped it in flight: no answer is owed, its reads still obey the rules
            self.dropped += 1
            self.logger.info("job %s dropped in flight by the reset at cycle %d", item.label(), dropped)
        problems = protocol + (self.problems(item) if dropped is None else item.response().violations)
        self.check_seconds += time.perf_counter() - t0
        self.checked += 1
        if problems:
            self.report(item, problems)
        self._expected = None
        self.ap.write(item)

    def report(self, item, problems: list[str]) -> None:
        self.errors += 1
        note = self.draw(item)
        if note:
            problems = problems + [note]
        head = f"{item.label()}: {problems[0]}"
        self.reports.append((item.get_name(), head + " | " + " | ".join(problems[1:])))
        if len(self.reports) <= MAX_REPORTS:
            body = "\n    ".join(problems[1:] + self.details(item))
            kind = "PROTOCOL" if problems[0].startswith("protocol error") else "MISMATCH"
            self.logger.error("%s %s\n    %s\n    reproduce: %s", kind, head, body, self.reproduce())

    def draw(self, item) -> str:
        """On a mismatch: the mismatch map of the job's data (:mod:`dlaverif.platform.mismatch_map`) written into the
        run folder (the simulation's working directory) as ``mismatch_<test>_<item>.svg``, at most :func:`max_maps` per
        test; returns the report line naming the file, or "" (the data matched, the cap is reached, no rows)."""
        if len(self.maps) >= max_maps() or self._expected is None:
            return ""
        try:
            rows = self.diff_rows(item, self._expected)
            if rows is None:
                return ""
            test = ConfigDB().get(None, "", "TEST_NAME", "test")
            name = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in f"{test}_{item.get_name()}")
            info = write_map(rows, Path.cwd() / f"mismatch_{name}.svg")
        except Exception as exc:  # a picture must never hide the mismatch it illustrates
            self.logger.warning("mismatch map of %s not drawn: %s: %s", item.get_name(), type(exc).__name__, exc)
            return ""
        if info is None:
            return ""
        self.maps.append(info.path)
        return info.note()

    # ------------------------------------------------------------------ per block
    def problems(self, item) -> list[str]:
        """The model's answer (:meth:`expected`), corrupted by the self-test hook if set, compared with the job."""
        exp = self.expected(item)
        if self.corrupt is not None:
            exp = exp.copy()
            self.corrupt(item, exp)
        self._expected = exp
        return self.compare(item, exp)

    def diff_rows(self, item, exp) -> Optional[DiffRows]:
        """The job's data against ``exp`` cut in the block's rows, for its mismatch map (called on a mismatch
        only); None when the block has no data to draw (the default)."""
        return None

    def expected(self, item) -> Any:
        """What the models say the job must give (an object with ``copy()``)."""
        raise NotImplementedError

    def compare(self, item, exp) -> list[str]:
        """The job's problems against ``exp`` (empty when it matches)."""
        raise NotImplementedError

    def details(self, item) -> list[str]:
        """Extra lines of a mismatch report (descriptor, knobs)."""
        return []

    def reproduce(self) -> str:
        """The command that reruns the test with the same stimulus
        (:func:`dlaverif.platform.reporting.reproduce_command`)."""
        return reproduce_command()

    def summary(self) -> str:
        if self.counted:
            return f"{self.checked} jobs, {self.units_checked} {self.counted} checked, {self.errors} mismatching jobs"
        dropped = f", {self.dropped} dropped in flight by a reset" if self.dropped else ""
        return f"{self.checked} jobs, {self.errors} mismatching{dropped}"

    # ------------------------------------------------------------------ end of test
    def check_phase(self) -> None:
        assert self.log is not None, "observe() subscribed the scoreboard in the connect phase"
        if self.tb is not None:
            self.tb.publish_assertions()  # what failed after the last job
        after = self.log.take()
        if any(after.values()):
            self.errors += 1
            self.reports.append(
                (
                    "<after the last job>",
                    f"{len(after['out'])} transfer(s), {len(after['ar'])} "
                    f"AR(s) after the last job; violations: {after['violations'][:3]}",
                )
            )
        self.logger.info("scoreboard: %s", self.summary())
        assert self.checked > 0, "scoreboard checked nothing"
        if self.expect_reports:
            got = dict(self.reports)
            missed = sorted(set(self.expect_reports) - set(got))
            assert not missed, f"scoreboard did not report the corrupted job(s) {missed}"
            for name, needle in self.expect_reports.items():
                assert needle in got[name], f"{name}: report {got[name]!r} does not mention {needle!r}"
            self.logger.info(
                "scoreboard self-test: all %d corruptions reported where they were made", len(self.expect_reports)
            )
        unexpected = [(n, t) for n, t in self.reports if n not in self.expect_reports]
        late = [p for p in self.protocol if p[0] not in self.expect_reports]
        assert not late, (  # one sentence, before any data check: a late transfer is never a data mismatch
            late[0][1]
            + (f" ({len(late) - 1} more job(s) affected)" if len(late) > 1 else "")
            + f"; reproduce: {self.reproduce()}"
        )
        assert not unexpected, (
            f"{len(unexpected)} of {self.checked} jobs mismatched; first: {unexpected[0][1]}; "
            f"reproduce: {self.reproduce()}"
        )
