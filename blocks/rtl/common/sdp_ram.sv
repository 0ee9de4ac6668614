// sdp_ram: simple dual-port RAM, DEPTH words of W bits: one write port, one read port with a registered
// (synchronous) output. Shared by axi_rd_engine (its burst table, one entry per read in flight) and the weight
// reader's queues (sync_fifo); written so synthesis infers a memory (Yosys: one $mem with a clocked read port),
// not DEPTH x W flip-flops.
//
// No registers: this block has no register map (its users' register maps are at the top of their readers).
//
// Read: rdata = the word at raddr as it is after this edge's write (write-first: when we && waddr == raddr the
// new word wdata is returned). A user that presents the *next* cycle's read address (for a FIFO: the head
// pointer after this cycle's pop) sees in rdata exactly what an asynchronous read of the current address gives,
// one cycle later and from a register: this is how the FIFOs keep their first-word fall-through timing.
// The contents are not reset (users reset their pointers); rdata is undefined until its word was written.
`timescale 1ns/1ps
module sdp_ram #(
  parameter int W     = 8,
  parameter int DEPTH = 16,
  localparam int AW   = (DEPTH > 1) ? $clog2(DEPTH) : 1
) (
  input  logic          clk,
  input  logic          we,
  input  logic [AW-1:0] waddr,
  input  logic [W-1:0]  wdata,
  input  logic [AW-1:0] raddr,
  output logic [W-1:0]  rdata
);

  // Parameter contracts (param_contract.sv): the legal ranges, checked at elaboration
  param_contract #(.NAME ("W"),        .VALUE (W),        .LO (1), .HI (4096)) u_contract_w ();
  param_contract #(.NAME ("DEPTH"),    .VALUE (DEPTH),    .LO (1), .HI (65536)) u_contract_depth ();

  logic [W-1:0] mem [DEPTH];

  always_ff @(posedge clk) begin
    if (we) mem[waddr] <= wdata;
  end

  always_ff @(posedge clk) begin
    if (we && waddr == raddr) rdata <= wdata;
    else                      rdata <= mem[raddr];
  end

`ifdef DLA_ASSERT
  // Assertions, not design (docs/formal.md): rdata is the word last read (the props keep the previous raddr,
  // p_raddr, and read that word here). Icarus 11 and Yosys 0.23 have no `bind`, so the one binding is this
  // instance; dlaverif/flow/runner.py and dlaverif/flow/formal.py define DLA_ASSERT, synthesis does not.
  logic [AW-1:0] p_raddr;
  sdp_ram_props #(.W (W), .DEPTH (DEPTH), .AW (AW)) u_props (
    .clk, .raddr, .rdata, .mem_rd (mem[p_raddr]), .p_raddr
  );
`endif

endmodule
