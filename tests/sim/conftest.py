"""The smoke suite's runs that cannot be built here, said in one line each (at the top and the end of the session):
a testplan build whose third-party RTL is not found (``NVDLA_HW``, dlaverif/thirdparty/__init__.py) is not collected by
tests/sim/test_suites.py, and the line says what to set."""

from __future__ import annotations

from dlaverif.flow import testplan


def _not_applicable() -> list[str]:
    runs = testplan.load().suite("smoke").runs
    return [f"not applicable: {e.run.name}: {e.run.build.missing}" for e in runs if e.run.build.missing is not None]


def pytest_report_header(config) -> list[str]:
    return _not_applicable()


def pytest_terminal_summary(terminalreporter) -> None:
    for line in _not_applicable():
        terminalreporter.write_line(line)
