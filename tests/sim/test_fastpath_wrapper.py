"""The fast path's wrapper generated from a ``fastpath:`` plan entry (dlaverif/flow/fastpath.py) around a user's reader
whose ports, clock, reset and interrupt carry other names than ours, with its own parameters: Verilator compiles it
(lint) with the HDL memory and capture."""

from __future__ import annotations

import subprocess

import pytest

from dlaverif.fastpath import HDL_SOURCES
from dlaverif.flow import fastpath, ports, runner, testplan
from dlaverif.flow.planschema import PlanError
from tests.flow.test_fastpath_plan import _plan

# A user's reader: other prefixes, clock, reset and interrupt names, its own parameters, no arprot/arcache/arlock
USER_READER = """
module my_reader #(parameter int BEAT = 8, parameter int AW = 32) (
  input  logic clock_i, input logic reset_i,
  input  logic [5:0] regs_awaddr, input logic [2:0] regs_awprot, input logic regs_awvalid, output logic regs_awready,
  input  logic [31:0] regs_wdata, input logic [3:0] regs_wstrb, input logic regs_wvalid, output logic regs_wready,
  output logic [1:0] regs_bresp, output logic regs_bvalid, input logic regs_bready,
  input  logic [5:0] regs_araddr, input logic [2:0] regs_arprot, input logic regs_arvalid, output logic regs_arready,
  output logic [31:0] regs_rdata, output logic [1:0] regs_rresp, output logic regs_rvalid, input logic regs_rready,
  output logic done_o,
  output logic [1:0] rd_arid, output logic [AW-1:0] rd_araddr, output logic [7:0] rd_arlen,
  output logic [2:0] rd_arsize, output logic [1:0] rd_arburst, output logic rd_arvalid, input logic rd_arready,
  input  logic [1:0] rd_rid, input logic [8*BEAT-1:0] rd_rdata, input logic [1:0] rd_rresp, input logic rd_rlast,
  input  logic rd_rvalid, output logic rd_rready,
  output logic [8*BEAT-1:0] out_tdata, output logic [BEAT-1:0] out_tkeep, output logic out_tlast,
  output logic [2:0] out_tuser, output logic out_tvalid, input logic out_tready
);
  logic [8*BEAT-1:0] held;
  always_ff @(posedge clock_i) if (reset_i) held <= '0; else if (rd_rvalid) held <= rd_rdata;
  assign {regs_awready, regs_wready, regs_bvalid, regs_arready, regs_rvalid} = '0;
  assign {regs_bresp, regs_rresp, regs_rdata, done_o} = '0;
  assign {rd_arid, rd_araddr, rd_arlen, rd_arsize, rd_arburst, rd_arvalid} = '0;
  assign rd_rready = 1'b1;
  assign {out_tdata, out_tkeep, out_tlast, out_tuser, out_tvalid} = {held, {BEAT{1'b1}}, 1'b0, 3'd0, 1'b0};
endmodule
"""


@pytest.mark.sim
def test_the_wrapper_of_a_users_reader_with_its_own_port_names_compiles(tmp_path):
    plan = _plan(
        tmp_path,
        "    toplevel: my_reader\n    parameters: {BEAT: 4, AW: 32}\n"
        "    fastpath: {axi: rd_, stream: out_, control: regs_, control_addr_width: 6, irq: done_o, clock: clock_i,\n"
        "               reset: reset_i, data_width: 8 * BEAT, addr_width: AW, id_width: 2, stream_bytes: BEAT,\n"
        "               tuser_width: 3}\n",
    )
    runner.check_simulator("verilator")
    with pytest.raises(PlanError) as exc:  # an expression is not a width: a number or one parameter's name
        testplan.load(plan)
    assert "builds.fast.fastpath.data_width" in str(exc.value)
    plan.write_text(plan.read_text().replace("data_width: 8 * BEAT", "data_width: 32"))
    b = testplan.load(plan).builds["fast"]
    assert b.options.fastpath is not None
    (tmp_path / "my_reader.sv").write_text(USER_READER)
    found = ports.read([tmp_path / "my_reader.sv"], b.toplevel, b.parameters, work=tmp_path / "ports")
    fp = fastpath.complete("builds.fast.fastpath", b.options.fastpath, found, b.parameters)
    assert fp.reset_active_low is False and fp.outputs == fp.inputs == ()  # reset_i: active high, as the names say
    top = fastpath.write(tmp_path / "build", b.toplevel, b.parameters, fp)
    text = top.read_text()
    assert "module my_reader_fastpath" in text and ".clock_i(clk)" in text and ".reset_i(rst)" in text
    assert "my_reader #(.BEAT(BEAT), .AW(AW)) dut" in text and "FP_ADDR_W = AW" in text
    lint = subprocess.run(
        [
            "verilator",
            "--lint-only",
            "--timing",
            "-Wno-fatal",
            "-Wno-lint",
            "-Wno-style",
            "--top-module",
            top.stem,
            *map(str, HDL_SOURCES),
            str(tmp_path / "my_reader.sv"),
            str(top),
        ],
        capture_output=True,
        text=True,
    )
    assert lint.returncode == 0, lint.stderr
    mtime = top.stat().st_mtime_ns  # written again only when its text changes (the build stays up to date)
    fastpath.write(tmp_path / "build", b.toplevel, b.parameters, fp)
    assert top.stat().st_mtime_ns == mtime
