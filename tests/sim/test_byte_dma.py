"""The platform on a DUT it did not write: ``byte_dma`` (blocks/selftest_dma/rtl/byte_dma.sv), a
descriptor-port DMA in another style (aclk/aresetn, cmd_*, rd_*, bytes_out_*), whose completion pulse comes before its
job's last output transfer. Bound as it behaves (completion "issued") every job passes; bound as "drained" the run fails
with one protocol error naming the job, the transfer and the cycle, and no data mismatch. On both simulators, built
as the testplan builds it (``builds.byte_dma``: its own file list, the AXI4 read-master properties bound by port
prefix)."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest

from dlaverif.flow import runner, sim as simflow, testplan

pytestmark = pytest.mark.sim

ROOT = Path(__file__).resolve().parents[2]
SIM = os.getenv("SIM", "")
SIMS = [SIM] if SIM else list(runner.SIMULATORS)


PLAN = testplan.load()


@pytest.fixture(scope="module", params=SIMS)
def built(request):
    return simflow.build_run(request.param, PLAN.runs["byte_dma/issued"])


def run(b, completion: str, depth: int = 4, test: str = "RandomDescriptorBursts") -> list[runner.Result]:
    results = runner.run(
        b,
        "blocks.selftest_dma.tests",
        seed=1,
        testcase=test,
        extra_env={"COMPLETION": completion, "QUEUE_DEPTH": str(depth)},
        tag=f"{completion}-q{depth}-{test}",
    )
    return runner.read_results(results)


def test_bound_as_issued_every_job_passes(built):
    rows = run(built, "issued")
    assert [(r.name, r.passed) for r in rows] == [("RandomDescriptorBursts", True)], rows


def test_bound_as_drained_one_protocol_error_names_the_job_the_transfer_and_the_cycle(built):
    rows = run(built, "drained")
    assert len(rows) == 1 and not rows[0].passed, rows
    msg = rows[0].message
    assert msg.count("protocol error") == 1, msg
    assert msg.startswith("protocol error: job job0 closed at cycle"), msg
    assert re.search(
        r"by its completion \(the binding says completion means 'drained': output delivered\), but "
        r"its transfer #\d+ of \d+ arrived at cycle \d+",
        msg,
    ), msg
    assert "first difference" not in msg and "TUSER" not in msg, msg  # never reported as a data mismatch


def test_one_job_in_flight_at_a_time_is_noticed(built):
    rows = run(built, "issued", depth=1)
    assert len(rows) == 1 and not rows[0].passed and "at most 1 job(s) in flight" in rows[0].message, rows


#: a bug of byte_dma: every word's output starts at byte lane 0, so an unaligned job's first word sends the bytes
#: before its address (a data bug, not a protocol one)
MUTANT = ("w_lo[w_wp[WW-1:0]]   <= cur_addr[LB-1:0];", "w_lo[w_wp[WW-1:0]]   <= '0;")


def test_a_data_bug_of_the_dut_is_a_data_mismatch(built, tmp_path):
    src = (ROOT / "blocks" / "selftest_dma" / "rtl" / "byte_dma.sv").read_text()
    assert src.count(MUTANT[0]) == 1, "the mutated line is in byte_dma.sv once"
    (tmp_path / "byte_dma.sv").write_text(src.replace(*MUTANT))
    (tmp_path / "byte_dma.f").write_text("byte_dma.sv\n")
    pb = PLAN.builds["byte_dma"]
    options = dataclasses.replace(pb.options, filelist=tmp_path / "byte_dma.f")  # the plan's build, mutant's list
    b = runner.build(built.sim, pb.toplevel, "byte_dma_mutant", build_dir=tmp_path / "build", options=options)
    rows = run(b, "issued")
    assert len(rows) == 1 and not rows[0].passed, rows
    assert "first difference at" in rows[0].message and "protocol error" not in rows[0].message, rows[0].message


def test_a_deeper_queue_is_exercised_to_its_depth(built):
    rows = run(built, "issued", depth=5)
    assert [(r.name, r.passed) for r in rows] == [("RandomDescriptorBursts", True)], rows


def test_a_queue_depth_beyond_what_the_dut_holds_is_reported_as_unreached(built):
    # byte_dma holds at most 5 jobs before one completes: QDEPTH = 4 queued and 1 being read
    rows = run(built, "issued", depth=8)
    assert len(rows) == 1 and not rows[0].passed, rows
    assert "jobs in flight never [6, 7, 8] (QUEUE_DEPTH=8)" in rows[0].message, rows[0].message


def test_the_scoreboard_self_tests_catch_corruptions_with_jobs_in_flight(built):
    rows = runner.read_results(runner.run(built, "blocks.selftest_dma.selftests", seed=1, tag="selftests"))
    assert [(r.name, r.passed) for r in rows] == [("ScoreboardSelfTest", True), ("CorruptModelIsCaught", True)], rows


def test_the_bound_read_master_properties_catch_a_misdeclared_master(built, tmp_path):
    """The plan's build binds the AXI4 read-master properties by port prefix (blocks/selftest_dma/rtl/byte_dma_props.sv,
    unaligned addresses declared; every other test here runs with them). Declared aligned instead (the binding's
    BYTE_DMA_ALIGNED define), byte_dma's first AR of an unaligned job breaks the property, and the test fails with
    the property's name, on both simulators (Verilator by `bind`, Icarus by the binding's root module)."""
    pb = PLAN.builds["byte_dma"]
    assert pb.options.properties and pb.options.properties.endswith("byte_dma_props.f"), pb.options
    options = dataclasses.replace(pb.options, defines={**pb.options.defines, "BYTE_DMA_ALIGNED": "1'b1"})
    b = runner.build(built.sim, pb.toplevel, "byte_dma_aligned", build_dir=tmp_path / "build", options=options)
    rows = run(b, "issued")
    assert len(rows) == 1 and not rows[0].passed, rows
    assert "ARADDR beat aligned" in rows[0].message and "ASSERT" in rows[0].message, rows[0].message


def test_a_reset_with_jobs_in_flight_drops_them_and_the_dut_comes_back_clean(built):
    rows = run(built, "issued", test="ResetWithJobsInFlight")
    assert [(r.name, r.passed) for r in rows] == [("ResetWithJobsInFlight", True)], rows


#: a bug of byte_dma: its word buffer's pointers take their values at power-up only (declaration initializers) and
#: ignore the reset, so the words buffered at a reset leave on the stream after it
DIRTY_RESET = (
    ("logic [WW:0]   w_wp, w_rp;", "logic [WW:0]   w_wp = '0, w_rp = '0;"),
    ("st <= IDLE; w_wp <= '0; w_count", "st <= IDLE; w_count"),
    ("w_rp <= '0; lane <= '0; lane_ok", "lane <= '0; lane_ok"),
)


def test_a_dut_that_does_not_come_back_clean_from_a_reset_is_caught(built, tmp_path):
    src = (ROOT / "blocks" / "selftest_dma" / "rtl" / "byte_dma.sv").read_text()
    for was, now in DIRTY_RESET:
        assert src.count(was) == 1, f"{was!r} is in byte_dma.sv once"
        src = src.replace(was, now)
    (tmp_path / "byte_dma.sv").write_text(src)
    (tmp_path / "byte_dma.f").write_text("byte_dma.sv\n")
    pb = PLAN.builds["byte_dma"]
    options = dataclasses.replace(pb.options, filelist=tmp_path / "byte_dma.f")
    b = runner.build(built.sim, pb.toplevel, "byte_dma_dirty_reset", build_dir=tmp_path / "build", options=options)
    rows = run(b, "issued", test="ResetWithJobsInFlight")
    assert len(rows) == 1 and not rows[0].passed, rows
    assert "did not come back clean from the reset" in rows[0].message, rows[0].message


def test_the_generic_test_runs_the_sequence_test_seq_names(built, capfd):
    """OpenTitan's UVM_TEST_SEQ: with TEST_SEQ set the module gets SequenceTest, which runs that sequence of the
    block (here the reset sequence: its dropped jobs show in the scoreboard's summary); a name that is no sequence
    of the block is refused with the known names."""
    env = {"COMPLETION": "issued", "QUEUE_DEPTH": "4"}

    def generic(seq: str):
        return runner.run(built, "blocks.selftest_dma.tests", 1, "SequenceTest", {**env, "TEST_SEQ": seq}, tag=seq)

    rows = runner.read_results(generic("ResetInFlightSeq"))
    assert [(r.name, r.passed) for r in rows] == [("SequenceTest", True)], rows
    assert "dropped in flight by a reset" in "".join(capfd.readouterr())
    with pytest.raises(RuntimeError, match="left no results"):  # the module does not load
        generic("Nope")
    out = "".join(capfd.readouterr())
    assert (
        "TEST_SEQ=Nope: not a sequence of blocks.selftest_dma.sequences (DescriptorBurstSeq, ResetInFlightSeq)" in out
    )


#: a DUT that hangs: byte_dma never takes the R beat of its job tagged 2 (job2), so that job never completes and the
#: jobs behind it wait in its queue (it holds 5 jobs: QDEPTH = 4 queued and 1 being read)
STUCK = ("DATA: if (r_take) begin", "DATA: if (r_take && cur_tag != 8'd2) begin")


@pytest.fixture(scope="module")
def stuck(built, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"stuck-{built.sim}")
    src = (ROOT / "blocks" / "selftest_dma" / "rtl" / "byte_dma.sv").read_text()
    assert src.count(STUCK[0]) == 1, "the mutated line is in byte_dma.sv once"
    (folder / "byte_dma.sv").write_text(src.replace(*STUCK))
    (folder / "byte_dma.f").write_text("byte_dma.sv\n")
    pb = PLAN.builds["byte_dma"]
    options = dataclasses.replace(pb.options, filelist=folder / "byte_dma.f")
    return runner.build(built.sim, pb.toplevel, "byte_dma_stuck", build_dir=folder / "build", options=options)


def test_a_hang_at_the_queue_depth_names_the_stuck_job(stuck):
    rows = run(stuck, "issued", depth=4)
    assert len(rows) == 1 and not rows[0].passed, rows
    msg = rows[0].message
    assert re.search(r"hang: job job2 addr=\S+ len=\d+ tag=2 \(handed over at cycle \d+\) has no completion", msg), msg


def test_a_hang_with_a_queue_depth_beyond_the_duts_names_the_stuck_job_not_the_next(stuck):
    """With more jobs allowed in flight than the DUT holds, the DUT stops taking jobs (ready low): the test stops
    with one line naming the job offered, the stuck one and the likely cause, not with the simulation's timeout."""
    rows = run(stuck, "issued", depth=8)
    assert len(rows) == 1 and not rows[0].passed, rows
    msg = rows[0].message
    assert "the DUT took no job for" in msg and "5 job(s) in flight: job job2 addr=" in msg, msg
    assert "(is queue_depth 8 more than the DUT accepts?)" in msg and "SimTimeoutError" not in msg, msg
