// pr_line_walker: the pixel reader's lines -> read-engine commands.
//
// Interface:
//   init                one cycle before the job's data moves: line 0, plane 0
//   run, stopped        commands are issued while run; a bus error (stopped) ends the walk
//   two                 two planes (N444)
//   base0/1, stride0/1  plane bases (32-byte aligned) and line strides (validated)
//   off0, off1          byte of the first ROI pixel in the first 32-byte word of a line: plane 0
//                       x_offset*Bpp0, plane 1 (x_offset*Bpp1) mod 32 (clarifications 2.2)
//   len0, len1          bytes of a line's ROI per plane: width*Bpp0, width*Bpp1
//   height              lines (1 .. 8192)
//   cmd_*               axi_rd_engine commands: per line one for plane 0 at base0 + y*stride0 + off0, then (two
//                       planes) one for plane 1 at base1 + y*stride1 + off1
//   issue_done          every command was accepted
`timescale 1ns/1ps
module pr_line_walker #(
  parameter int AXI_ADDR_W = 40,
  parameter int LEN_W      = AXI_ADDR_W + 1
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic                  init,
  input  logic                  run,
  input  logic                  stopped,
  input  logic                  two,
  input  logic [AXI_ADDR_W-1:0] base0,
  input  logic [AXI_ADDR_W-1:0] base1,
  input  logic [31:0]           stride0,
  input  logic [31:0]           stride1,
  input  logic [4:0]            off0,
  input  logic [4:0]            off1,
  input  logic [LEN_W-1:0]      len0,
  input  logic [LEN_W-1:0]      len1,
  input  logic [13:0]           height,
  output logic                  cmd_valid,
  input  logic                  cmd_ready,
  output logic [AXI_ADDR_W-1:0] cmd_addr,
  output logic [LEN_W-1:0]      cmd_len,
  output logic                  issue_done
);

  logic [AXI_ADDR_W-1:0] a0, a1;     // line start of plane 0 / plane 1
  logic [13:0]           y;
  logic                  p1, done;

  assign cmd_valid  = run && !stopped && !done;
  assign cmd_addr   = p1 ? a1 + AXI_ADDR_W'(off1) : a0 + AXI_ADDR_W'(off0);
  assign cmd_len    = p1 ? len1 : len0;
  assign issue_done = done;

  always_ff @(posedge clk) begin
    if (rst || init) begin
      a0   <= base0;
      a1   <= base1;
      y    <= '0;
      p1   <= 1'b0;
      done <= 1'b0;
    end else if (cmd_valid && cmd_ready) begin
      if (two && !p1) begin
        p1 <= 1'b1;
      end else begin
        p1 <= 1'b0;
        a0 <= a0 + AXI_ADDR_W'(stride0);
        a1 <= a1 + AXI_ADDR_W'(stride1);
        y  <= y + 14'd1;
        if (y == height - 14'd1) done <= 1'b1;
      end
    end
  end

endmodule
