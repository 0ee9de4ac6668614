// cr_fp16_scan: fp16 NaN / infinity scan of one atom, and the optional NaN flush (cube reader CFG.FP16,
// CFG.NAN_TO_ZERO).
//
// Interface (combinational):
//   fp16        the atom holds fp16 elements (otherwise nothing is counted or flushed)
//   nan_to_zero NaN elements (exponent 31, mantissa != 0) leave as 16'h0000
//   atom_in     the atom, AB bytes (bytes above the atom already 0)
//   atom_out    the atom as sent; nan_n / inf_n its NaN and infinity elements (NVDLA NaN counting)
`timescale 1ns/1ps
module cr_fp16_scan #(
  parameter int AB = 128                 // bytes of the largest atom
) (
  input  logic            fp16,
  input  logic            nan_to_zero,
  input  logic [AB*8-1:0] atom_in,
  output logic [AB*8-1:0] atom_out,
  output logic [7:0]      nan_n,
  output logic [7:0]      inf_n
);

  logic [AB/2-1:0] el_exp31, el_nan, el_inf;
  logic [AB*8-1:0] atom_keep, flush;   // flush: ones over the elements sent as 16'h0000
  logic            j_fp16, j_n2z;

  assign atom_keep = atom_in;
  assign j_fp16    = fp16;
  assign j_n2z     = nan_to_zero;

  for (genvar e = 0; e < AB / 2; e++) begin : g_fp16
    assign el_exp31[e] = j_fp16 && (atom_keep[16*e + 10 +: 5] == 5'h1F);
    assign el_nan[e]   = el_exp31[e] && (atom_keep[16*e +: 10] != 10'd0);
    assign el_inf[e]   = el_exp31[e] && (atom_keep[16*e +: 10] == 10'd0);
    assign flush[16*e +: 16]    = {16{el_nan[e] && j_n2z}};
  end
  // one AND with the flush mask, which changes only with the NaNs flushed
  assign atom_out = atom_keep & ~flush;

  assign nan_n = 8'($countones(el_nan));
  assign inf_n = 8'($countones(el_inf));

endmodule
