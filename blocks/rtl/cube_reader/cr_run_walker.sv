// cr_run_walker: the cube reader's address walk: splits the latched descriptor into contiguous runs and
// hands them, one command each, to axi_rd_engine.
//
// Interface:
//   job                 latched descriptor (cube_desc_t; counts used as 16 bits, base as AXI_ADDR_W bits,
//                       both guaranteed by cr_desc_validator)
//   setup_surface, setup_batch, setup_cube   one cycle each, in this order, before run (job_ctrl set-up steps)
//   run, stopped        commands are offered while run && !stopped until the last run is issued
//   cmd_valid/ready, cmd_addr, cmd_len   axi_rd_engine command port (start byte, length in bytes)
//   issue_done          every run of the job was handed over
//
// Runs: a line (COUNT_W atoms) is one run; lines merge into surfaces when STRIDE_H == COUNT_W*ATOM (or
// COUNT_H == 1), surfaces into batches when STRIDE_C == COUNT_H*COUNT_W*ATOM (or COUNT_C == 1) and
// batches into one run when STRIDE_N == the batch size (or COUNT_N == 1). The sizes are computed over
// setup_surface (line -> surface), setup_batch (surface -> batch) and setup_cube (batch -> cube, first address,
// loop bounds); runs are then walked h fastest, then c, then n.
`timescale 1ns/1ps
module cr_run_walker
  import accel_pkg::*;
#(
  parameter int AXI_ADDR_W = 40,
  parameter int LEN_W      = AXI_ADDR_W + 1
) (
  input  logic                  clk,
  input  logic                  rst,
  input  cube_desc_t            job,
  input  logic                  setup_surface,
  input  logic                  setup_batch,
  input  logic                  setup_cube,
  input  logic                  run,
  input  logic                  stopped,
  output logic                  cmd_valid,
  input  logic                  cmd_ready,
  output logic [AXI_ADDR_W-1:0] cmd_addr,
  output logic [LEN_W-1:0]      cmd_len,
  output logic                  issue_done
);

  localparam int SZW = 72;                        // run-size arithmetic

  // the fields of the job this walk uses
  logic [AXI_ADDR_W-1:0] j_base;
  logic [7:0]            j_atom;
  logic [15:0]           j_cw, j_ch, j_cc, j_cn;
  logic [31:0]           j_sh, j_sc, j_sn;
  assign j_base = job.base[AXI_ADDR_W-1:0];
  assign j_atom = job.atom_bytes[7:0];
  assign j_cw   = job.count_w[15:0];
  assign j_ch   = job.count_h[15:0];
  assign j_cc   = job.count_c[15:0];
  assign j_cn   = job.count_n[15:0];
  assign j_sh   = job.stride_h;
  assign j_sc   = job.stride_c;
  assign j_sn   = job.stride_n;

  // ---------------------------------------------------------------- run structure (setup_surface .. setup_cube)
  logic [SZW-1:0]   s0, s1_q, s2_q, s3;      // bytes of a line, surface, batch, cube when packed
  logic             m_h_q, m_c_q, m_n;       // level merged into one contiguous run
  logic [LEN_W-1:0] run_len;
  logic [15:0]      e_h, e_c, e_n;           // runs per level (1 when merged)

  always_comb begin
    s0  = SZW'(j_cw) * SZW'(j_atom);
    s3  = SZW'(j_cn) * s2_q;
    m_n = m_c_q && (j_cn == 16'd1 || SZW'(j_sn) == s2_q);
  end

  // ---------------------------------------------------------------- command issue
  logic [15:0]           i_h, i_c, i_n;
  logic [AXI_ADDR_W-1:0] a_h, a_c, a_n;
  logic                  cmd_fire;

  assign cmd_valid = run && !issue_done && !stopped;
  assign cmd_fire  = cmd_valid && cmd_ready;
  assign cmd_addr  = a_h;
  assign cmd_len   = run_len;

  always_ff @(posedge clk) begin
    if (rst) begin
      s1_q       <= '0;
      s2_q       <= '0;
      m_h_q      <= 1'b0;
      m_c_q      <= 1'b0;
      run_len    <= '0;
      e_h        <= '0;
      e_c        <= '0;
      e_n        <= '0;
      i_h        <= '0;
      i_c        <= '0;
      i_n        <= '0;
      a_h        <= '0;
      a_c        <= '0;
      a_n        <= '0;
      issue_done <= 1'b0;
    end else begin
      if (setup_surface) begin
        // line -> surface
        s1_q    <= SZW'(j_ch) * s0;
        m_h_q   <= (j_ch == 16'd1) || (SZW'(j_sh) == s0);
      end
      if (setup_batch) begin
        // surface -> batch
        s2_q  <= SZW'(j_cc) * s1_q;
        m_c_q <= m_h_q && (j_cc == 16'd1 || SZW'(j_sc) == s1_q);
      end
      if (setup_cube) begin
        // batch -> cube; first run address and loop bounds
        run_len    <= LEN_W'(m_n ? s3 : m_c_q ? s2_q : m_h_q ? s1_q : s0);
        e_h        <= m_h_q ? 16'd1 : j_ch;
        e_c        <= m_c_q ? 16'd1 : j_cc;
        e_n        <= m_n ? 16'd1 : j_cn;
        i_h        <= '0;
        i_c        <= '0;
        i_n        <= '0;
        a_h        <= j_base;
        a_c        <= j_base;
        a_n        <= j_base;
        issue_done <= 1'b0;
      end
      // runs: h fastest, then c, then n
      if (cmd_fire) begin
        if (i_h != e_h - 16'd1) begin
          i_h <= i_h + 16'd1;
          a_h <= a_h + AXI_ADDR_W'(j_sh);
        end else begin
          i_h <= '0;
          if (i_c != e_c - 16'd1) begin
            i_c <= i_c + 16'd1;
            a_c <= a_c + AXI_ADDR_W'(j_sc);
            a_h <= a_c + AXI_ADDR_W'(j_sc);
          end else begin
            i_c <= '0;
            if (i_n != e_n - 16'd1) begin
              i_n <= i_n + 16'd1;
              a_n <= a_n + AXI_ADDR_W'(j_sn);
              a_c <= a_n + AXI_ADDR_W'(j_sn);
              a_h <= a_n + AXI_ADDR_W'(j_sn);
            end else begin
              issue_done <= 1'b1;
            end
          end
        end
      end
    end
  end

  // the walk needs only part of the descriptor (the rest is the validator's or the assembler's)
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{job.layout, job.fp16, job.nan_to_zero, job.elem_bytes, job.base, job.atom_bytes,
                       job.count_w, job.count_h, job.count_c, job.count_n};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule
