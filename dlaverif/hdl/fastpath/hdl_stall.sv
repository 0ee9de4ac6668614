// hdl_stall: testbench-only stall pattern generator (never synthesized into blocks/rtl/). One per handshake knob
// of the HDL-side memory and capture (dlaverif/fastpath/harness.py sets it per job). stall = 1 means "withhold this cycle",
// the convention of dlaverif/agents/stalls.py. The pattern advances every clock cycle.
//
// Interface (sampled on the rising edge where `load` is high):
//   mode  0 none      never stall
//         1 periodic  stall on the phases whose bit is set in param[31:16]; period param[7:0] (1..16)
//         2 random    stall when the low 16 bits of a 32-bit xorshift state are below param[15:0]
//                     (param = p * 65536), state seeded from `seed`
//         3 bursty    alternating runs: 1..param[7:0] ready cycles, then 1..param[15:8] stalled cycles,
//                     run lengths from the xorshift state
`timescale 1ns / 1ps
module hdl_stall (
  input  logic        clk,
  input  logic        load,
  input  logic [1:0]  mode_in,
  input  logic [31:0] param_in,
  input  logic [31:0] seed_in,
  output logic        stall
);
  logic [1:0]  mode;
  logic [31:0] param;
  logic [31:0] state;
  logic [7:0]  phase;
  logic [7:0]  run;        // bursty: cycles left in the current run
  logic        in_stall;   // bursty: current run is a stall run

  function automatic logic [31:0] xorshift(input logic [31:0] s);
    logic [31:0] x;
    x = s;
    x = x ^ (x << 13);
    x = x ^ (x >> 17);
    x = x ^ (x << 5);
    return x;
  endfunction

  always_comb begin
    case (mode)
      2'd1:    stall = param[16 + 32'(phase[3:0])];
      2'd2:    stall = state[15:0] < param[15:0];
      2'd3:    stall = in_stall;
      default: stall = 1'b0;
    endcase
  end

  initial begin
    mode = 2'd0;
    param = 32'd0;
    state = 32'h1;
    phase = 8'd0;
    run = 8'd1;
    in_stall = 1'b0;
  end

  always @(posedge clk) begin
    if (load) begin
      mode     <= mode_in;
      param    <= param_in;
      state    <= (seed_in == 32'd0) ? 32'h1 : seed_in;
      phase    <= 8'd0;
      run      <= 8'd1;
      in_stall <= 1'b0;
    end else begin
      state <= xorshift(state);
      phase <= (phase + 8'd1 >= param[7:0]) ? 8'd0 : phase + 8'd1;
      if (mode == 2'd3) begin
        if (run <= 8'd1) begin
          in_stall <= !in_stall;
          // next run: 1..on (ready run) or 1..off (stall run)
          run <= 8'd1 + 8'(state[23:16] % (in_stall ? (param[7:0] == 8'd0 ? 8'd1 : param[7:0])
                                                    : (param[15:8] == 8'd0 ? 8'd1 : param[15:8])));
        end else begin
          run <= run - 8'd1;
        end
      end
    end
  end
endmodule
