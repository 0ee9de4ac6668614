// prop_macros.svh: the statements every property module of blocks/rtl/props/ checks with, so that one text is
// both proved (dlaverif/flow/formal.py, FORMAL defined by `read_verilog -formal`) and checked in every simulation
// (dlaverif/flow/runner.py compiles the property modules with DLA_ASSERT defined; docs/formal.md).
//
//   `PROP_ASSERT(name, cond)   an obligation of the design (the module's outputs)
//   `PROP_ASSUME(name, cond)   an obligation of its environment (the other side of the bus)
//   `PROP_COVER(name, cond)    a state the proof must reach within its depth (formal only: a proof whose covers
//                              are not all reached is vacuous somewhere, dlaverif/flow/formal.py fails it)
//   `PROP_REPORTER             once per property module: what a failure does in simulation
//   `PROP_FORMAL_RESET         once per property bundle bound in a design: formal only, reset in the first cycle
//                              (every input is free afterwards, rst included)
//
// Formal: a plain immediate assert / assume. Simulation (Verilator --assert, Icarus -g2012): an immediate assert in
// both cases (an assumption checks the testbench's bus models there) whose failure prints one line and appends it
// to `assertions.log` in the simulation's working directory:
//   <time in ns> <ASSERT|ASSUME> <property module instance> <name>
// The testbench (dlaverif/platform/assertions.py) reads that file after every job and fails the job (and so the test) with it.
`ifndef PROP_MACROS_SVH
`define PROP_MACROS_SVH
`ifdef FORMAL
`define PROP_ASSERT(name, cond) begin assert (cond); end
`define PROP_ASSUME(name, cond) begin assume (cond); end
`define PROP_COVER(name, cond) begin cover (cond); end
`define PROP_REPORTER
`define PROP_FORMAL_RESET \
  logic f_init; \
  initial f_init = 1'b1; \
  always @(posedge clk) begin \
    f_init <= 1'b0; \
    if (f_init) assume (rst); \
  end
`else
`define PROP_FORMAL_RESET
`define PROP_COVER(name, cond) begin end
`define PROP_ASSERT(name, cond) begin assert (cond) else prop_failed("ASSERT", name); end
`define PROP_ASSUME(name, cond) begin assert (cond) else prop_failed("ASSUME", name); end
`define PROP_REPORTER \
  task automatic prop_failed(input string kind, input string name); \
    integer fd; \
    $display("%0d ns: %0s FAILED %m: %0s", $time, kind, name); \
    fd = $fopen("assertions.log", "a"); \
    if (fd != 0) begin \
      $fdisplay(fd, "%0d %0s %m %0s", $time, kind, name); \
      $fclose(fd); \
    end \
  endtask
`endif
`endif
