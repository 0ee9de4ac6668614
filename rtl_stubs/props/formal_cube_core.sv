// formal_cube_core: formal top of the cube reader's job path WITHOUT its register file: cr_job_ctrl,
// cr_run_walker, axi_rd_engine and cr_atom_assembler wired exactly as in cube_reader.sv (copied), with START and
// the descriptor driven directly (free inputs), so that a job runs within a few cycles instead of after ~20 cycles
// of AXI4-Lite programming. Checked: the AXI4 read master (an RRESP error halts new reads from 2 cycles after the
// error beat and drains until DONE) and the AXI4-Stream source (stability; TLAST once per job).
`timescale 1ns/1ps
module formal_cube_core #(
  parameter int AXI_DATA_W      = 64,
  parameter int AXI_ADDR_W      = 16,
  parameter int MAX_OUTSTANDING = 2,
  parameter int MAX_ATOM_BYTES  = 8
) (
  input  logic                  clk,
  input  logic                  rst,
  input  logic                  start_req,
  input  accel_pkg::cube_desc_t reg_desc,
  input  logic                  m_axi_arready,
  input  logic [3:0]            m_axi_rid,
  input  logic [AXI_DATA_W-1:0] m_axi_rdata,
  input  logic [1:0]            m_axi_rresp,
  input  logic                  m_axi_rlast,
  input  logic                  m_axi_rvalid,
  input  logic                  m_axis_tready
);
  localparam int LEN_W    = AXI_ADDR_W + 1;
  localparam int AXI_ID_W = 4;

  logic f_init;
  initial f_init = 1'b1;
  always @(posedge clk) begin
    f_init <= 1'b0;
    if (f_init) assume (rst);
  end

  logic [3:0]                  m_axi_arid, m_axi_arcache;
  logic [AXI_ADDR_W-1:0]       m_axi_araddr;
  logic [7:0]                  m_axi_arlen;
  logic [2:0]                  m_axi_arsize, m_axi_arprot;
  logic [1:0]                  m_axi_arburst;
  logic                        m_axi_arlock, m_axi_arvalid, m_axi_rready;
  logic [MAX_ATOM_BYTES*8-1:0] m_axis_tdata;
  logic [MAX_ATOM_BYTES-1:0]   m_axis_tkeep;
  logic                        m_axis_tlast, m_axis_tvalid, irq;
  logic [63:0]                 m_axis_tuser;

  accel_pkg::cube_desc_t  job;
  logic        starting, busy, setup_surface, setup_batch, setup_cube, run, stopped, done_q;
  logic        bus_err, bus_decerr, issue_done, eng_busy, out_empty;
  logic [31:0] err_q;

  assign irq       = done_q;

  cr_job_ctrl #(.AXI_ADDR_W(AXI_ADDR_W)) u_ctrl (
    .clk, .rst, .start_req, .reg_desc, .job, .setup_surface, .setup_batch, .setup_cube, .run, .busy, .starting, .stopped,
    .beat_err (bus_err), .beat_decerr (bus_decerr), .issue_done, .eng_busy, .out_empty, .err_q, .done_q
  );

  // ---------------------------------------------------------------- address walk -> read engine
  logic                  cmd_valid, cmd_ready;
  logic [AXI_ADDR_W-1:0] cmd_addr;
  logic [LEN_W-1:0]      cmd_len;

  cr_run_walker #(.AXI_ADDR_W(AXI_ADDR_W), .LEN_W(LEN_W)) u_walk (
    .clk, .rst, .job, .setup_surface, .setup_batch, .setup_cube, .run, .stopped,
    .cmd_valid, .cmd_ready, .cmd_addr, .cmd_len, .issue_done
  );

  logic                  rd_valid, rd_ready, rd_first, rd_last, r_beat;
  logic [AXI_DATA_W-1:0] rd_data;
  logic [1:0]            rd_resp;
  logic [AXI_ADDR_W-1:0] rd_addr;
  logic [$clog2(AXI_DATA_W/8)-1:0] rd_lo, rd_hi;

  axi_rd_engine #(
    .ADDR_W          (AXI_ADDR_W),
    .DATA_W          (AXI_DATA_W),
    .ID_W            (AXI_ID_W),
    .MAX_OUTSTANDING (MAX_OUTSTANDING),
    .MAX_BURST       (256),
    .LEN_W           (LEN_W)
  ) u_eng (
    .clk, .rst,
    .cmd_valid, .cmd_ready,
    .cmd_addr,
    .cmd_len,
    .stop     (stopped),
    .busy     (eng_busy),
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arlock,
    .m_axi_arcache, .m_axi_arprot, .m_axi_arvalid, .m_axi_arready,
    .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid, .m_axi_rready,
    .rd_valid, .rd_ready, .rd_data, .rd_resp, .rd_addr, .rd_first, .rd_last, .rd_lo, .rd_hi,
    .r_beat
  );

  // The atom walk needs only the byte lanes of each beat: beats come back in command order and the
  // coordinates are counted on the output side, so the beat address and command flags stay unused.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_rd;
  assign unused_rd = ^{rd_addr, rd_first, rd_last};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------- beats -> atoms -> m_axis
  logic       pop;
  logic [7:0] pop_nan, pop_inf;

  cr_atom_assembler #(.AXI_DATA_W(AXI_DATA_W), .MAX_ATOM_BYTES(MAX_ATOM_BYTES)) u_asm (
    .clk, .rst, .job, .load_geometry (setup_surface), .reset_coords (setup_cube), .run, .stopped,
    .rd_valid, .rd_ready, .rd_data, .rd_resp, .rd_lo, .rd_hi, .bus_err, .bus_decerr,
    .m_axis_tdata, .m_axis_tkeep, .m_axis_tlast, .m_axis_tuser, .m_axis_tvalid, .m_axis_tready,
    .pop, .pop_nan, .pop_inf, .out_empty
  );

  logic [7:0]            n_flight, n_acc, head_len, head_beat;
  logic                  ar_new, halted;
  logic [AXI_ADDR_W-1:0] head_addr;

  axi4_read_master_props #(
    .ADDR_W (AXI_ADDR_W), .DATA_W (AXI_DATA_W), .ID_W (4), .MAX_OUTSTANDING (MAX_OUTSTANDING), .MAX_BURST (256),
    .ERR_HALT (1'b1), .ERR_LAT (1)
  ) bus (
    .clk, .rst, .stop (1'b0), .job_done (irq),
    .arid (m_axi_arid), .araddr (m_axi_araddr), .arlen (m_axi_arlen), .arsize (m_axi_arsize),
    .arburst (m_axi_arburst), .arlock (m_axi_arlock), .arcache (m_axi_arcache), .arprot (m_axi_arprot),
    .arvalid (m_axi_arvalid), .arready (m_axi_arready), .rid (m_axi_rid), .rdata (m_axi_rdata),
    .rresp (m_axi_rresp), .rlast (m_axi_rlast), .rvalid (m_axi_rvalid), .rready (m_axi_rready),
    .n_flight, .n_acc, .ar_new, .head_addr, .head_len, .head_beat, .halted
  );

  axis_source_props #(.DATA_W (MAX_ATOM_BYTES * 8), .USER_W (64), .TLAST_ONCE (1'b1)) axis (
    .clk, .rst, .job_done (irq),
    .tdata (m_axis_tdata), .tkeep (m_axis_tkeep), .tlast (m_axis_tlast), .tuser (m_axis_tuser),
    .tvalid (m_axis_tvalid), .tready (m_axis_tready)
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{n_flight, n_acc, ar_new, head_len, head_beat, head_addr, halted, busy, err_q, pop, pop_nan,
                       pop_inf, starting, r_beat};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
