// axis_source_props: AXI4-Stream SOURCE (master) properties (ARM IHI 0051, section 2.2 handshake), written from
// the specification. TREADY is free (the sink may stall at any time). Asserted: TVALID low in the cycle after
// reset; once TVALID is high it stays high, with TDATA/TKEEP/TLAST/TUSER stable, until TREADY.
// Optional job framing (TLAST_ONCE = 1, for a block whose TLAST marks the end of a job): after a transfer with
// TLAST no other transfer until `job_done` (the block's end-of-job level, e.g. irq = STATUS.DONE) is seen.
`timescale 1ns/1ps
module axis_source_props #(
  parameter int DATA_W     = 64,
  parameter int KEEP_W     = DATA_W / 8,
  parameter int USER_W     = 1,
  parameter bit TLAST_ONCE = 1'b0
) (
  input  logic              clk,
  input  logic              rst,
  input  logic              job_done,
  input  logic [DATA_W-1:0] tdata,
  input  logic [KEEP_W-1:0] tkeep,
  input  logic              tlast,
  input  logic [USER_W-1:0] tuser,
  input  logic              tvalid,
  input  logic              tready
);

  logic              p_valid, p_rst, p_tvalid, p_tready, p_tlast;
  logic [DATA_W-1:0] p_tdata;
  logic [KEEP_W-1:0] p_tkeep;
  logic [USER_W-1:0] p_tuser;
  logic              ended;        // a TLAST transfer went out and job_done has not been seen since
  initial p_valid = 1'b0;

  always @(posedge clk) begin
    p_valid  <= 1'b1;
    p_rst    <= rst;
    p_tvalid <= tvalid;
    p_tready <= tready;
    p_tdata  <= tdata;
    p_tkeep  <= tkeep;
    p_tlast  <= tlast;
    p_tuser  <= tuser;
    if (rst || job_done)                   ended <= 1'b0;
    else if (tvalid && tready && tlast)    ended <= 1'b1;
  end

  always @(posedge clk) begin
    if (p_valid && p_rst && !rst) assert (!tvalid);
    if (p_valid && !p_rst && !rst && p_tvalid && !p_tready) begin
      assert (tvalid);
      assert (tdata == p_tdata && tkeep == p_tkeep && tlast == p_tlast && tuser == p_tuser);
    end
    if (TLAST_ONCE && p_valid && !p_rst && !rst && ended && !job_done) assert (!(tvalid && tready));
  end

endmodule
