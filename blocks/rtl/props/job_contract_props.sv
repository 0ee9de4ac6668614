// job_contract_props: a reader's job contract, as the readers' datasheets (docs/<block>.md) state it, over the
// job controller's documented signals (connected at the bind site): `job_start` = the cycle START is taken,
// `job_busy` = STATUS.BUSY, `job_done` = STATUS.DONE (irq), `desc_error` = a descriptor (validation) error bit of
// STATUS.ERROR is set. Asserted:
//   * START is taken only between jobs: a START while a job runs (from the START taken to its DONE) is ignored;
//     and DONE rises only to end a job that a START began (one DONE per job).
//   * A job whose descriptor is illegal issues no read: from its START to its DONE no ARVALID (and none while
//     the descriptor error bits are set, i.e. until the next START).
//   * Reset in any state returns to idle: in the cycle after a reset the block is not busy, DONE is low and
//     neither ARVALID nor TVALID is up (nothing in flight: the read engine's own properties check that its
//     in-flight count restarts at 0).
`timescale 1ns/1ps
`include "prop_macros.svh"
module job_contract_props (
  input  logic clk,
  input  logic rst,
  input  logic job_start,
  input  logic job_busy,
  input  logic job_done,
  input  logic desc_error,
  input  logic arvalid,
  input  logic tvalid
);

  `PROP_REPORTER

  logic p_valid, p_rst, p_done, running, ar_in_job, done_rise;
  initial p_valid = 1'b0;
  assign done_rise = job_done && !p_done;

  always @(posedge clk) begin
    p_valid <= 1'b1;
    p_rst   <= rst;
    p_done  <= job_done;
    if (rst) begin
      running   <= 1'b0;
      ar_in_job <= 1'b0;
    end else if (job_start) begin
      running   <= 1'b1;
      ar_in_job <= 1'b0;
    end else begin
      if (done_rise) running <= 1'b0;
      if (arvalid)   ar_in_job <= 1'b1;
    end
  end

  always @(posedge clk) begin
    if (p_valid && p_rst && !rst)
      `PROP_ASSERT("reset returns to idle (not busy, no DONE, no ARVALID, no TVALID)",
                   !job_busy && !job_done && !arvalid && !tvalid)
    if (p_valid && !p_rst && !rst) begin
      // (a START may be taken in the very cycle the previous job's DONE rises)
      if (job_start) `PROP_ASSERT("START taken only between jobs (ignored while one runs)", !running || done_rise)
      if (done_rise) `PROP_ASSERT("DONE only ends a job that START began", running)
      `PROP_COVER("a legal job ends", done_rise && !desc_error)
      `PROP_COVER("an illegal descriptor's job ends", done_rise && desc_error)
      // the verdict's ERROR bits stay until the next START: no read under them, and none before them
      if (desc_error) `PROP_ASSERT("an illegal descriptor issues no read", !arvalid && !(done_rise && ar_in_job))
    end
  end

endmodule
