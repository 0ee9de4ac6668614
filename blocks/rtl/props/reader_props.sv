// reader_props: a reader's bus properties in one module with the readers' own port names (cube_reader,
// weight_reader and pixel_reader name their ports alike; only the m_axis widths differ), bound inside each reader
// under DLA_ASSERT (`reader_props #(...) u_props (.*);`):
//   * AXI4-Lite slave (axil_slave_props): SLVERR exactly on the offsets clear in MAPPED (the generated
//     <P>_REGS_MAPPED), unmapped reads and CTRL (write-only) read 0, one response per request, valid held;
//   * AXI4 read master (axi4_read_master_props): the slave side is a check of the environment; with ERR_HALT an
//     error beat stops new reads from ERR_LAT + 1 cycles after it, and in-flight beats are drained, until DONE (irq);
//   * AXI4-Stream source (axis_source_props): TVALID held with stable payload until TREADY; a job that ends
//     without error (DONE rises, STATUS.ERROR low) sent TLAST on its last transfer; with TLAST_ONCE no transfer
//     after a TLAST until the job's DONE (a reader whose TLAST ends only the job); with TUSER_GROUP TLAST exactly
//     where TUSER (the group index) advances.
//   * the job contract (job_contract_props): START ignored while a job runs, one DONE per job, no read for an
//     illegal descriptor, reset returns to idle.
// Every simulation checks them (dlaverif/flow/runner.py defines DLA_ASSERT); `make formal` proves them with the reader as
// the top (reset assumed in the first cycle, every input free afterwards).
`timescale 1ns/1ps
`include "prop_macros.svh"
`include "axi_ports.svh"
module reader_props #(
  parameter int          AXI_DATA_W      = 256,
  parameter int          AXI_ADDR_W      = 40,
  parameter int          AXI_ID_W        = 4,
  parameter int          MAX_OUTSTANDING = 128,
  parameter int          TDATA_W         = 256,
  parameter int          TUSER_W         = 1,
  parameter logic [63:0] MAPPED          = '1,     // bit i: the register at byte offset 4*i exists
  parameter int          CTRL_OFS        = 8,      // the write-only CTRL register (reads 0)
  parameter bit          ERR_HALT        = 1'b0,
  parameter int          ERR_LAT         = 1,
  parameter bit          TLAST_ONCE      = 1'b0,
  parameter bit          TUSER_GROUP     = 1'b0    // TUSER is the group index, TLAST ends every group
) (
  input  logic                  clk,
  input  logic                  rst,
  `AXIL_PORTS(s_axil_, input, input, 8),
  `AXI4_RD_PORTS(m_axi_, input, input, AXI_ID_W, AXI_ADDR_W, AXI_DATA_W),
  `AXIS_PORTS(m_axis_, input, input, TDATA_W, TUSER_W),
  input  logic                  irq,
  // the job controller's documented signals, connected at the bind site (not ports of the readers)
  input  logic                  job_error,     // STATUS.ERROR
  input  logic                  desc_error,    // a descriptor (validation) bit of STATUS.ERROR
  input  logic                  job_start,     // the cycle START is taken
  input  logic                  job_busy       // STATUS.BUSY
);

  `PROP_FORMAL_RESET

  logic       axil_aw_pend, axil_w_pend, axil_ar_pend, axil_b_new, axil_r_new;  // (used by axil_regs_props only)
  logic [5:0] axil_aw_idx, axil_ar_idx;
  axil_slave_props #(.ADDR_W (8), .MAPPED (MAPPED), .CTRL_CHECK (1'b1), .CTRL_OFS (CTRL_OFS)) axil (
    .clk, .rst,
    `AXIL_CONNECT(, s_axil_),
    .aw_pend (axil_aw_pend), .w_pend (axil_w_pend), .ar_pend (axil_ar_pend), .aw_idx (axil_aw_idx),
    .ar_idx (axil_ar_idx), .b_new (axil_b_new), .r_new (axil_r_new)
  );

  logic [7:0]            n_flight, n_acc, head_len, head_beat;
  logic                  ar_new, halted;
  logic [AXI_ADDR_W-1:0] head_addr;

  axi4_read_master_props #(
    .ADDR_W (AXI_ADDR_W), .DATA_W (AXI_DATA_W), .ID_W (AXI_ID_W), .MAX_OUTSTANDING (MAX_OUTSTANDING),
    .MAX_BURST (256), .ERR_HALT (ERR_HALT), .ERR_LAT (ERR_LAT)
  ) bus (
    .clk, .rst, .stop (1'b0), .job_done (irq),
    `AXI4_RD_CONNECT(, m_axi_),
    .n_flight, .n_acc, .ar_new, .head_addr, .head_len, .head_beat, .halted
  );

  axis_source_props #(.DATA_W (TDATA_W), .USER_W (TUSER_W), .TLAST_ONCE (TLAST_ONCE),
                      .TUSER_GROUP (TUSER_GROUP)) axis (
    .clk, .rst, .job_done (irq), .job_error,
    .tdata (m_axis_tdata), .tkeep (m_axis_tkeep), .tlast (m_axis_tlast), .tuser (m_axis_tuser),
    .tvalid (m_axis_tvalid), .tready (m_axis_tready)
  );

  job_contract_props job (
    .clk, .rst, .job_start, .job_busy, .job_done (irq), .desc_error, .arvalid (m_axi_arvalid),
    .tvalid (m_axis_tvalid)
  );

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_ok;
  assign unused_ok = ^{n_flight, n_acc, ar_new, head_len, head_beat, head_addr, halted, axil_aw_pend, axil_w_pend,
                       axil_ar_pend, axil_aw_idx, axil_ar_idx, axil_b_new, axil_r_new};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
