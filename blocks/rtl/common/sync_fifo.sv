// sync_fifo: a synchronous FIFO of W-bit words, DEPTH entries (any depth >= 1), first-word fall-through.
//
// No registers: this block has no register map (the weight reader's is at the top of weight_reader.sv).
//
// Interface: push (with din) when !full; pop when !empty (dout is the head while !empty); `clear` empties it
// (new job). count = occupancy 0..DEPTH. Used by the weight reader for its WGS, WMB and weight beat queues,
// the WGS entry queue, the tag queue of the read engine's commands and the output queue. Pushing while full
// or popping while empty is a caller bug; the FIFO ignores such a request so its pointers stay consistent.
// Storage: DEPTH > 2 is an sdp_ram (synthesis infers a memory) whose read port is given the head pointer of
// the next cycle, so its registered output is the head in every cycle (the same timing as an asynchronous
// read: nothing is added to the latency); DEPTH <= 2 (the output queue) is flip-flops.
`timescale 1ns/1ps
module sync_fifo #(
  parameter int W     = 8,
  parameter int DEPTH = 4
) (
  input  logic                     clk,
  input  logic                     rst,
  input  logic                     clear,
  input  logic                     push,
  input  logic [W-1:0]             din,
  input  logic                     pop,
  output logic [W-1:0]             dout,
  output logic                     empty,
  output logic                     full,
  output logic [$clog2(DEPTH+1)-1:0] count
);

  // Parameter contracts (param_contract.sv): the legal ranges, checked at elaboration
  param_contract #(.NAME ("W"),        .VALUE (W),        .LO (1), .HI (4096)) u_contract_w ();
  param_contract #(.NAME ("DEPTH"),    .VALUE (DEPTH),    .LO (1), .HI (65536)) u_contract_depth ();

  localparam int PW = (DEPTH > 1) ? $clog2(DEPTH) : 1;
  localparam int CW = $clog2(DEPTH + 1);

  logic [PW-1:0] wp, rp, rp_n;
  logic          do_push, do_pop;

  function automatic logic [PW-1:0] inc(input logic [PW-1:0] p);
    inc = (p == PW'(DEPTH - 1)) ? '0 : p + PW'(1);
  endfunction

  assign empty   = (count == '0);
  assign full    = (count == CW'(DEPTH));
  assign do_push = push && !full;
  assign do_pop  = pop && !empty;
  assign rp_n    = (rst || clear) ? '0 : (do_pop ? inc(rp) : rp);

  generate
    if (DEPTH > 2) begin : g_ram
      sdp_ram #(.W(W), .DEPTH(DEPTH)) u_ram (
        .clk, .we (do_push && !rst && !clear), .waddr (wp), .wdata (din), .raddr (rp_n), .rdata (dout)
      );
    end else begin : g_ff
      logic [W-1:0] mem [DEPTH];
      assign dout = mem[rp];
      always_ff @(posedge clk) begin
        if (do_push) mem[wp] <= din;
      end
    end
  endgenerate

  always_ff @(posedge clk) begin
    if (rst || clear) begin
      wp    <= '0;
      rp    <= '0;
      count <= '0;
    end else begin
      if (do_push) wp <= inc(wp);
      if (do_pop)  rp <= rp_n;
      count <= count + CW'(do_push) - CW'(do_pop);
    end
  end

endmodule
