// hdl_axi_mem: testbench-only behavioural AXI4 read memory for the HDL-side fast path (MEM=hdl, dlaverif/fastpath/harness.py).
// Never part of blocks/rtl/. Python works per job: it writes two files and toggles `load_tgl`, the memory reads
// them on the next rising edge; after the job it toggles `dump_tgl` and the memory writes its logs.
//
// Files (in the simulator's working directory, the cocotb run folder), binary: read with $fread (each word most
// significant byte first), written with $fwrite "%u" (each word least significant byte first):
//   hdl_cfg.bin  (read)  64 x 64-bit words:
//     [0] words of hdl_mem.bin to load   [1] segments in use (<= NSEG)
//     [2+3s] bus-word index of segment s   [3+3s] its length in words   [4+3s] its offset in the array
//     [26] read latency (cycles from AR acceptance to the earliest R beat of the burst)
//     [27] ARREADY stall mode  [28] its param  [29] its seed    (hdl_stall.sv)
//     [30] RVALID gap mode     [31] its param  [32] its seed
//     [36] fault ranges in use (<= NFAULT); [37+3f] lo byte address, [38+3f] its last byte (inclusive: a range
//          ending on the last byte of a 64-bit space has no exclusive end in 64 bits), [39+3f] RRESP
//   hdl_mem.bin  (read)  bus words of every segment, back to back
//   hdl_ar.bin   (write) one 128-bit word per accepted AR: [63:0] ARADDR, [71:64] ARLEN, [74:72] ARSIZE,
//                        [77:76] ARBURST, [87:80] ARID, [127:88] cycle of the handshake
//   hdl_r.bin    (write) one 128-bit word per R handshake: [63:0] bus-word address, [65:64] RRESP, [66] RLAST,
//                        [127:88] cycle
//   hdl_mcnt.bin (write) 4 x 64-bit: [0] AR lines, [1] R lines, [2] overflow flags (1: AR log, 2: R log, 4: AR queue)
// Behaviour: bursts served in order (one ID stream); a burst's first beat no earlier than acceptance + latency,
// so outstanding bursts overlap their latency; words outside every segment read as 0xA5 (the guard of
// dlaverif/agents/axi_mem.py); a beat overlapping a fault range answers its RRESP with zero data. RVALID, once high,
// stays high until RREADY (a gap only delays the next beat). `inflight` counts beats accepted and not returned.
`timescale 1ns / 1ps
module hdl_axi_mem #(
  parameter int DW      = 256,
  parameter int AW      = 40,
  parameter int IDW     = 4,
  parameter int WORDS   = 1 << 19,
  parameter int QDEPTH  = 256,    // bursts accepted and not yet answered: above any reader's MAX_OUTSTANDING (<= 255),
                                  // so the memory never holds ARREADY low where the Python agent would not
  parameter int ARLOG   = 1 << 14,
  parameter int RLOG    = 1 << 18
) (
  input  logic             clk,
  input  logic             rst,
  input  logic             load_tgl,
  input  logic             dump_tgl,
  input  logic [39:0]      cyc,
  input  logic [IDW-1:0]   arid,
  input  logic [AW-1:0]    araddr,
  input  logic [7:0]       arlen,
  input  logic [2:0]       arsize,
  input  logic [1:0]       arburst,
  input  logic             arvalid,
  output logic             arready,
  output logic [IDW-1:0]   rid,
  output logic [DW-1:0]    rdata,
  output logic [1:0]       rresp,
  output logic             rlast,
  output logic             rvalid,
  input  logic             rready,
  output logic [31:0]      inflight
);
  localparam int BW = DW / 8;
  localparam int LB = $clog2(BW);
  localparam int NSEG = 8;
  localparam int NFAULT = 4;
  localparam int MW = $clog2(WORDS);

  logic [DW-1:0]  mem   [0:WORDS-1];
  logic [63:0]    cfg   [0:63];
  logic [127:0]   arlog [0:ARLOG-1];
  logic [127:0]   rlog  [0:RLOG-1];
  logic [63:0]    cnt   [0:3];
  // AR queue
  logic [63:0]    q_addr  [0:QDEPTH-1];
  logic [7:0]     q_len   [0:QDEPTH-1];
  logic [2:0]     q_size  [0:QDEPTH-1];
  logic [1:0]     q_burst [0:QDEPTH-1];
  logic [IDW-1:0] q_id    [0:QDEPTH-1];
  logic [39:0]    q_ready [0:QDEPTH-1];
  int             q_head, q_tail, q_count;
  // current burst
  logic           cur_act;
  logic [63:0]    cur_addr;
  logic [8:0]     cur_left;
  logic [2:0]     cur_size;
  logic [1:0]     cur_burst;
  logic [IDW-1:0] cur_id;
  int             n_ar, n_r;
  logic [63:0]    ovf;
  logic           load_seen, dump_seen;
  integer         fd, rc;
  logic [63:0]    latency;
  logic           ar_stall, r_gap, stall_load;
  logic [63:0]    cur_addr_beat;   // address of the beat on the R channel

  hdl_stall u_ar_stall (.clk, .load(stall_load), .mode_in(cfg[27][1:0]), .param_in(cfg[28][31:0]),
                        .seed_in(cfg[29][31:0]), .stall(ar_stall));
  hdl_stall u_r_gap    (.clk, .load(stall_load), .mode_in(cfg[30][1:0]), .param_in(cfg[31][31:0]),
                        .seed_in(cfg[32][31:0]), .stall(r_gap));

  assign arready = !rst && !ar_stall && (q_count < QDEPTH);
  assign stall_load = (load_tgl != load_seen);

  // the bus word at byte address `a`, and its response
  function automatic logic [DW-1:0] word_at(input logic [63:0] a);
    logic [63:0] w;
    w = a >> LB;
    for (int s = 0; s < NSEG; s++) begin
      if (64'(s) < cfg[1] && w >= cfg[2 + 3 * s] && w < cfg[2 + 3 * s] + cfg[3 + 3 * s])
        return mem[MW'(cfg[4 + 3 * s] + (w - cfg[2 + 3 * s]))];
    end
    return {BW{8'hA5}};
  endfunction

  function automatic logic [1:0] resp_at(input logic [63:0] a);
    for (int f = 0; f < NFAULT; f++) begin
      // the beat's last byte, a + BW - 1, never wraps (a + BW does for the top word of a 64-bit space)
      if (64'(f) < cfg[36] && cfg[37 + 3 * f] <= a + 64'(BW - 1) && a <= cfg[38 + 3 * f])
        return cfg[39 + 3 * f][1:0];
    end
    return 2'b00;
  endfunction

  initial begin
    for (int i = 0; i < 64; i++) cfg[i] = 64'd0;
    load_seen = 1'b0;
    dump_seen = 1'b0;
    n_ar = 0;
    n_r = 0;
    ovf = 64'd0;
    q_head = 0;
    q_tail = 0;
    q_count = 0;
    cur_act = 1'b0;
    rvalid = 1'b0;
    inflight = 32'd0;
  end

  always @(posedge clk) begin : engine
    logic        hs, push, pop, act;
    logic [63:0] addr, word;
    logic [8:0]  left;
    logic [1:0]  resp, bst;
    logic [2:0]  sz;
    hs = rvalid && rready;
    push = arvalid && arready;
    pop = 1'b0;
    // ---- per-job files
    if (load_tgl != load_seen) begin
      load_seen <= load_tgl;
      fd = $fopen("hdl_cfg.bin", "rb");
      rc = $fread(cfg, fd);
      $fclose(fd);
      if (cfg[0] != 64'd0) begin
        fd = $fopen("hdl_mem.bin", "rb");
        rc = $fread(mem, fd, 0, 32'(cfg[0]));
        $fclose(fd);
      end
      latency <= cfg[26];
    end
    if (dump_tgl != dump_seen) begin
      dump_seen <= dump_tgl;
      cnt[0] = 64'(n_ar);
      cnt[1] = 64'(n_r);
      cnt[2] = ovf;
      cnt[3] = 64'd0;
      fd = $fopen("hdl_ar.bin", "wb");
      for (int i = 0; i < n_ar && i < ARLOG; i++) $fwrite(fd, "%u", arlog[i]);
      $fclose(fd);
      fd = $fopen("hdl_r.bin", "wb");
      for (int i = 0; i < n_r && i < RLOG; i++) $fwrite(fd, "%u", rlog[i]);
      $fclose(fd);
      fd = $fopen("hdl_mcnt.bin", "wb");
      for (int i = 0; i < 4; i++) $fwrite(fd, "%u", cnt[i]);
      $fclose(fd);
      n_ar = 0;
      n_r = 0;
      ovf = 64'd0;
    end
    if (rst) begin
      q_head <= 0;
      q_tail <= 0;
      q_count <= 0;
      cur_act <= 1'b0;
      rvalid <= 1'b0;
      inflight <= 32'd0;
    end else begin
      // ---- AR acceptance
      if (push) begin
        q_addr[q_tail]  <= 64'(araddr);
        q_len[q_tail]   <= arlen;
        q_size[q_tail]  <= arsize;
        q_burst[q_tail] <= arburst;
        q_id[q_tail]    <= arid;
        q_ready[q_tail] <= cyc + latency[39:0];
        q_tail <= (q_tail + 1) % QDEPTH;
        if (n_ar < ARLOG) arlog[n_ar] = {cyc, 8'(arid), 2'b00, arburst, 1'b0, arsize, arlen, 64'(araddr)};
        else ovf = ovf | 64'd1;
        n_ar = n_ar + 1;
      end
      // ---- R handshake
      if (hs) begin
        if (n_r < RLOG) rlog[n_r] = {cyc, 21'd0, rlast, rresp, (64'(cur_addr_beat) >> LB) << LB};
        else ovf = ovf | 64'd2;
        n_r = n_r + 1;
      end
      // ---- next beat
      act = cur_act;
      addr = cur_addr;
      left = cur_left;
      sz = cur_size;
      bst = cur_burst;
      if (!act && q_count > 0 && cyc >= q_ready[q_head]) begin
        act = 1'b1;
        addr = q_addr[q_head] & ~((64'd1 << q_size[q_head]) - 64'd1);
        left = 9'(q_len[q_head]) + 9'd1;
        sz = q_size[q_head];
        bst = q_burst[q_head];
        cur_id <= q_id[q_head];
        pop = 1'b1;
        q_head <= (q_head + 1) % QDEPTH;
      end
      if (!rvalid || hs) begin
        if (act && !r_gap) begin
          word = (addr >> LB) << LB;
          resp = resp_at(word);
          rvalid <= 1'b1;
          rresp <= resp;
          rdata <= (resp == 2'b00) ? word_at(word) : '0;
          rlast <= (left == 9'd1);
          if (pop) rid <= q_id[q_head]; else rid <= cur_id;
          cur_addr_beat <= word;
          left = left - 9'd1;
          if (bst != 2'b00) addr = addr + (64'd1 << sz);
          if (left == 9'd0) act = 1'b0;
        end else begin
          rvalid <= 1'b0;
        end
      end
      cur_act <= act;
      cur_addr <= addr;
      cur_left <= left;
      cur_size <= sz;
      cur_burst <= bst;
      q_count <= q_count + (push ? 1 : 0) - (pop ? 1 : 0);
      inflight <= inflight + (push ? 32'(arlen) + 32'd1 : 32'd0) - (hs ? 32'd1 : 32'd0);
    end
  end

endmodule
