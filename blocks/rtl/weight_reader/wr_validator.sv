// wr_validator: the weight reader's descriptor validator (combinational, one error bit per rule).
//
// Reference model: dlaverif/models/weight_desc.py WeightSurfaceDescriptor.errors(addr_bits=ADDR_W). Bit i is rule
// ERROR_RULES[i] (accel_csr_pkg WR_ERR_ELEM_SIZE .. WR_ERR_ADDR_OVERFLOW), evaluated on the raw register values:
//   ELEM_SIZE       elem_bytes not 1 or 2
//   GROUPS          groups 0 or above WR_MAX_GROUPS
//   GROUP_SIZE      group_bytes or last_group_bytes 0, last > group, or (elem 1/2) not whole elements
//   TOTAL_OVERFLOW  dense bytes (groups-1)*group_bytes + last_group_bytes above 2**32-1
//   ALIGN_*         a base the job reads not a multiple of 256 (Table 35; WMB/WGS only when compressed)
//   SIZE_WEIGHT     weight bytes not a multiple of 128, or (dense, counts legal) smaller than the dense bytes
//   SIZE_WMB        compressed: WMB bytes not a multiple of 128, or (counts legal) 8*bytes < dense elements
//   SIZE_WGS        compressed: WGS bytes not a multiple of 128, or (counts legal) bytes < 4*groups
//   ADDR_OVERFLOW   base + bytes of a surface the job reads above 2**ADDR_W
// Interface: the latched descriptor in, `errors` out (combinational; cr/wr job control samples it one cycle
// after START). Derived outputs for the data path: dense_bytes (valid when the counts are legal).
`timescale 1ns/1ps
module wr_validator
  import accel_csr_pkg::*;
  import accel_pkg::*;
#(
  parameter int ADDR_W = 40
) (
  input  logic        compressed,
  input  logic [31:0] elem_bytes,
  input  logic [31:0] groups,
  input  logic [31:0] group_bytes,
  input  logic [31:0] last_group_bytes,
  input  logic [63:0] weight_base,
  input  logic [31:0] weight_bytes,
  input  logic [63:0] wmb_base,
  input  logic [31:0] wmb_bytes,
  input  logic [63:0] wgs_base,
  input  logic [31:0] wgs_bytes,
  output logic [63:0] dense_bytes,
  output logic [WR_ERR_ADDR_OVERFLOW:0] errors
);

  logic        e_ok, e2, whole, counts_ok;
  logic        bad_elem, bad_groups, bad_gsize, bad_total;
  logic [63:0] dense_elems;
  logic [64:0] top_limit, end_w, end_m, end_g;

  // continuous assignments, not always_comb: Icarus 11 cannot take part-selects inside always_* processes
  assign e_ok        = (elem_bytes == 32'd1) || (elem_bytes == 32'd2);
  assign e2          = (elem_bytes == 32'd2);
  assign whole       = !e2 || (!group_bytes[0] && !last_group_bytes[0]);
  assign dense_bytes = ((groups == 32'd0) ? 64'd0 : 64'(groups - 32'd1) * 64'(group_bytes)) + 64'(last_group_bytes);
  assign dense_elems = e2 ? (dense_bytes >> 1) : (e_ok ? dense_bytes : 64'd0);
  assign bad_elem    = !e_ok;
  assign bad_groups  = (groups == 32'd0) || (groups > 32'(WR_MAX_GROUPS));
  assign bad_gsize   = (group_bytes == 32'd0) || (last_group_bytes == 32'd0) || (last_group_bytes > group_bytes)
                     || !whole;
  assign bad_total   = dense_bytes > 64'hFFFF_FFFF;
  assign counts_ok   = !(bad_elem || bad_groups || bad_gsize || bad_total);
  assign top_limit   = 65'd1 << ADDR_W;
  assign end_w       = {1'b0, weight_base} + 65'(weight_bytes);
  assign end_m       = {1'b0, wmb_base} + 65'(wmb_bytes);
  assign end_g       = {1'b0, wgs_base} + 65'(wgs_bytes);

  assign errors[WR_ERR_ELEM_SIZE]      = bad_elem;
  assign errors[WR_ERR_GROUPS]         = bad_groups;
  assign errors[WR_ERR_GROUP_SIZE]     = bad_gsize;
  assign errors[WR_ERR_TOTAL_OVERFLOW] = bad_total;
  assign errors[WR_ERR_ALIGN_WEIGHT]   = weight_base[7:0] != 8'd0;
  assign errors[WR_ERR_ALIGN_WMB]      = compressed && (wmb_base[7:0] != 8'd0);
  assign errors[WR_ERR_ALIGN_WGS]      = compressed && (wgs_base[7:0] != 8'd0);
  assign errors[WR_ERR_SIZE_WEIGHT]    = (weight_bytes[6:0] != 7'd0)
                                       || (counts_ok && !compressed && 64'(weight_bytes) < dense_bytes);
  assign errors[WR_ERR_SIZE_WMB]       = compressed && ((wmb_bytes[6:0] != 7'd0)
                                       || (counts_ok && {29'd0, wmb_bytes, 3'd0} < dense_elems));
  assign errors[WR_ERR_SIZE_WGS]       = compressed && ((wgs_bytes[6:0] != 7'd0)
                                       || (counts_ok && 64'(wgs_bytes) < {30'd0, groups, 2'd0}));
  assign errors[WR_ERR_ADDR_OVERFLOW]  = (end_w > top_limit)
                                       || (compressed && ((end_m > top_limit) || (end_g > top_limit)));

endmodule
