// pr_atom: one pixel -> one 32-byte feature-data atom: the four converter lanes (pr_convert) and the atom
// layout. Combinational.
//
// Interface:
//   px_val        the pixel's four 16-bit component values (channel c in [16c +: 16]), from pr_unpacker
//   fmt           the job's format entry (channel count, component class)
//   job           the converter registers (CVT_CFG, CVT_OFFSET, CVT_SCALE, MEAN_0/1)
//   atom          the atom: channel c of an int8 job in byte c, of an int16/fp16 job in bytes 2c, 2c+1 (little
//                 endian); every byte above the format's channels is 0, as the NVDLA feature format pads a
//                 channel group (seed "Feature Data Format": 32 int8 or 16 int16/fp16 channels per atom)
//   sat           saturated components of the pixel (0 .. 4), for the SATURATED counter
// The offset of channel c is CVT_OFFSET, or MEAN_RY/GU/BV/AX with CVT_CFG.MEAN_EN (clarifications 2.3).
`timescale 1ns/1ps
module pr_atom
  import accel_pkg::*;
(
  input  logic [63:0]         px_val,
  input  logic [PR_FMT_W-1:0] fmt,
  input  pix_desc_t           job,
  output logic [255:0]        atom,
  output logic [7:0]          sat
);

  logic [1:0]  nch_m1;
  logic [15:0] lane_out [4];
  logic [3:0]  lane_sat, used;

  // the descriptor's geometry is the walker's business
  /* verilator lint_off UNUSEDSIGNAL */
  pix_desc_t unused_job;
  assign unused_job = job;
  /* verilator lint_on UNUSEDSIGNAL */

  assign nch_m1 = fmt[PR_FMT_NCH_LSB +: 2];

  for (genvar c = 0; c < 4; c++) begin : g_lane
    if (c == 0) begin : g_first
      assign used[c] = 1'b1;                 // every format has channel 0
    end else begin : g_more
      assign used[c] = (2'(c) <= nch_m1);
    end
    pr_convert u_cvt (
      .value     (px_val[16*c +: 16]),
      .c8        (fmt[PR_FMT_C8_BIT]),
      .fp16      (fmt[PR_FMT_FP16_BIT]),
      .cvt_en    (job.cvt_en),
      .sign      (job.sign),
      .offset    (job.mean_en ? job.mean[16*c +: 16] : job.cvt_offset),
      .scale     (job.cvt_scale),
      .truncate  (job.truncate),
      .precision (job.precision),
      .out       (lane_out[c]),
      .sat       (lane_sat[c])
    );
  end

  // always @* rather than always_comb: Icarus 11 refuses the selects below in always_* ("sorry")
  always @* begin
    atom = '0;
    for (int c = 0; c < 4; c++) begin
      if (used[c]) begin
        if (job.precision == 2'd0) atom[8*c +: 8]   = lane_out[c][7:0];
        else                       atom[16*c +: 16] = lane_out[c];
      end
    end
    sat = 8'(lane_sat[0] && used[0]) + 8'(lane_sat[1] && used[1]) + 8'(lane_sat[2] && used[2])
        + 8'(lane_sat[3] && used[3]);
  end

endmodule
