// cr_job_ctrl: the cube reader's job sequencer: descriptor latch, validator hand-off, job state,
// ERROR and DONE.
//
// Interface (all inside cube_reader; registers: accel_csr_pkg CR_*, generated from regs/cube_reader.rdl):
//   start_req   START written (CTRL.START); taken only when idle
//   reg_desc    the descriptor registers as programmed (cube_desc_t); latched into `job` on START and
//               handed, field by field, to cr_desc_validator on the same cycle
//   job         the latched descriptor of the running job (meaningful once the validator accepted it)
//   phases      one-hot steps of a job, for the walker and the assembler:
//                 setup_surface, setup_batch, setup_cube   one cycle each after an accepted descriptor, in this
//                                      order: the walker sizes a surface, a batch, then the cube and its first
//                                      address; the assembler loads the atom geometry on the first, resets its
//                                      coordinates on the last
//                 run                  data moves (commands issued, beats consumed, atoms emitted)
//   busy        STATUS.BUSY (any state but idle); `starting` = the cycle START is taken
//   stopped     a bus error stopped the job: no new command, beats drained, no atom emitted
//   beat_err    the read engine delivers a beat with RRESP SLVERR/DECERR (`beat_decerr`: which one),
//               valid only while the assembler consumes (run && !stopped)
//   issue_done, eng_busy, out_empty   the end of a job: every command issued (or stopped), no beat
//               in flight and the output queue empty -> DONE one cycle later
//   err_q       ERROR: validator bits [CR_ERR_ADDR_OVERFLOW:0], CR_ERR_BUS_SLVERR/DECERR
//   done_q      STATUS.DONE (cleared by START)
`timescale 1ns/1ps
module cr_job_ctrl
  import accel_csr_pkg::*;
  import accel_pkg::*;
#(
  parameter int AXI_ADDR_W     = 40,
  parameter int MAX_ATOM_BYTES = 128    // the reader's widest atom (its validator refuses wider ones)
) (
  input  logic        clk,
  input  logic        rst,
  input  logic        start_req,
  input  cube_desc_t  reg_desc,
  output cube_desc_t  job,
  output logic        setup_surface,
  output logic        setup_batch,
  output logic        setup_cube,
  output logic        run,
  output logic        busy,
  output logic        starting,
  output logic        stopped,
  input  logic        beat_err,
  input  logic        beat_decerr,
  input  logic        issue_done,
  input  logic        eng_busy,
  input  logic        out_empty,
  output logic [31:0] err_q,
  output logic        done_q
);

  // job states: plain constants, not an enum (Icarus 11 leaves an enum variable at z when it appears in
  // an instance port expression, as `state` does for the validator start below)
  localparam logic [2:0] ST_IDLE = 3'd0, ST_VAL = 3'd1, ST_SETUP_SURFACE = 3'd2, ST_SETUP_BATCH = 3'd3, ST_SETUP_CUBE = 3'd4,
                         ST_RUN = 3'd5, ST_FIN = 3'd6;
  logic [2:0] state;

  assign busy     = (state != ST_IDLE);
  assign starting = (state == ST_IDLE) && start_req;
  assign setup_surface    = (state == ST_SETUP_SURFACE);
  assign setup_batch    = (state == ST_SETUP_BATCH);
  assign setup_cube    = (state == ST_SETUP_CUBE);
  assign run      = (state == ST_RUN);

  // ---------------------------------------------------------------- validator hand-off
  logic                          val_done, val_busy;
  logic [CR_ERR_ADDR_OVERFLOW:0] val_err;

  cr_desc_validator #(.ADDR_W(AXI_ADDR_W), .MAX_ATOM_BYTES(MAX_ATOM_BYTES)) u_val (
    .clk, .rst,
    .start      (starting),
    .layout     (reg_desc.layout),
    .fp16       (reg_desc.fp16),
    .base       (reg_desc.base),
    .atom_bytes (reg_desc.atom_bytes),
    .elem_bytes (reg_desc.elem_bytes),
    .count_w    (reg_desc.count_w),
    .count_h    (reg_desc.count_h),
    .count_c    (reg_desc.count_c),
    .count_n    (reg_desc.count_n),
    .stride_h   (reg_desc.stride_h),
    .stride_c   (reg_desc.stride_c),
    .stride_n   (reg_desc.stride_n),
    .busy       (val_busy),
    .done       (val_done),
    .errors     (val_err)
  );

  // the validator's busy is implied by the VAL state
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = val_busy;
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- job state
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
        ST_VAL: if (val_done) begin
          if (val_err != '0) begin
            err_q[CR_ERR_ADDR_OVERFLOW:0] <= val_err;
            state <= ST_FIN;
          end else begin
            state <= ST_SETUP_SURFACE;
          end
        end
        ST_SETUP_SURFACE: state <= ST_SETUP_BATCH;
        ST_SETUP_BATCH: state <= ST_SETUP_CUBE;
        ST_SETUP_CUBE: state <= ST_RUN;
        ST_RUN: begin
          // RRESP error: stop the job, keep draining
          if (!stopped && beat_err) begin
            stopped <= 1'b1;
            if (beat_decerr) err_q[CR_ERR_BUS_DECERR] <= 1'b1;
            else             err_q[CR_ERR_BUS_SLVERR] <= 1'b1;
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
