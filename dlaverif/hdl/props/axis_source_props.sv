// axis_source_props: AXI4-Stream SOURCE (master) properties (ARM IHI 0051, section 2.2 handshake), written from
// the specification. TREADY is free (the sink may stall at any time). Asserted: TVALID low in the cycle after
// reset; once TVALID is high it stays high, with TDATA/TKEEP/TLAST/TUSER stable, until TREADY.
// Job framing, from the readers' datasheets: TLAST ends the job's output, so when `job_done` (the block's end-of-job
// level, irq = STATUS.DONE) rises for a job without error (`job_error` low) that sent anything, its last transfer
// carried TLAST. Optional (TLAST_ONCE = 1, for a block whose TLAST marks only the end of a job): after a transfer
// with TLAST no other transfer until `job_done` is seen. Optional (TUSER_GROUP = 1, for a block whose TLAST ends
// every group and whose TUSER is the group index): within a job, the transfer after a TLAST starts the next group
// (TUSER + 1) and the transfer after any other keeps its group (same TUSER), so TLAST is exactly on each group's
// last transfer.
`timescale 1ns/1ps
`include "prop_macros.svh"
module axis_source_props #(
  parameter int DATA_W     = 64,
  parameter int KEEP_W     = DATA_W / 8,
  parameter int USER_W     = 1,
  parameter bit TLAST_ONCE = 1'b0,
  parameter bit TUSER_GROUP = 1'b0
) (
  input  logic              clk,
  input  logic              rst,
  input  logic              job_done,
  input  logic              job_error,
  input  logic [DATA_W-1:0] tdata,
  input  logic [KEEP_W-1:0] tkeep,
  input  logic              tlast,
  input  logic [USER_W-1:0] tuser,
  input  logic              tvalid,
  input  logic              tready
);

  `PROP_REPORTER

  logic              p_valid, p_rst, p_tvalid, p_tready, p_tlast;
  logic [DATA_W-1:0] p_tdata;
  logic [KEEP_W-1:0] p_tkeep;
  logic [USER_W-1:0] p_tuser;
  logic              ended;        // a TLAST transfer went out and job_done has not been seen since
  logic              p_done, sent, last_tlast, xfer;
  logic [USER_W-1:0] last_tuser;    // TUSER of the job's previous transfer (valid when `sent`)
  initial p_valid = 1'b0;
  assign xfer = tvalid && tready;

  always @(posedge clk) begin
    p_valid  <= 1'b1;
    p_rst    <= rst;
    p_tvalid <= tvalid;
    p_tready <= tready;
    p_tdata  <= tdata;
    p_tkeep  <= tkeep;
    p_tlast  <= tlast;
    p_tuser  <= tuser;
    if (rst || job_done)                   ended <= 1'b0;
    else if (tvalid && tready && tlast)    ended <= 1'b1;
    p_done <= job_done;
    if (rst || (job_done && !p_done)) begin          // a job ends: the next one starts afresh
      sent       <= 1'b0;
      last_tlast <= 1'b0;
    end else if (xfer) begin
      sent       <= 1'b1;
      last_tlast <= tlast;
      last_tuser <= tuser;
    end
  end

  always @(posedge clk) begin
    if (p_valid && p_rst && !rst) `PROP_ASSERT("TVALID low after reset", !tvalid)
    if (p_valid && !p_rst && !rst && p_tvalid && !p_tready) begin
      `PROP_ASSERT("TVALID held until TREADY", tvalid)
      `PROP_ASSERT("TDATA/TKEEP/TLAST/TUSER stable until TREADY",
                   tdata == p_tdata && tkeep == p_tkeep && tlast == p_tlast && tuser == p_tuser)
    end
    if (TLAST_ONCE && p_valid && !p_rst && !rst && ended && !job_done)
      `PROP_ASSERT("no transfer after TLAST until the job's DONE", !(tvalid && tready))
    if (TUSER_GROUP && p_valid && !p_rst && !rst && xfer && sent && !(job_done && !p_done))
      `PROP_ASSERT("TLAST exactly on a group's last transfer (TUSER advances after it only)",
                   tuser == (last_tlast ? last_tuser + USER_W'(1) : last_tuser))
    if (!rst) `PROP_COVER("a transfer with TLAST", xfer && tlast)
    if (p_valid && !p_rst && !rst && job_done && !p_done && !job_error && (sent || xfer))
      `PROP_ASSERT("a job's last transfer carries TLAST", xfer ? tlast : last_tlast)
  end

endmodule
