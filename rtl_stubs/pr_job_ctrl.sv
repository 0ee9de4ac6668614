// pr_job_ctrl: the pixel reader's job sequencer: descriptor latch, validator, job state, ERROR and DONE.
//
// Interface (inside pixel_reader; registers: accel_csr_pkg PR_*, generated from regs/pixel_reader.rdl):
//   start_req   START written (CTRL.START); taken only when idle (`starting`)
//   reg_desc    the descriptor registers as programmed; latched into `job` on START
//   job, fmt    the latched descriptor of the running job and its format-table entry (pr_format)
//   init        one cycle after an accepted descriptor: the walker and the unpacker load their start values
//   run         data moves (commands issued, beats consumed, pixels emitted)
//   busy        STATUS.BUSY (any state but idle)
//   stopped     a bus error stopped the job: no new command, beats drained, no pixel emitted
//   beat_err    the unpacker meets a beat with RRESP SLVERR/DECERR (`beat_decerr`: which one)
//   issue_done, eng_busy, out_empty   the end of a job: every command issued (or stopped), nothing in flight,
//               the output queue empty -> DONE one cycle later
//   err_q       ERROR: validator bits [PR_ERR_ADDR_OVERFLOW:0], PR_ERR_BUS_SLVERR/DECERR
//   done_q      STATUS.DONE (cleared by START)
// An illegal descriptor goes from validation straight to DONE: no command, no AXI traffic.
`timescale 1ns/1ps
module pr_job_ctrl
  import accel_csr_pkg::*;
  import accel_pkg::*;
#(
  parameter int AXI_ADDR_W = 40
) (
  input  logic                clk,
  input  logic                rst,
  input  logic                start_req,
  input  pix_desc_t           reg_desc,
  output pix_desc_t           job,
  output logic [PR_FMT_W-1:0] fmt,
  output logic                init,
  output logic                run,
  output logic                busy,
  output logic                starting,
  output logic                stopped,
  input  logic                beat_err,
  input  logic                beat_decerr,
  input  logic                issue_done,
  input  logic                eng_busy,
  input  logic                out_empty,
  output logic [31:0]         err_q,
  output logic                done_q
);

  // plain constants, not an enum (Icarus 11 and enum variables in port expressions)
  localparam logic [2:0] ST_IDLE = 3'd0, ST_VAL = 3'd1, ST_INIT = 3'd2, ST_RUN = 3'd3, ST_FIN = 3'd4;
  logic [2:0] state;

  assign busy     = (state != ST_IDLE);
  assign starting = (state == ST_IDLE) && start_req;
  assign init     = (state == ST_INIT);
  assign run      = (state == ST_RUN);
  assign fmt      = pr_format(job.format);

  logic [PR_ERR_ADDR_OVERFLOW:0] val_err;

  pr_validator #(.ADDR_W(AXI_ADDR_W)) u_val (.d (job), .fmt, .errors (val_err));

  always_ff @(posedge clk) begin
    if (rst) begin
      state   <= ST_IDLE;
      done_q  <= 1'b0;
      stopped <= 1'b0;
      err_q   <= '0;
      job     <= '0;
    end else begin
      case (state)
        ST_IDLE: if (start_req) begin
          state   <= ST_VAL;
          done_q  <= 1'b0;
          stopped <= 1'b0;
          err_q   <= '0;
          job     <= reg_desc;
        end
        ST_VAL: begin
          err_q[PR_ERR_ADDR_OVERFLOW:0] <= val_err;
          state <= (val_err != '0) ? ST_FIN : ST_INIT;
        end
        ST_INIT: state <= ST_RUN;
        ST_RUN: begin
          if (!stopped && beat_err) begin
            stopped <= 1'b1;
            if (beat_decerr) err_q[PR_ERR_BUS_DECERR] <= 1'b1;
            else             err_q[PR_ERR_BUS_SLVERR] <= 1'b1;
          end
          if ((issue_done || stopped) && !eng_busy && out_empty) state <= ST_FIN;
        end
        ST_FIN: begin
          done_q <= 1'b1;
          state  <= ST_IDLE;
        end
        default: state <= ST_IDLE;
      endcase
    end
  end

endmodule
