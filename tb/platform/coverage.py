"""The coverage subscriber base every reader shares."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from pyuvm import uvm_subscriber


class CoverageSubscriber(uvm_subscriber):
    """Samples each checked job into the block's covergroups (:meth:`sample`); in the extract phase (also when a
    check failed) writes the coverage XML into the run folder and logs every top-level covergroup of the block."""

    prefix = ""  # the block's covergroups are named <prefix>.<name>
    xml_name = ""  # e.g. fcov_cube_reader.xml (a run artifact of the testplan)

    def write(self, item) -> None:
        self.sample(item)

    def sample(self, item) -> None:
        raise NotImplementedError

    def export(self, directory: Optional[Path] = None) -> Path:
        from cocotb_coverage.coverage import coverage_db

        path = (directory or Path.cwd()) / self.xml_name
        coverage_db.export_to_xml(filename=str(path))
        return path

    def summary(self) -> list[tuple[str, float, int, int]]:
        """(name, percent, covered bins, bins) of every top-level covergroup of the block."""
        from cocotb_coverage.coverage import coverage_db

        return [
            (name, float(item.cover_percentage), int(item.coverage), int(item.size))
            for name, item in sorted(coverage_db.items())
            if name.startswith(self.prefix + ".") and name.count(".") == 1
        ]

    def extract_phase(self) -> None:
        path = self.export()
        for name, pct, cov, size in self.summary():
            self.logger.info("coverage %-40s %6.1f%% (%d/%d)", name, pct, cov, size)
        self.logger.info("functional coverage written to %s", path)
