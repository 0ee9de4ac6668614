// weight_group_props: the weight reader's group framing on m_axis, as its datasheet states it (weight_reader.sv
// header, docs/weight_reader.md "Output"): every kernel group starts a new transfer; a group's transfers carry
// exactly its dense bytes (GROUP_BYTES, LAST_GROUP_BYTES for the last group, latched at START: `groups`,
// `group_bytes`, `last_bytes` are the job controller's j_* registers, connected at the bind site); TKEEP is the
// low bytes, full on every transfer but a group's last; TLAST on the last transfer of every group; TUSER = the
// group index, 0 first. Asserted on every transfer of a job (from `job_start` on):
//   * TKEEP low bytes, at least one, full unless TLAST;
//   * the group is one of the job's (TUSER < GROUPS) and the job's first transfer is group 0;
//   * the group's bytes so far plus this transfer's kept bytes stay within the group's dense bytes, and TLAST is
//     set exactly when they reach them.
// A run-time error may cut a group short (its last transfers are not sent, the job stops): nothing is asserted
// about the transfers that were not sent. axis_source_props (TUSER_GROUP) checks that TUSER advances exactly
// after a TLAST; this bundle checks TLAST against the byte count, so a wrong TLAST shows on the transfer that
// carries it, not only on the next one.
`timescale 1ns/1ps
`include "prop_macros.svh"
module weight_group_props #(
  parameter int KEEP_W = 8
) (
  input  logic              clk,
  input  logic              rst,
  input  logic              job_start,
  input  logic [31:0]       groups,
  input  logic [31:0]       group_bytes,
  input  logic [31:0]       last_bytes,
  input  logic [KEEP_W-1:0] tkeep,
  input  logic              tlast,
  input  logic [15:0]       tuser,
  input  logic              tvalid,
  input  logic              tready
);

  `PROP_REPORTER

  logic [31:0] acc;          // bytes of the current group sent so far
  logic        sent;         // the job sent a transfer
  logic [31:0] kept, gbytes, upto;
  logic        xfer, low_bytes;

  always_comb begin
    kept = 32'd0;
    for (int i = 0; i < KEEP_W; i++) kept = kept + 32'(tkeep[i]);
  end
  assign xfer      = tvalid && tready;
  assign low_bytes = (tkeep != '0) && ((tkeep & (tkeep + KEEP_W'(1))) == '0);
  assign gbytes    = (32'(tuser) + 32'd1 == groups) ? last_bytes : group_bytes;
  assign upto      = acc + kept;

  always @(posedge clk) begin
    if (rst || job_start) begin
      acc  <= 32'd0;
      sent <= 1'b0;
    end else if (xfer) begin
      acc  <= tlast ? 32'd0 : upto;
      sent <= 1'b1;
    end
  end

  always @(posedge clk) begin
    if (!rst && xfer) begin
      `PROP_ASSERT("TKEEP: the low bytes, at least one, all of them unless TLAST",
                   low_bytes && (tlast || (&tkeep)))
      `PROP_ASSERT("TUSER: a group of the job, group 0 first", 32'(tuser) < groups && (sent || tuser == 16'd0))
      `PROP_ASSERT("a group's transfers carry its dense bytes, TLAST exactly on the last",
                   upto <= gbytes && (tlast == (upto == gbytes)))
    end
    if (!rst) `PROP_COVER("a group's transfer before its last", xfer && !tlast)
  end

endmodule
