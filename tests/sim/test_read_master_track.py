"""The AXI4 read-master property set (dlaverif/hdl/props/axi4_read_master_props.sv) on a master without an outstanding
limit (``MAX_OUTSTANDING = 0``): it tracks as many bursts as ``TRACK`` says, beyond 255 too (a master that issues a
whole job's bursts ahead of its data), with a real ID width (4 bits, ARID 5); with too small a TRACK it says to
raise it. A small Icarus bench: N single-beat bursts accepted back to back, then their N beats."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from dlaverif.flow.project import PACKAGE_ROOT

pytestmark = pytest.mark.sim

PROPS = PACKAGE_ROOT / "dlaverif" / "hdl" / "props"
BENCH = """`timescale 1ns/1ps
module tb;
  logic clk = 0, rst = 1, arvalid = 0, rvalid = 0;
  logic [15:0] araddr = 0;
  logic [3:0] id = 4'd5;
  always #5 clk = ~clk;
  axi4_read_master_props #(.ADDR_W (16), .DATA_W (64), .ID_W (4), .ARID (4'd5), .MAX_OUTSTANDING (0), .TRACK (`TRACK))
    u (.clk, .rst, .stop (1'b0), .job_done (1'b0), .arid (id), .araddr, .arlen (8'd0), .arsize (3'd3),
       .arburst (2'b01), .arlock (1'b0), .arcache (4'd0), .arprot (3'd0), .arvalid, .arready (1'b1), .rid (id),
       .rdata (64'd0), .rresp (2'b00), .rlast (rvalid), .rvalid, .rready (1'b1), .n_flight (), .n_acc (), .ar_new (),
       .head_addr (), .head_len (), .head_beat (), .halted ());
  initial begin
    repeat (3) @(posedge clk);
    rst <= 0;
    for (int n = 0; n < `N; n++) begin @(posedge clk); arvalid <= 1; araddr <= 16'(n * 8); end
    @(posedge clk); arvalid <= 0;
    repeat (`N) begin @(posedge clk); rvalid <= 1; end
    @(posedge clk); rvalid <= 0;
    repeat (3) @(posedge clk);
    $finish;
  end
endmodule
"""


def failures(tmp_path: Path, bursts: int, track: int) -> list[str]:
    (tmp_path / "tb.sv").write_text(BENCH)
    sim = tmp_path / "tb.vvp"
    args = ["iverilog", "-g2012", f"-I{PROPS}", f"-DN={bursts}", f"-DTRACK={track}", "-o", str(sim)]
    subprocess.run([*args, str(PROPS / "axi4_read_master_props.sv"), str(tmp_path / "tb.sv")], check=True)
    out = subprocess.run(["vvp", "-n", str(sim)], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    return sorted({line.split(": ", 2)[-1] for line in out.splitlines() if "FAILED" in line})


def test_a_master_with_300_bursts_in_flight_is_tracked_with_a_deep_table(tmp_path: Path) -> None:
    assert failures(tmp_path, 300, 4096) == []


def test_too_small_a_table_says_to_raise_track(tmp_path: Path) -> None:
    # (the table then overflows too: the other failures follow from it)
    assert "at most TRACK bursts in flight (no limit declared: raise TRACK)" in failures(tmp_path, 300, 64)
