// wr_expander: sparse decompression of the weight reader, one dense output beat per cycle.
//
// Streams in: WMB beats and weight-data beats from wr_fetch ({hi lane, lo lane, data}: only lanes lo..hi
// belong to the stream), WGS entries from wr_wgs_unpack. Out: dense beats for the output queue.
//
// Widths: BW bytes per bus beat (AXI_DATA_W), NB bytes per output transfer (OUT_DATA_W, default the bus width).
// Windows: the mask window holds up to AXI_DATA_W + NB bits of the WMB bit stream (bit n of the stream is bit
// n mod 8 of WMB byte n div 8: LSB first, clarifications section 7), the data window up to BW + NB bytes of the
// compressed (or dense) byte stream. Each cycle a beat's bits/bytes are consumed and, when there is room, the
// head queue beat's lanes are appended behind what is left, so the windows never starve a full beat.
//
// Per output beat of kernel group g: n = min(elements per beat, elements left in g) elements (1 or 2 bytes,
// ELEM_BYTES), mask bits m[0..n-1] (all ones when dense), and element i = m[i] ? compressed element number
// popcount(m[0..i-1]) : 0. The beat carries n*elem bytes (tkeep), tlast on the last beat of the group and
// tuser = g. Groups are continuous in both streams (a group may start in the middle of a WMB byte or a data
// beat); each group starts a new output beat.
//
// Run-time checks (compressed): at the start of group g its WGS entry is taken; when the WGS sum so far passes
// WEIGHT_BYTES, err_overrun pulses and g is not started. During g the bytes taken from the data stream must
// not exceed WGS[g], and on g's last beat they must equal it: otherwise err_mismatch pulses and that beat is
// not sent (the group then has no tlast: a consumer commits a group on its tlast). The job control then
// stops the job.
`timescale 1ns/1ps
module wr_expander #(
  parameter int AXI_DATA_W = 256,
  parameter int OUT_DATA_W = AXI_DATA_W,
  localparam int BW        = AXI_DATA_W / 8,
  localparam int NB        = OUT_DATA_W / 8,
  localparam int LB        = $clog2(BW),
  localparam int QW        = AXI_DATA_W + 2 * LB
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic                  init,
  input  logic                  run,
  input  logic                  compressed,
  input  logic                  e2,            // 2-byte elements
  input  logic [15:0]           groups,
  input  logic [31:0]           group_elems,
  input  logic [31:0]           last_elems,
  input  logic [31:0]           weight_bytes,

  input  logic                  wmb_valid,
  input  logic [QW-1:0]         wmb_beat,
  output logic                  wmb_pop,
  input  logic                  dat_valid,
  input  logic [QW-1:0]         dat_beat,
  output logic                  dat_pop,
  input  logic                  ent_valid,
  input  logic [31:0]           ent,
  output logic                  ent_pop,

  input  logic                  out_room,
  output logic                  push,
  output logic [OUT_DATA_W-1:0] o_data,
  output logic [NB-1:0]         o_keep,
  output logic                  o_last,
  output logic [15:0]           o_user,

  output logic                  all_done,
  output logic                  err_mismatch,
  output logic                  err_overrun,
  output logic [15:0]           grp,
  output logic [7:0]            o_bytes,       // dense bytes of the beat pushed
  output logic [7:0]            o_zeros,       // zero elements restored in it
  output logic [7:0]            o_comp         // weight-surface bytes it took
);

  localparam int MW = AXI_DATA_W + NB;          // mask window, bits
  localparam int DW = BW + NB;                  // data window, bytes
  localparam int CW = 16;

  // ---------------------------------------------------------------- group state
  logic        have_grp;
  logic [31:0] grp_left, grp_used, grp_wgs;
  logic [47:0] cum;
  logic [MW-1:0]   mwin;
  logic [8*DW-1:0] dwin;
  logic [CW-1:0]   mcnt, dcnt;

  // ---------------------------------------------------------------- this cycle's beat
  logic [CW-1:0] ne, n, pc, k;
  logic          last_beat, last_grp, mask_ok, data_ok, can, bad, fire;
  logic [NB-1:0] m;
  logic [OUT_DATA_W-1:0] exp1, exp2;

  always_comb begin
    ne        = e2 ? CW'(NB / 2) : CW'(NB);
    n         = (grp_left < 32'(ne)) ? CW'(grp_left) : ne;
    last_beat = (grp_left <= 32'(ne));
    last_grp  = (grp == groups - 16'd1);
    m  = '0;
    pc = '0;
    for (int i = 0; i < NB; i++) begin
      if (CW'(i) < n) m[i] = compressed ? mwin[i] : 1'b1;
      pc = pc + CW'(m[i]);
    end
    k       = e2 ? pc << 1 : pc;
    mask_ok = !compressed || (mcnt >= n);
    data_ok = (dcnt >= k);
    can     = run && have_grp && mask_ok && data_ok && out_room;
    bad     = compressed && (last_beat ? (grp_used + 32'(k) != grp_wgs) : (grp_used + 32'(k) > grp_wgs));
    fire    = can && !bad;
  end

  // expansion: element i = m[i] ? compressed element popcount(m[0..i-1]) : 0
  int idx;
  always_comb begin
    exp1 = '0;
    idx  = 0;
    for (int i = 0; i < NB; i++) begin
      if (m[i]) begin
        exp1[8*i +: 8] = dwin[8*idx +: 8];
        idx = idx + 1;
      end
    end
    exp2 = '0;
    idx  = 0;
    for (int i = 0; i < NB / 2; i++) begin
      if (m[i]) begin
        exp2[16*i +: 16] = dwin[16*idx +: 16];
        idx = idx + 1;
      end
    end
  end

  logic [CW-1:0] nbytes;
  assign nbytes  = e2 ? n << 1 : n;
  assign push    = fire;
  assign o_data  = e2 ? exp2 : exp1;
  assign o_keep  = (nbytes >= CW'(NB)) ? '1 : NB'((NB'(1) << nbytes) - NB'(1));
  assign o_last  = (grp_left <= 32'(ne));
  assign o_user  = grp;
  assign o_bytes = 8'(nbytes);
  assign o_zeros = 8'(n - pc);
  assign o_comp  = 8'(k);
  // a bad beat is reported without waiting for its data or for room: with WGS too small the data it would
  // need is never fetched (the weight reads stop at the WGS sum)
  assign err_mismatch = run && have_grp && mask_ok && bad;

  // ---------------------------------------------------------------- group start (WGS entry, overrun check)
  logic need, load, ovr;
  logic [15:0] load_idx;
  assign load_idx = have_grp ? grp + 16'd1 : grp;
  assign need     = !all_done && (!have_grp || (fire && last_beat && !last_grp));
  assign ovr      = compressed && ent_valid && ({16'd0, cum} + 64'(ent) > 64'(weight_bytes));
  assign load     = run && need && (!compressed || ent_valid) && !ovr;
  assign err_overrun = run && need && ovr;
  assign ent_pop  = load && compressed;

  // ---------------------------------------------------------------- windows: consume, then append
  logic [CW-1:0] m_take, d_take, m_after, d_after, m_nb, d_nb;
  logic [AXI_DATA_W-1:0] wmb_raw, wmb_bits, dat_raw, dat_bytes;
  logic [LB-1:0] wmb_lo, wmb_hi, dat_lo, dat_hi;
  logic          m_app, d_app;

  assign {wmb_hi, wmb_lo, wmb_raw} = wmb_beat;
  assign {dat_hi, dat_lo, dat_raw} = dat_beat;

  // the WMB bit stream is LSB first inside each byte (clarifications section 7): bit 8*b + i of the window is bit i
  // of byte b as it came off the bus (one assignment: a bit-by-bit loop here, in the block below that runs on every
  // beat, was half of Icarus's time on the weight reader)
  assign wmb_bits = wmb_raw;

  always_comb begin
    m_take  = fire ? n : '0;
    d_take  = fire ? k : '0;
    m_after = mcnt - m_take;
    d_after = dcnt - d_take;
    m_nb    = (CW'(wmb_hi) - CW'(wmb_lo) + CW'(1)) << 3;
    d_nb    = CW'(dat_hi) - CW'(dat_lo) + CW'(1);
    m_app   = compressed && wmb_valid && (m_after + m_nb <= CW'(MW));
    d_app   = dat_valid && (d_after + d_nb <= CW'(DW));
    dat_bytes = dat_raw >> (8 * dat_lo);
    dat_bytes = dat_bytes & ~({AXI_DATA_W{1'b1}} << (8 * d_nb));
  end
  assign wmb_pop = m_app;
  assign dat_pop = d_app;

  logic [AXI_DATA_W-1:0] wmb_sh;
  always_comb begin
    wmb_sh = wmb_bits >> (8 * wmb_lo);
    if (m_nb < CW'(AXI_DATA_W)) wmb_sh = wmb_sh & ~({AXI_DATA_W{1'b1}} << m_nb);
  end

  always_ff @(posedge clk) begin
    if (rst || init) begin
      have_grp <= 1'b0;
      grp      <= '0;
      grp_left <= '0;
      grp_used <= '0;
      grp_wgs  <= '0;
      cum      <= '0;
      all_done <= 1'b0;
      mwin     <= '0;
      dwin     <= '0;
      mcnt     <= '0;
      dcnt     <= '0;
    end else begin
      // windows
      mwin <= (mwin >> m_take) | (m_app ? (MW'(wmb_sh) << m_after) : '0);
      mcnt <= m_after + (m_app ? m_nb : '0);
      dwin <= (dwin >> (8 * d_take)) | (d_app ? ((8*DW)'(dat_bytes) << (8 * d_after)) : '0);
      dcnt <= d_after + (d_app ? d_nb : '0);
      // the beat
      if (fire) begin
        grp_left <= grp_left - 32'(n);
        grp_used <= grp_used + 32'(k);
        if (last_beat) begin
          have_grp <= 1'b0;
          if (last_grp) all_done <= 1'b1;
          else          grp <= grp + 16'd1;
        end
      end
      // the next group
      if (load) begin
        have_grp <= 1'b1;
        grp_left <= (load_idx == groups - 16'd1) ? last_elems : group_elems;
        grp_used <= '0;
        grp_wgs  <= ent;
        cum      <= cum + 48'(ent);
      end
    end
  end

endmodule
