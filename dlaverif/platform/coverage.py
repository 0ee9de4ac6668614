"""The coverage every reader shares: the subscriber base, the covergroups of every register-controlled job (its
kind, the stall knobs, a reset in its middle, an ERROR bit alone, a bus error) and what a job gives them."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from pyuvm import uvm_subscriber

from dlaverif.platform.knobs import STALLS


def job_points(
    prefix: str, kinds: Sequence[str], unit: str, alone: Sequence[str], bus_error: Sequence[tuple[str, str]]
) -> list[Any]:
    """The covergroups every register-controlled reader has, named ``<prefix>.<name>``: ``kind`` (bins ``kinds``),
    ``tready``, ``rvalid_gaps`` and ``arready_stalls`` (the stall profiles :func:`~dlaverif.platform.knobs.random_knobs`
    draws), ``reset`` (before the first ``unit`` or mid-stream), ``error_alone`` (each of ``alone`` the only ERROR
    bit), ``bus_error`` (the bins ``bus_error``: (response, where)), ``csr_while_busy`` (a second START and
    descriptor writes came while the job ran). Sampled with :func:`job_fields`."""
    from cocotb_coverage.coverage import CoverPoint

    stalls = list(STALLS)
    return [
        CoverPoint(f"{prefix}.kind", xf=lambda s: s.kind, bins=list(kinds)),
        CoverPoint(f"{prefix}.tready", xf=lambda s: s.backpressure, bins=stalls),
        CoverPoint(f"{prefix}.rvalid_gaps", xf=lambda s: s.r_gap, bins=stalls),
        CoverPoint(f"{prefix}.arready_stalls", xf=lambda s: s.ar_stall, bins=stalls),
        CoverPoint(f"{prefix}.reset", xf=lambda s: s.reset, bins=[f"before_first_{unit}", "mid_stream"]),
        CoverPoint(f"{prefix}.error_alone", xf=lambda s: s.errors, rel=lambda e, b: e == {b}, bins=list(alone)),
        CoverPoint(f"{prefix}.bus_error", xf=lambda s: s.bus_error, bins=list(bus_error)),
        CoverPoint(f"{prefix}.csr_while_busy", xf=lambda s: s.midjob, bins=[True]),
    ]


def job_fields(item: Any, regs: Any, unit: str, where: Callable[[Any], str]) -> dict[str, Any]:
    """What :func:`job_points` sample of a checked register-controlled job (``regs``: the block's register map,
    for the ERROR bits' names; ``unit``: a transfer's name; ``where(item)``: where a bus-error job's fault is), and
    whether START and descriptor writes came while it ran (``midjob``)."""
    res = item.result
    reset = None
    if item.resets and res is not None:
        reset = "mid_stream" if res.beats else f"before_first_{unit}"
    return {
        "kind": item.kind.value,
        "errors": set(regs.decode_errors(res.status.error)) if res is not None else set(),
        "backpressure": item.knobs.backpressure,
        "r_gap": item.knobs.r_gap,
        "ar_stall": item.knobs.ar_stall,
        "latency": item.knobs.latency,
        "reset": reset,
        "bus_error": (item.faults[0][2], where(item)) if item.kind.name == "BUS_ERROR" and item.faults else None,
        "midjob": item.midjob is not None,
    }


class Covergroups:
    """A block's covergroups, built by ``build(*args)`` (a list of cocotb-coverage cover points) at the first
    sample: cocotb-coverage's database is process-wide, so they are built once per simulation."""

    def __init__(self, build: Callable[..., list[Any]]) -> None:
        self.build = build
        self._sample: Optional[Callable[[Any], None]] = None

    def sample(self, s: Any, *args: Any) -> None:
        """Sample ``s`` (the fields the cover points read); ``args`` build the covergroups the first time."""
        if self._sample is None:
            from cocotb_coverage.coverage import coverage_section

            @coverage_section(*self.build(*args))
            def sample(s: Any) -> None:
                pass

            self._sample = sample
        self._sample(s)


class CoverageSubscriber(uvm_subscriber):
    """Samples each checked job into the block's covergroups (:meth:`sample`); in the extract phase (also when a
    check failed) writes the coverage XML into the run folder and logs every top-level covergroup of the block."""

    prefix = ""  # the block's covergroups are named <prefix>.<name>
    xml_name = ""  # e.g. fcov_<block>.xml (a run artifact of the testplan)

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
