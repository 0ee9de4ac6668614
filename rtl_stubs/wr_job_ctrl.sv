// wr_job_ctrl: the weight reader's job sequencer: descriptor latch, validator, job state, ERROR, FAULT, DONE.
//
// Interface (inside weight_reader; registers: accel_csr_pkg WR_*, generated from regs/weight_reader.rdl):
//   start_req            START written (CTRL.START); taken only when idle
//   r_*                  the descriptor registers as programmed; latched into j_* on START
//   j_*                  the running job's descriptor; j_dense = (GROUPS-1)*GROUP_BYTES + LAST_GROUP_BYTES
//   init                 one cycle after an accepted descriptor: the data path loads the job and empties its
//                        queues; run: data moves (commands, beats, output)
//   stopped              a run-time error stopped the job: the read engine drains, nothing more is sent
//   bus_err/bus_decerr/bus_surface, err_mismatch, err_overrun   run-time errors (first one wins the FAULT
//                        surface; every error seen before the stop takes effect sets its bit)
//   all_done, eng_busy, out_empty   the end of a job -> DONE one cycle later
//   err_q                ERROR: validator bits [WR_ERR_ADDR_OVERFLOW:0], WR_ERR_WGS_MISMATCH,
//                        WR_ERR_WEIGHT_OVERRUN, WR_ERR_BUS_SLVERR/DECERR; fault_q: FAULT; done_q: STATUS.DONE
`timescale 1ns/1ps
module wr_job_ctrl
  import accel_csr_pkg::*;
#(
  parameter int AXI_ADDR_W = 40
) (
  input  logic        clk,
  input  logic        rst,
  input  logic        start_req,
  input  logic        r_compressed,
  input  logic [31:0] r_elem,
  input  logic [31:0] r_groups,
  input  logic [31:0] r_gbytes,
  input  logic [31:0] r_lbytes,
  input  logic [63:0] r_wbase,
  input  logic [31:0] r_wbytes,
  input  logic [63:0] r_mbase,
  input  logic [31:0] r_mbytes,
  input  logic [63:0] r_gbase,
  input  logic [31:0] r_sbytes,
  output logic        j_compressed,
  output logic [31:0] j_elem,
  output logic [31:0] j_groups,
  output logic [31:0] j_gbytes,
  output logic [31:0] j_lbytes,
  output logic [63:0] j_wbase,
  output logic [31:0] j_wbytes,
  output logic [63:0] j_mbase,
  output logic [63:0] j_gbase,
  output logic [63:0] j_dense,
  output logic        init,
  output logic        run,
  output logic        busy,
  output logic        starting,
  output logic        stopped,
  input  logic        bus_err,
  input  logic        bus_decerr,
  input  logic [1:0]  bus_surface,
  input  logic        err_mismatch,
  input  logic        err_overrun,
  input  logic        all_done,
  input  logic        eng_busy,
  input  logic        out_empty,
  output logic [31:0] err_q,
  output logic [31:0] fault_q,
  output logic        done_q
);

  // plain constants, not an enum (Icarus 11, as in cr_job_ctrl)
  localparam logic [2:0] ST_IDLE = 3'd0, ST_VAL = 3'd1, ST_INIT = 3'd2, ST_RUN = 3'd3, ST_FIN = 3'd4;
  logic [2:0] state;

  assign busy     = (state != ST_IDLE);
  assign starting = (state == ST_IDLE) && start_req;
  assign init     = (state == ST_INIT);
  assign run      = (state == ST_RUN) && !stopped;

  logic [31:0] j_mbytes, j_sbytes;
  logic [WR_ERR_ADDR_OVERFLOW:0] val_err;

  wr_validator #(.ADDR_W(AXI_ADDR_W)) u_val (
    .compressed (j_compressed), .elem_bytes (j_elem), .groups (j_groups), .group_bytes (j_gbytes),
    .last_group_bytes (j_lbytes), .weight_base (j_wbase), .weight_bytes (j_wbytes), .wmb_base (j_mbase),
    .wmb_bytes (j_mbytes), .wgs_base (j_gbase), .wgs_bytes (j_sbytes), .dense_bytes (j_dense),
    .errors (val_err)
  );

  logic any_err;
  assign any_err = bus_err || err_mismatch || err_overrun;

  always_ff @(posedge clk) begin
    if (rst) begin
      state        <= ST_IDLE;
      done_q       <= 1'b0;
      stopped      <= 1'b0;
      err_q        <= '0;
      fault_q      <= '0;
      j_compressed <= 1'b0;
      j_elem       <= '0;
      j_groups     <= '0;
      j_gbytes     <= '0;
      j_lbytes     <= '0;
      j_wbase      <= '0;
      j_wbytes     <= '0;
      j_mbase      <= '0;
      j_mbytes     <= '0;
      j_gbase      <= '0;
      j_sbytes     <= '0;
    end else begin
      case (state)
        ST_IDLE: if (start_req) begin
          state        <= ST_VAL;
          done_q       <= 1'b0;
          stopped      <= 1'b0;
          err_q        <= '0;
          fault_q      <= '0;
          j_compressed <= r_compressed;
          j_elem       <= r_elem;
          j_groups     <= r_groups;
          j_gbytes     <= r_gbytes;
          j_lbytes     <= r_lbytes;
          j_wbase      <= r_wbase;
          j_wbytes     <= r_wbytes;
          j_mbase      <= r_mbase;
          j_mbytes     <= r_mbytes;
          j_gbase      <= r_gbase;
          j_sbytes     <= r_sbytes;
        end
        ST_VAL: begin
          if (val_err != '0) begin
            err_q[WR_ERR_ADDR_OVERFLOW:0] <= val_err;
            state <= ST_FIN;
          end else begin
            state <= ST_INIT;
          end
        end
        ST_INIT: state <= ST_RUN;
        ST_RUN: begin
          if (!stopped && any_err) begin
            stopped <= 1'b1;
            if (err_mismatch) err_q[WR_ERR_WGS_MISMATCH]   <= 1'b1;
            if (err_overrun)  err_q[WR_ERR_WEIGHT_OVERRUN] <= 1'b1;
            if (bus_err) begin
              if (bus_decerr) err_q[WR_ERR_BUS_DECERR] <= 1'b1;
              else            err_q[WR_ERR_BUS_SLVERR] <= 1'b1;
              fault_q[WR_FAULT_SURFACE_LSB +: WR_FAULT_SURFACE_W] <= bus_surface;
            end
          end
          if ((all_done || stopped) && !eng_busy && out_empty) state <= ST_FIN;
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
