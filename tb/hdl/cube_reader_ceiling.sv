// cube_reader_ceiling: the throughput ceiling of `make bench` (issue 12): the fast-path wrapper cube_reader_hdl
// driven by this SystemVerilog harness alone, no Python in the simulator. Never part of rtl_stubs/.
//
// Files (simulator working directory, written by tests/bench/ceiling.py): hdl_cfg.hex and hdl_mem.hex (as for
// the fast path), hdl_regs.hex: word 0 the number of register writes n, words 1..n {offset[39:32], value[31:0]}.
// The harness resets the reader, loads the files, writes the registers over AXI4-Lite, writes CTRL.START, waits
// for irq, has the memory and capture write their logs (hdl_*.hex, checked by the bench in Python afterwards)
// and prints "CEILING cycles=<START to DONE> total=<cycles>".
`timescale 1ns / 1ps
module cube_reader_ceiling;
  logic        clk = 1'b0;
  logic        rst = 1'b1;
  logic [7:0]  s_axil_awaddr = 8'd0, s_axil_araddr = 8'd0;
  logic [2:0]  s_axil_awprot = 3'd0, s_axil_arprot = 3'd0;
  logic        s_axil_awvalid = 1'b0, s_axil_wvalid = 1'b0, s_axil_arvalid = 1'b0;
  logic        s_axil_bready = 1'b1, s_axil_rready = 1'b1;
  logic [31:0] s_axil_wdata = 32'd0;
  logic [3:0]  s_axil_wstrb = 4'hF;
  logic        s_axil_awready, s_axil_wready, s_axil_bvalid, s_axil_arready, s_axil_rvalid, irq;
  logic [1:0]  s_axil_bresp, s_axil_rresp;
  logic [31:0] s_axil_rdata, tb_inflight;
  logic        tb_load = 1'b0, tb_dump = 1'b0;
  logic [39:0] tb_cycle, t_start;
  logic [15:0] tb_data_w;
  logic [7:0]  tb_addr_w;
  logic [39:0] regs [0:63];

  always #5 clk = ~clk;

  cube_reader_hdl u_top (.*);

  task automatic axil_write(input logic [7:0] a, input logic [31:0] d);
    logic aw_ok, w_ok;
    aw_ok = 1'b0;
    w_ok = 1'b0;
    @(negedge clk);
    s_axil_awaddr = a;
    s_axil_wdata = d;
    s_axil_awvalid = 1'b1;
    s_axil_wvalid = 1'b1;
    while (!(aw_ok && w_ok)) begin
      @(posedge clk);
      if (s_axil_awready) aw_ok = 1'b1;
      if (s_axil_wready) w_ok = 1'b1;
      @(negedge clk);
      if (aw_ok) s_axil_awvalid = 1'b0;
      if (w_ok) s_axil_wvalid = 1'b0;
    end
    while (!s_axil_bvalid) @(negedge clk);
    @(negedge clk);
  endtask

  initial begin
    $readmemh("hdl_regs.hex", regs);
    repeat (4) @(negedge clk);
    rst = 1'b0;
    tb_load = 1'b1;
    repeat (2) @(negedge clk);
    for (int i = 1; i <= 32'(regs[0]); i++) axil_write(regs[i][39:32], regs[i][31:0]);
    axil_write(8'h08, 32'd1);            // CTRL.START
    t_start = tb_cycle;
    while (irq) @(negedge clk);          // the previous DONE falls at START
    while (!irq) @(negedge clk);
    tb_dump = 1'b1;
    repeat (3) @(negedge clk);
    $display("CEILING cycles=%0d total=%0d", tb_cycle - t_start, tb_cycle);
    $finish;
  end
endmodule
