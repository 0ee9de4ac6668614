// pr_line_buf: the pixel reader's plane-0 line buffer for the semi-planar (N444) formats.
//
// Interface: one write port (we, waddr, wdata: one 32-byte bus word per cycle) and one combinational read
// port (raddr -> rdata). DEPTH words: a plane-0 line of the widest N444 format (2 bytes per pixel, 8192 pixels,
// up to 30 bytes of x offset) needs 514. The reader writes a line's plane-0 words while they arrive and reads
// them back while the plane-1 words of the same line arrive (the read engine returns the two commands of a
// line in order), so one line of storage is enough. No reset: a word is read only after it was written.
`timescale 1ns/1ps
module pr_line_buf #(
  parameter int DEPTH  = 520,
  parameter int DATA_W = 256,
  parameter int AW     = $clog2(DEPTH)
) (
  input  logic              clk,
  input  logic              we,
  input  logic [AW-1:0]     waddr,
  input  logic [DATA_W-1:0] wdata,
  input  logic [AW-1:0]     raddr,
  output logic [DATA_W-1:0] rdata
);

  logic [DATA_W-1:0] mem [DEPTH];

  always_ff @(posedge clk) begin
    if (we) mem[waddr] <= wdata;
  end

  assign rdata = mem[raddr];

endmodule
