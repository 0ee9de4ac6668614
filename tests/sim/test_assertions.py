"""The design's assertions in simulation (blocks/rtl/props/, dlaverif/platform/assertions.py): a failure is charged to
the cocotb test that was running at its time and fails it with the property's name, the time and the instance, on both
simulators; the log is parsed strictly; a clean run is left untouched.

Oracles: hand-written JUnit files and log lines; a broken RTL copy (the formal mutant ``arvalid_dropped`` of
dlaverif/flow/formal.py: the read engine withdraws ARVALID before ARREADY) whose violation the AXI4 master properties
must report by name."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from dlaverif.flow import formal, mutants, runner
from dlaverif.platform import assertions


def _junit(path: Path, spans: list[tuple[str, float, float]], failed: tuple[str, ...] = ()) -> Path:
    cases = []
    for name, start, stop in spans:
        fail = '<failure message="scoreboard: 1 mismatch" />' if name in failed else ""
        cases.append(
            f'<testcase classname="m" name="{name}" time="0.1"><properties>'
            f'<property name="sim_time_unit" value="ns" /><property name="sim_time_start" value="{start}" />'
            f'<property name="sim_time_stop" value="{stop}" />'
            f'<property name="sim_time_duration" value="{stop - start}" />'
            f"</properties>{fail}</testcase>"
        )
    path.write_text(
        f'<testsuites><testsuite name="m" failures="{len(failed)}">{"".join(cases)}</testsuite></testsuites>'
    )
    return path


def _messages(results: Path) -> dict[str, str]:
    out = {}
    for case in ET.parse(results).getroot().iter("testcase"):
        fail = case.find("failure")
        out[case.get("name", "")] = "" if fail is None else fail.get("message", "")
    return out


def test_failures_are_charged_to_the_test_running_at_their_time(tmp_path):
    results = _junit(
        tmp_path / "results.xml", [("A", 0.0, 100.0), ("B", 100.001, 250.0), ("C", 250.001, 400.0)], ("C",)
    )
    (tmp_path / assertions.LOG_NAME).write_text(
        "120 ASSERT top.dut.u_props.bus.prop_failed ARVALID held until ARREADY\n"
        "130 ASSUME top.dut.u_props.axil.prop_failed WVALID held and W stable until WREADY\n"
        "300 ASSERT top.dut.u_props.axis.prop_failed a job's last transfer carries TLAST\n"
    )
    got = assertions.mark_results(results)
    assert [f.time_ns for f in got] == [120, 130, 300]
    msg = _messages(results)
    assert msg["A"] == ""
    assert msg["B"].startswith("2 assertion failure(s); first: ASSERT 'ARVALID held until ARREADY' failed at 120 ns")
    assert "in top.dut.u_props.bus [design]" in msg["B"]
    # a test that had already failed keeps its own message after the assertion's
    assert msg["C"].startswith("1 assertion failure(s); first: ASSERT 'a job's last transfer carries TLAST'")
    assert msg["C"].endswith("; scoreboard: 1 mismatch")
    suite = next(ET.parse(results).getroot().iter("testsuite"))
    assert suite.get("failures") == "2"


def test_a_failure_after_the_last_test_and_an_unreadable_line_still_fail(tmp_path):
    results = _junit(tmp_path / "results.xml", [("A", 0.0, 100.0), ("B", 100.001, 200.0)])
    (tmp_path / assertions.LOG_NAME).write_text("250 ASSERT x.prop_failed late\ngarbage line\n")
    got = assertions.mark_results(results)
    assert got[0] == assertions.Failure(250, "ASSERT", "x", "late")
    assert got[1].name.startswith("unreadable assertion log line: garbage line")
    msg = _messages(results)
    assert msg["B"].startswith("1 assertion failure(s); first: ASSERT 'late' failed at 250 ns")
    assert msg["A"].startswith("1 assertion failure(s); first: ASSERT 'unreadable assertion log line")


def test_a_clean_run_is_left_untouched(tmp_path):
    results = _junit(tmp_path / "results.xml", [("A", 0.0, 100.0)])
    before = results.read_bytes()
    assert assertions.mark_results(results) == []
    (tmp_path / assertions.LOG_NAME).write_text("")
    assert assertions.mark_results(results) == []
    assert results.read_bytes() == before


def test_the_in_run_reader_takes_only_new_complete_lines(tmp_path):
    log = tmp_path / assertions.LOG_NAME
    log.write_text("10 ASSERT a.prop_failed old\n")
    reader = assertions.AssertionLog(log)
    assert reader.take() == []
    with log.open("a") as f:
        f.write("20 ASSUME b.prop_failed new\n30 ASSERT c.prop_fa")
    assert reader.take() == [assertions.Failure(20, "ASSUME", "b", "new")]
    with log.open("a") as f:
        f.write("iled rest\n")
    assert reader.take() == [assertions.Failure(30, "ASSERT", "c", "rest")]
    assert assertions.Failure(35, "ASSERT", "c", "x").describe(10) == (
        "ASSERT 'x' failed at 35 ns (cycle 3) in c [design]"
    )


@pytest.mark.sim
@pytest.mark.parametrize("sim", runner.SIMULATORS)
def test_a_withdrawn_arvalid_fails_the_test_that_caused_it(tmp_path, sim):
    """The read engine with ARVALID withdrawn before ARREADY, under its directed byte-granular test twice: with
    ARREADY always high the mutant is harmless and the test passes; with ARREADY low 60 % of the cycles the AXI4
    master properties bound in axi_rd_engine.sv fail that test alone, naming the rule, the time and the instance."""
    rtl = mutants.make_copy(formal.all_mutants()["arvalid_dropped"], tmp_path)
    b = runner.build(sim, "axi_rd_engine", f"asserts-{sim}", rtl_dir=rtl, build_dir=tmp_path / "build")
    xml = runner.run(b, "blocks.axi_rd_engine.test_engine", 1, ["byte_granular_commands"], tag="asserts")
    rows = {r.name: r for r in runner.read_results(xml)}
    assert sorted(rows) == ["byte_granular_commands/ready=0.4", "byte_granular_commands/ready=1.0"], rows
    assert rows["byte_granular_commands/ready=1.0"].passed, rows["byte_granular_commands/ready=1.0"].message
    stalled = rows["byte_granular_commands/ready=0.4"]
    assert not stalled.passed
    assert "ASSERT 'ARVALID held until ARREADY' failed at " in stalled.message, stalled.message
    first = assertions.parse((xml.parent / assertions.LOG_NAME).read_text())[0]
    assert (first.kind, first.name) == ("ASSERT", "ARVALID held until ARREADY")
    assert first.where.endswith("u_props.bus"), first.where
    assert first.time_ns > rows["byte_granular_commands/ready=1.0"].sim_time_ns  # inside the second test
