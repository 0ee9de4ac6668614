// param_contract: the legal range of one module parameter, stated once in the RTL and checked at elaboration.
//
// A module states each parameter's contract with one instance (one line, which dlaverif/flow/contracts.py reads as the
// one source of the configuration matrix's ranges):
//   param_contract #(.NAME("AXI_DATA_W"), .VALUE(AXI_DATA_W), .LO(64), .HI(1024), .POW2(1)) u_contract_axi_data_w ();
// LO and HI are constant expressions (they may name the module's other parameters); POW2 adds "a power of two".
// A legal value elaborates to nothing (no cell, no flip-flop). An illegal one stops the build with one line,
//   parameter AXI_DATA_W = 96 is outside its contract: 64..1024, a power of two
// on each tool, through the one construct all three accept (no tool-specific code):
//   on Verilator: the constant function `stop_build` of the nested STOP instance runs $fatal at elaboration
//              (%Warning-USERFATAL with the line, then %Error: the build stops);
//   on Yosys 0.23: the $display of g_violated is evaluated at elaboration (Yosys runs $display in initial blocks),
//              then the nested instance's constant function holds $fatal, which Yosys refuses ("Unsupported
//              language construct in constant function"): hierarchy/prep stops;
//   on Icarus 11: (no elaboration tasks, constant functions' system tasks ignored) the $display and the $fatal of
//              the nested instance run at time 0, before any test: vvp exits with status 1.
`timescale 1ns/1ps
module param_contract #(
  parameter           NAME  = "",      // the parameter's name, for the message
  parameter int       VALUE = 0,
  parameter int       LO    = 0,
  parameter int       HI    = 0,
  parameter bit       POW2  = 1'b0,    // the value must also be a power of two
  parameter bit       STOP  = 1'b0     // internal: the nested instance that stops the build
) ();

  localparam bit OK = (VALUE >= LO) && (VALUE <= HI) && (!POW2 || (VALUE > 0 && (VALUE & (VALUE - 1)) == 0));

  function automatic int stop_build(input bit now);
    if (now) $fatal(1, "parameter %0s = %0d is outside its contract: %0d..%0d%0s", NAME, VALUE, LO, HI,
                    POW2 ? ", a power of two" : "");
    stop_build = 0;
  endfunction

  /* verilator lint_off UNUSEDPARAM */
  localparam int STOPPED = stop_build(STOP);
  /* verilator lint_on UNUSEDPARAM */

  if (!OK && !STOP) begin : g_violated
    initial $display("parameter %0s = %0d is outside its contract: %0d..%0d%0s", NAME, VALUE, LO, HI,
                     POW2 ? ", a power of two" : "");
    param_contract #(.NAME (NAME), .VALUE (VALUE), .LO (LO), .HI (HI), .POW2 (POW2), .STOP (1'b1)) u_stop ();
  end
  if (STOP) begin : g_stop
    initial #0 $fatal(1, "the parameter contract above");
  end

endmodule
