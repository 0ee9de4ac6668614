// tb_regs: plain SystemVerilog bench of one regs_dut (wrap_*.sv), run on Verilator (--binary --timing) and
// Icarus (-g2012) by tests/bench/regblock_compare.py. Prints "RESULT <name> <cycles>" and
// "CHECK <name> PASS|FAIL ..." lines and "DONE <failures>".
//
// Cycle convention: every handshake is logged at the rising edge that samples it (valid && ready). The latency
// of an access is the response edge minus the edge that first samples the request's VALID (AWVALID/WVALID
// together, or ARVALID); "N back-to-back" is (last response edge - first request edge + 1) with the master
// presenting the next request as soon as the previous one is accepted and BREADY/RREADY always high.
`timescale 1ns/1ps
module tb_regs;
  logic clk = 1'b0;
  always #5 clk = ~clk;
  logic rst = 1'b1;

  logic [7:0]  awaddr = '0, araddr = '0;
  logic        awvalid = 1'b0, wvalid = 1'b0, arvalid = 1'b0, bready = 1'b1, rready = 1'b1;
  logic [31:0] wdata = '0;
  logic [3:0]  wstrb = '0;
  logic        awready, wready, bvalid, arready, rvalid;
  logic [1:0]  bresp, rresp;
  logic [31:0] rdata;
  logic [31:0] ro_val = 32'hA5A5_5A5D;
  logic        start;
  logic [31:0] cfg_q, base_lo_q, stride_n_q;

  regs_dut dut (
    .clk(clk), .rst(rst),
    .s_axil_awaddr(awaddr), .s_axil_awprot(3'b000), .s_axil_awvalid(awvalid), .s_axil_awready(awready),
    .s_axil_wdata(wdata), .s_axil_wstrb(wstrb), .s_axil_wvalid(wvalid), .s_axil_wready(wready),
    .s_axil_bresp(bresp), .s_axil_bvalid(bvalid), .s_axil_bready(bready),
    .s_axil_araddr(araddr), .s_axil_arprot(3'b000), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
    .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid), .s_axil_rready(rready),
    .ro_val(ro_val), .start(start), .cfg_q(cfg_q), .base_lo_q(base_lo_q), .stride_n_q(stride_n_q)
  );

  integer cyc = 0;
  always @(posedge clk) cyc <= cyc + 1;

  // ---------------------------------------------------------------- monitor (edge-sampled handshakes)
  integer b_n = 0, r_n = 0, st_n = 0;
  integer b_c [0:255];
  integer r_c [0:255];
  integer st_c [0:255];
  logic [1:0]  b_r [0:255];
  logic [1:0]  r_r [0:255];
  logic [31:0] r_d [0:255];
  always @(posedge clk) begin
    if (!rst) begin
      if (bvalid && bready) begin b_c[b_n] = cyc; b_r[b_n] = bresp; b_n = b_n + 1; end
      if (rvalid && rready) begin r_c[r_n] = cyc; r_r[r_n] = rresp; r_d[r_n] = rdata; r_n = r_n + 1; end
      if (start) begin st_c[st_n] = cyc; st_n = st_n + 1; end
    end
  end

  // ---------------------------------------------------------------- master
  logic [7:0]  wa [0:63];
  logic [31:0] wd [0:63];
  logic [3:0]  ws [0:63];
  logic [7:0]  ra [0:63];
  integer t_req;
  integer fails = 0;

  task automatic drive_aw(input integer n, input integer delay);
    integer i;
    begin
      repeat (delay) begin @(posedge clk); #1; end
      i = 0;
      while (i < n) begin
        awaddr = wa[i]; awvalid = 1'b1;
        @(posedge clk);
        if (awready) i = i + 1;
        #1;
      end
      awvalid = 1'b0;
    end
  endtask

  task automatic drive_w(input integer n, input integer delay);
    integer i;
    begin
      repeat (delay) begin @(posedge clk); #1; end
      i = 0;
      while (i < n) begin
        wdata = wd[i]; wstrb = ws[i]; wvalid = 1'b1;
        @(posedge clk);
        if (wready) i = i + 1;
        #1;
      end
      wvalid = 1'b0;
    end
  endtask

  task automatic drive_ar(input integer n);
    integer i;
    begin
      i = 0;
      while (i < n) begin
        araddr = ra[i]; arvalid = 1'b1;
        @(posedge clk);
        if (arready) i = i + 1;
        #1;
      end
      arvalid = 1'b0;
    end
  endtask

  // n writes wa/wd/ws[0..n-1], AW delayed by aw_delay cycles and W by w_delay; returns at 1 ns after the edge
  // of the last B handshake. t_req: the edge that first samples AWVALID or WVALID.
  task automatic writes(input integer n, input integer aw_delay, input integer w_delay);
    integer target;
    begin
      target = b_n + n;
      t_req = cyc + ((aw_delay < w_delay) ? aw_delay : w_delay);
      fork
        drive_aw(n, aw_delay);
        drive_w(n, w_delay);
      join
      wait (b_n >= target);
      #1;
      if (awvalid || wvalid) $display("internal: valid still high");
      @(posedge clk); #1;   // one idle cycle between sequences (not counted)
    end
  endtask

  task automatic reads(input integer n);
    integer target;
    begin
      target = r_n + n;
      t_req = cyc;
      drive_ar(n);
      wait (r_n >= target);
      #1;
      @(posedge clk); #1;
    end
  endtask

  task automatic wr1(input logic [7:0] a, input logic [31:0] d, input logic [3:0] s);
    begin wa[0] = a; wd[0] = d; ws[0] = s; writes(1, 0, 0); end
  endtask

  task automatic rd1(input logic [7:0] a);
    begin ra[0] = a; reads(1); end
  endtask

  task automatic check(input string name, input logic ok);
    begin
      if (ok) $display("CHECK %s PASS", name);
      else begin $display("CHECK %s FAIL", name); fails = fails + 1; end
    end
  endtask

  integer i, t0, st0, lat, seq_t0;
  logic ok;
  initial begin
    repeat (4) @(posedge clk);
    #1 rst = 1'b0;
    repeat (2) @(posedge clk);
    #1;

    // ---- reset values
    ok = 1'b1;
    for (i = 0; i < 22; i = i + 1) begin
      rd1(8'(4 * i));
      if (r_r[r_n-1] !== 2'b00) ok = 1'b0;
      if ((i == 0 && r_d[r_n-1] !== 32'hC0BE_0001) || (i == 1 && r_d[r_n-1] !== {8'd40, 8'd8, 16'd256})
          || (i == 4 && r_d[r_n-1] !== {29'd0, ro_val[2:0]}) || (i == 5 && r_d[r_n-1] !== (ro_val & 32'h0003_03FF))
          || (i >= 17 && r_d[r_n-1] !== ro_val) || ((i == 2 || i == 3 || (i >= 6 && i <= 16)) && r_d[r_n-1] !== 0)) begin
        ok = 1'b0;
        $display("  reset value of 0x%02h: %h", 4 * i, r_d[r_n-1]);
      end
    end
    check("reset_values_and_ro_reads", ok);

    // ---- single write and read latency
    wr1(8'h18, 32'h1111_2222, 4'hF);
    lat = b_c[b_n-1] - t_req;
    $display("RESULT write_latency %0d", lat);
    rd1(8'h18);
    $display("RESULT read_latency %0d", r_c[r_n-1] - t_req);
    check("write_then_read", r_d[r_n-1] === 32'h1111_2222 && base_lo_q === 32'h1111_2222);

    // ---- 12 descriptor writes one at a time (next request after the previous response)
    seq_t0 = -1;
    for (i = 0; i < 12; i = i + 1) begin
      wa[0] = 8'h18 + 8'(4 * (i % 11)); wd[0] = 32'h100 + i; ws[0] = 4'hF;
      t0 = b_n + 1;
      if (seq_t0 < 0) seq_t0 = cyc;
      fork
        drive_aw(1, 0);
        drive_w(1, 0);
      join
      wait (b_n >= t0);
      #1;
    end
    $display("RESULT write_12_sequential %0d", b_c[b_n-1] - seq_t0 + 1);
    @(posedge clk); #1;

    // ---- 12 back-to-back writes (the descriptor programming of the CSR agent)
    for (i = 0; i < 12; i = i + 1) begin
      wa[i] = 8'h18 + 8'(4 * (i % 11)); wd[i] = 32'hD000_0000 + 32'(i); ws[i] = 4'hF;
    end
    wa[11] = 8'h0C; wd[11] = 32'h0000_0203;
    writes(12, 0, 0);
    $display("RESULT write_12_back_to_back %0d", b_c[b_n-1] - t_req + 1);
    ok = 1'b1;
    for (i = 0; i < 12; i = i + 1) if (b_r[b_n-12+i] !== 2'b00) ok = 1'b0;
    check("write_12_all_okay", ok);

    // ---- 12 back-to-back reads
    for (i = 0; i < 12; i = i + 1) ra[i] = 8'h18 + 8'(4 * (i % 11));
    ra[11] = 8'h0C;
    reads(12);
    $display("RESULT read_12_back_to_back %0d", r_c[r_n-1] - t_req + 1);
    ok = 1'b1;
    for (i = 0; i < 11; i = i + 1) if (r_d[r_n-12+i] !== 32'hD000_0000 + 32'(i)) ok = 1'b0;
    if (r_d[r_n-1] !== 32'h0000_0203) ok = 1'b0;
    check("read_12_data", ok && stride_n_q === 32'hD000_000A && cfg_q === 32'h0000_0203);

    // ---- unmapped offsets: SLVERR, reads return 0
    wr1(8'h58, 32'hFFFF_FFFF, 4'hF);
    ok = (b_r[b_n-1] === 2'b10);
    wr1(8'hFC, 32'hFFFF_FFFF, 4'hF);
    ok = ok && (b_r[b_n-1] === 2'b10);
    rd1(8'h58);
    ok = ok && (r_r[r_n-1] === 2'b10) && (r_d[r_n-1] === 32'd0);
    rd1(8'hFC);
    ok = ok && (r_r[r_n-1] === 2'b10) && (r_d[r_n-1] === 32'd0);
    check("unmapped_slverr", ok);

    // ---- RO registers: writes answer OKAY and change nothing
    wr1(8'h00, 32'h0, 4'hF);   ok = (b_r[b_n-1] === 2'b00);
    wr1(8'h10, 32'hFFFF_FFFF, 4'hF); ok = ok && (b_r[b_n-1] === 2'b00);
    wr1(8'h44, 32'h0, 4'hF);   ok = ok && (b_r[b_n-1] === 2'b00);
    rd1(8'h00); ok = ok && (r_d[r_n-1] === 32'hC0BE_0001);
    rd1(8'h10); ok = ok && (r_d[r_n-1] === {29'd0, ro_val[2:0]});
    rd1(8'h44); ok = ok && (r_d[r_n-1] === ro_val);
    check("ro_write_okay_ignored", ok && st_n == 0);

    // ---- WO CTRL reads 0 (OKAY)
    rd1(8'h08);
    check("ctrl_reads_0", r_r[r_n-1] === 2'b00 && r_d[r_n-1] === 32'd0);

    // ---- START: one pulse of one cycle per CTRL write of 1; none for 0 or with strobe 0
    st0 = st_n;
    wr1(8'h08, 32'h0000_0001, 4'hF);
    lat = b_c[b_n-1];
    repeat (4) @(posedge clk);
    #1;
    check("start_one_pulse", st_n == st0 + 1);
    if (st_n == st0 + 1) begin
      $display("RESULT start_after_request %0d", st_c[st_n-1] - t_req);
      $display("RESULT start_after_b_handshake %0d", st_c[st_n-1] - lat);
    end
    st0 = st_n;
    wr1(8'h08, 32'h0000_0000, 4'hF);
    wr1(8'h08, 32'h0000_0001, 4'hE);
    wr1(8'h08, 32'hFFFF_FFFE, 4'hF);
    repeat (4) @(posedge clk);
    #1;
    check("start_no_pulse_for_0_or_strobe_0", st_n == st0);

    // ---- write strobes and write masks
    wr1(8'h18, 32'hFFFF_FFFF, 4'hF);
    wr1(8'h18, 32'h1234_5678, 4'b0101);
    rd1(8'h18);
    check("write_strobes", r_d[r_n-1] === 32'hFF34_FF78 && base_lo_q === 32'hFF34_FF78);
    wr1(8'h0C, 32'hFFFF_FFFF, 4'hF);
    rd1(8'h0C);
    check("cfg_write_mask", r_d[r_n-1] === 32'h0000_030F && cfg_q === 32'h0000_030F);
    wr1(8'h0C, 32'h0000_0000, 4'b0010);
    rd1(8'h0C);
    check("cfg_strobe_byte1", r_d[r_n-1] === 32'h0000_000F);

    // ---- AW and W in either order
    wa[0] = 8'h40; wd[0] = 32'hCAFE_0001; ws[0] = 4'hF;
    writes(1, 0, 3);
    ok = (b_r[b_n-1] === 2'b00) && (stride_n_q === 32'hCAFE_0001);
    $display("RESULT write_latency_w_3_late %0d", b_c[b_n-1] - t_req);
    wa[0] = 8'h40; wd[0] = 32'hCAFE_0002; ws[0] = 4'hF;
    writes(1, 3, 0);
    ok = ok && (b_r[b_n-1] === 2'b00) && (stride_n_q === 32'hCAFE_0002);
    $display("RESULT write_latency_aw_3_late %0d", b_c[b_n-1] - t_req);
    check("aw_w_either_order", ok);

    // ---- a read and a write presented in the same cycle
    wa[0] = 8'h3C; wd[0] = 32'hBEEF_0003; ws[0] = 4'hF; ra[0] = 8'h40;
    t0 = cyc;
    fork
      writes(1, 0, 0);
      reads(1);
    join
    check("read_and_write_together", b_r[b_n-1] === 2'b00 && r_d[r_n-1] === 32'hCAFE_0002);
    $display("RESULT read_write_together_b %0d", b_c[b_n-1] - t0);
    $display("RESULT read_write_together_r %0d", r_c[r_n-1] - t0);

    $display("DONE %0d", fails);
    $finish;
  end

  initial begin
    #200000;
    $display("CHECK timeout FAIL");
    $display("DONE 99");
    $finish;
  end
endmodule
