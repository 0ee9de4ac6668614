// pr_unpacker: read-engine beats -> pixels, the pixel reader's one generic unpacker (every format through the
// format table of accel_pkg, pr_format()).
//
// Interface:
//   init                  one cycle before the job's data moves: coordinates to (0, 0), plane phase 0
//   run, stopped          data moves / a bus error stopped the job (no pixel leaves, beats are not taken)
//   fmt                   the job's format entry (accel_pkg PR_FMT_*), off0 = x offset in bytes in plane 0
//   width, height         pixels per line, lines (validated: 1 .. 8192)
//   rd_*                  the read engine's beats in command order: per line one plane-0 command, then (N444)
//                         one plane-1 command; rd_lo/rd_hi = first/last byte lane of the command in the beat
//   space                 the output queue takes a pixel this cycle
//   px_valid              a pixel leaves (one per cycle at most) with its four 16-bit component values px_val
//                         (channel c in [16c +: 16]; 8-bit components in the low byte), its coordinates
//                         (px_h, px_w), px_last (last pixel of the job) and px_eol (last pixel of its line)
//   bus_err, bus_decerr   the beat at the head carries RRESP SLVERR/DECERR (valid while run && !stopped)
// Behaviour:
//   Single-plane formats: pixels are cut from each beat from its first lane of the command (rd_lo: the x
//   offset skips whole pixels of the first 32-byte chunk) in steps of the plane's bytes per pixel; a pixel
//   never straddles two beats (bytes per pixel divide 32 and the line starts 32-byte aligned). The beat is
//   released with its last pixel.
//   N444: the plane-0 (Y) beats of a line go into a line buffer (one per cycle); then each plane-1 (chroma)
//   pixel is combined with its Y read from the buffer at byte off0 + x*Bpp0.
//   Components: per output channel the table names the plane, the bit position in the little-endian pixel
//   word and the width: 8-bit, 16-bit, packed 10-bit (field << 6) or 2-bit alpha (a << 14).
`timescale 1ns/1ps
module pr_unpacker
  import accel_pkg::*;
#(
  parameter int DATA_W   = 256,
  parameter int LB_DEPTH = 520
) (
  input  logic                        clk,
  input  logic                        rst,
  input  logic                        init,
  input  logic                        run,
  input  logic                        stopped,
  input  logic [PR_FMT_W-1:0]         fmt,
  input  logic [4:0]                  off0,
  input  logic [13:0]                 width,
  input  logic [13:0]                 height,
  input  logic                        rd_valid,
  output logic                        rd_ready,
  input  logic [DATA_W-1:0]           rd_data,
  input  logic [1:0]                  rd_resp,
  input  logic [4:0]                  rd_lo,
  input  logic [4:0]                  rd_hi,
  input  logic                        rd_last,
  input  logic                        space,
  output logic                        px_valid,
  output logic [63:0]                 px_val,
  output logic [15:0]                 px_h,
  output logic [15:0]                 px_w,
  output logic                        px_last,
  output logic                        px_eol,
  output logic                        bus_err,
  output logic                        bus_decerr
);

  localparam int LBW = $clog2(LB_DEPTH);

  logic        two;
  logic [1:0]  bpp0_l, bpp1_l, bpp_l;
  logic        in_p1, mid;
  logic [4:0]  ptr, cur_lane;
  logic [5:0]  nxt;
  logic        beat_end, err_now, active, fill, emit;
  logic [13:0] x, y;
  logic [14:0] p0pos;               // byte of the current pixel's Y in the plane-0 line (N444)
  logic [LBW-1:0] widx;
  logic [DATA_W-1:0] lb_word;
  logic [63:0] pw0, pw1;

  assign two      = fmt[PR_FMT_TWO_BIT];
  assign bpp0_l   = fmt[PR_FMT_BPP0_LSB +: 2];
  assign bpp1_l   = {1'b0, fmt[PR_FMT_BPP1_BIT]} + 2'd1;
  assign bpp_l    = (two && in_p1) ? bpp1_l : bpp0_l;
  assign cur_lane = mid ? ptr : rd_lo;
  assign nxt      = {1'b0, cur_lane} + (6'd1 << bpp_l);
  assign beat_end = (nxt > {1'b0, rd_hi});
  assign active   = run && !stopped;
  assign err_now  = rd_valid && rd_resp[1];
  assign fill     = two && !in_p1;
  assign emit     = active && rd_valid && !err_now && !fill && space;

  assign bus_err    = active && err_now;
  assign bus_decerr = rd_resp[0];
  assign rd_ready   = active && !err_now && (fill || (space && beat_end));

  // ---------------------------------------------------------------- plane-0 line buffer (N444)
  pr_line_buf #(.DEPTH(LB_DEPTH), .DATA_W(DATA_W)) u_lb (
    .clk,
    .we    (active && rd_valid && !err_now && fill),
    .waddr (widx),
    .wdata (rd_data),
    .raddr (LBW'(p0pos >> 5)),
    .rdata (lb_word)
  );

  // ---------------------------------------------------------------- the pixel's words and components
  assign pw1 = 64'(rd_data >> {cur_lane, 3'b000});
  assign pw0 = two ? 64'(lb_word >> {p0pos[4:0], 3'b000}) : pw1;

  for (genvar c = 0; c < 4; c++) begin : g_ch
    logic [8:0]  ch;
    logic [15:0] w;
    assign ch = fmt[PR_CH_W*c +: PR_CH_W];
    assign w  = 16'((ch[8] ? pw1 : pw0) >> ch[7:2]);
    assign px_val[16*c +: 16] = (ch[1:0] == 2'(PR_WC_8))  ? {8'd0, w[7:0]}
                              : (ch[1:0] == 2'(PR_WC_16)) ? w[15:0]
                              : (ch[1:0] == 2'(PR_WC_10)) ? {w[9:0], 6'd0}
                              :                             {w[1:0], 14'd0};
  end

  assign px_valid = emit;
  assign px_h     = 16'(y);
  assign px_w     = 16'(x);
  assign px_eol   = (x == width - 14'd1);
  assign px_last  = px_eol && (y == height - 14'd1);

  // ---------------------------------------------------------------- walk
  always_ff @(posedge clk) begin
    if (rst || init) begin
      in_p1 <= 1'b0;
      mid   <= 1'b0;
      ptr   <= '0;
      x     <= '0;
      y     <= '0;
      p0pos <= 15'(off0);
      widx  <= '0;
    end else if (active && rd_valid && !err_now) begin
      if (fill) begin
        widx <= rd_last ? '0 : widx + LBW'(1);
        if (rd_last) in_p1 <= 1'b1;
      end else if (space) begin
        mid <= !beat_end;
        ptr <= nxt[4:0];
        if (beat_end && rd_last && two) in_p1 <= 1'b0;
        if (px_eol) begin
          x     <= '0;
          y     <= y + 14'd1;
          p0pos <= 15'(off0);
        end else begin
          x     <= x + 14'd1;
          p0pos <= p0pos + (15'd1 << bpp0_l);
        end
      end
    end
  end

endmodule
