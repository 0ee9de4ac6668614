"""The pyuvm env every reader shares: sequencer, driver, scoreboard, coverage."""

from __future__ import annotations

from typing import Optional

from pyuvm import ConfigDB, uvm_env, uvm_sequencer

from dlaverif.platform.driver import JobDriver
from dlaverif.platform.scoreboard import JobScoreboard
from dlaverif.platform.tb import ReaderTB


class ReaderEnv(uvm_env):
    """Sequencer, driver, scoreboard and coverage of one reader; subclasses set the two classes."""

    scoreboard_cls: type = JobScoreboard
    coverage_cls: Optional[type] = None

    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.driver = JobDriver("driver", self)
        self.scoreboard = self.scoreboard_cls("scoreboard", self)
        self.coverage = self.coverage_cls("coverage", self) if self.coverage_cls else None
        ConfigDB().set(None, "*", "SEQR", self.seqr)

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)
        self.driver.ap.connect(self.scoreboard.analysis_export)
        self.scoreboard.observe(self.tb)
        if self.coverage is not None:
            self.scoreboard.ap.connect(self.coverage.analysis_export)

    @property
    def tb(self) -> ReaderTB:
        return self.driver.tb
