// cr_atom_assembler: the cube reader's data path: cuts (or assembles) atoms out of the read engine's
// beats, scans fp16 elements, numbers each atom {n, c, h, w} and queues it for m_axis.
//
// Interface:
//   job                 latched descriptor (cube_desc_t): atom size, counts, FP16 / NAN_TO_ZERO
//   load_geometry       the job's atom geometry is loaded (the job's first set-up step)
//   reset_coords        the output coordinates restart (the job's last set-up step)
//   run                 data consumed only while run && !stopped
//   rd_*                axi_rd_engine beat port (data, RRESP, byte lanes rd_lo..rd_hi of the run)
//   bus_err/bus_decerr  the offered beat carries SLVERR/DECERR: no atom is taken from it, it is drained
//   m_axis_*            one atom per transfer in the low bytes of tdata, tkeep = low ATOM bits,
//                       tuser = {n, c, h, w} (16 bits each), tlast on the last atom of the job
//   pop, pop_nan, pop_inf, out_empty   atoms leaving (for the counters) and the queue empty
//
// Atoms smaller than a beat share beats (base and strides are atom multiples, so an atom never straddles
// a beat); larger atoms are assembled from ATOM/BW beats. When the 2-entry queue is full RREADY falls.
`timescale 1ns/1ps
`include "axi_ports.svh"
module cr_atom_assembler
  import accel_pkg::*;
#(
  parameter int AXI_DATA_W     = 256,
  parameter int MAX_ATOM_BYTES = 128
) (
  input  logic                        clk,
  input  logic                        rst,
  input  cube_desc_t                  job,
  input  logic                        load_geometry,
  input  logic                        reset_coords,
  input  logic                        run,
  input  logic                        stopped,

  input  logic                        rd_valid,
  output logic                        rd_ready,
  input  logic [AXI_DATA_W-1:0]       rd_data,
  input  logic [1:0]                  rd_resp,
  input  logic [$clog2(AXI_DATA_W/8)-1:0] rd_lo,
  input  logic [$clog2(AXI_DATA_W/8)-1:0] rd_hi,
  output logic                        bus_err,
  output logic                        bus_decerr,

  `AXIS_PORTS(m_axis_, output, input, MAX_ATOM_BYTES * 8, 64),

  output logic                        pop,
  output logic [7:0]                  pop_nan,
  output logic [7:0]                  pop_inf,
  output logic                        out_empty
);

  localparam int BW = AXI_DATA_W / 8;                // bytes per beat
  localparam int LB = $clog2(BW);
  localparam int AB = MAX_ATOM_BYTES;
  localparam int NS = (AB > BW) ? AB / BW : 1;       // beats per largest atom
  localparam int KW = (NS > 1) ? $clog2(NS) : 1;

  // the fields of the job this path uses
  logic        j_fp16, j_n2z;
  logic [7:0]  j_atom;
  logic [15:0] j_cw, j_ch, j_cc, j_cn;
  assign j_fp16 = job.fp16;
  assign j_n2z  = job.nan_to_zero;
  assign j_atom = job.atom_bytes[7:0];
  assign j_cw   = job.count_w[15:0];
  assign j_ch   = job.count_h[15:0];
  assign j_cc   = job.count_c[15:0];
  assign j_cn   = job.count_n[15:0];

  // atom geometry of the job (load_geometry)
  logic          j_small;          // atom <= beat
  logic [AB-1:0] j_keep;
  logic [KW-1:0] j_lastk;          // beats per atom - 1 (atoms larger than a beat)

  // ---------------------------------------------------------------- beats -> atoms
  logic                  mid;                 // inside a beat (atoms smaller than a beat)
  logic [LB-1:0]         ofs_q;               // byte lane of the next atom in that beat
  logic [KW-1:0]         k_q;                 // beat index inside the atom (atoms larger than a beat)
  logic [AB*8-1:0]       abuf;                // earlier beats of the atom being assembled
  logic [1:0]            q_cnt;               // output queue occupancy

  logic                  cons_en, acc, beat_done, last_k, emit;
  logic [LB-1:0]         cur_ofs;
  logic [LB+8:0]         nxt_ofs;
  logic [AXI_DATA_W-1:0] shifted;
  logic [AB*8-1:0]       atom_raw, atom_keep, atom_out;
  logic [7:0]            nan_n, inf_n;

  assign bus_err    = rd_valid && rd_resp[1];           // SLVERR 2'b10, DECERR 2'b11
  assign bus_decerr = rd_resp[0];

  always_comb begin
    cons_en   = run && !stopped;
    acc       = (q_cnt != 2'd2);
    cur_ofs   = mid ? ofs_q : rd_lo;
    nxt_ofs   = (LB+9)'(cur_ofs) + (LB+9)'(j_atom);
    beat_done = nxt_ofs > (LB+9)'(rd_hi);
    last_k    = (k_q == j_lastk);
    shifted   = rd_data >> {cur_ofs, 3'b000};
    if (j_small) begin
      atom_raw = (AB*8)'(shifted);
      emit     = cons_en && rd_valid && !bus_err && acc;
      rd_ready = cons_en && (bus_err || (acc && beat_done));
    end else begin
      atom_raw = abuf;
      for (int s = 0; s < NS; s++) begin
        if (KW'(s) == k_q) atom_raw[s*AXI_DATA_W +: AXI_DATA_W] = rd_data;
      end
      emit     = cons_en && rd_valid && !bus_err && last_k && acc;
      rd_ready = cons_en && (bus_err || !last_k || acc);
    end
  end

  // keep the atom's bytes only: one AND with a byte mask of the job's geometry (changes once per job), not a loop
  // over the AB bytes re-evaluated on every beat (which was a large share of Icarus's time)
  logic [AB*8-1:0] keep_mask;
  for (genvar b = 0; b < AB; b++) begin : g_keep
    assign keep_mask[8*b +: 8] = {8{j_keep[b]}};
  end
  assign atom_keep = atom_raw & keep_mask;

  cr_fp16_scan #(.AB(AB)) u_fp16 (
    .fp16 (j_fp16), .nan_to_zero (j_n2z), .atom_in (atom_keep), .atom_out, .nan_n, .inf_n
  );

  // ---------------------------------------------------------------- coordinates of the next atom emitted
  logic [15:0] o_w, o_h, o_c, o_n;
  logic        o_last;
  logic [63:0] o_user;

  assign o_last        = (o_w == j_cw - 16'd1) && (o_h == j_ch - 16'd1) && (o_c == j_cc - 16'd1)
                      && (o_n == j_cn - 16'd1);
  assign o_user        = {o_n, o_c, o_h, o_w};

  always_ff @(posedge clk) begin
    if (rst) begin
      j_small <= 1'b1;
      j_keep  <= '0;
      j_lastk <= '0;
      mid     <= 1'b0;
      ofs_q   <= '0;
      k_q     <= '0;
      abuf    <= '0;
      o_w     <= '0;
      o_h     <= '0;
      o_c     <= '0;
      o_n     <= '0;
    end else begin
      if (load_geometry) begin
        j_small <= ({24'd0, j_atom} <= 32'(BW));
        j_lastk <= KW'(({24'd0, j_atom} >> LB) - 32'd1);
        for (int b = 0; b < AB; b++) j_keep[b] <= (32'(b) < {24'd0, j_atom});
      end
      if (reset_coords) begin
        mid <= 1'b0;
        k_q <= '0;
        o_w <= '0;
        o_h <= '0;
        o_c <= '0;
        o_n <= '0;
      end
      // beats -> atoms bookkeeping (rd_ready and emit are only ever high while run && !stopped)
      if (rd_valid && rd_ready && !bus_err) begin
        if (j_small) begin
          mid <= 1'b0;
        end else begin
          k_q <= last_k ? '0 : k_q + KW'(1);
          for (int s = 0; s < NS; s++) begin
            if (KW'(s) == k_q) abuf[s*AXI_DATA_W +: AXI_DATA_W] <= rd_data;
          end
        end
      end else if (emit && j_small) begin
        mid   <= 1'b1;
        ofs_q <= LB'(nxt_ofs);
      end
      if (emit) begin
        if (o_w != j_cw - 16'd1) o_w <= o_w + 16'd1;
        else begin
          o_w <= '0;
          if (o_h != j_ch - 16'd1) o_h <= o_h + 16'd1;
          else begin
            o_h <= '0;
            if (o_c != j_cc - 16'd1) o_c <= o_c + 16'd1;
            else begin
              o_c <= '0;
              o_n <= o_n + 16'd1;
            end
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------- output queue (2 atoms)
  assign m_axis_tkeep = j_keep;
  assign out_empty    = (q_cnt == 2'd0);

  atom_fifo #(.AB(AB)) u_fifo (
    .clk, .rst,
    .push (emit), .push_data (atom_out), .push_user (o_user), .push_last (o_last),
    .push_nan (nan_n), .push_inf (inf_n),
    .m_axis_tdata, .m_axis_tlast, .m_axis_tuser, .m_axis_tvalid, .m_axis_tready,
    .pop, .pop_nan, .pop_inf, .count (q_cnt)
  );

  // the data path needs only part of the descriptor
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{job.layout, job.base, job.elem_bytes, job.atom_bytes, job.count_w, job.count_h,
                       job.count_c, job.count_n, job.stride_h, job.stride_c, job.stride_n};
  /* verilator lint_on UNUSEDSIGNAL */

endmodule
