// pin_dma: byte_dma behind start/done pins, to verify the platform's PinControl:
//   * clock clk_i, reset rst_i (synchronous, active high);
//   * a job starts with a one-cycle pulse on go_i, its byte address, byte count and id on src_i / nbytes_i / id_i;
//     one job at a time (the next go_i only after fin_o);
//   * completion: fin_o, one cycle after the job's last byte (TLAST) was accepted on bytes_out, so it means
//     "drained"; with EARLY_FIN = 1 it is byte_dma's done_pulse instead, before the last byte leaves (a DUT
//     whose completion does not mean what a "drained" binding says).
module pin_dma #(
    parameter int DW = 64,
    parameter int AW = 32,
    parameter bit EARLY_FIN = 1'b0
) (
    input  logic            clk_i,
    input  logic            rst_i,
    input  logic            go_i,
    input  logic [AW-1:0]   src_i,
    input  logic [15:0]     nbytes_i,
    input  logic [7:0]      id_i,
    output logic            fin_o,
    output logic            rd_arvalid,
    input  logic            rd_arready,
    output logic [AW-1:0]   rd_araddr,
    output logic [7:0]      rd_arlen,
    output logic [2:0]      rd_arsize,
    output logic [1:0]      rd_arburst,
    input  logic            rd_rvalid,
    output logic            rd_rready,
    input  logic [DW-1:0]   rd_rdata,
    input  logic [1:0]      rd_rresp,
    input  logic            rd_rlast,
    output logic            bytes_out_tvalid,
    input  logic            bytes_out_tready,
    output logic [7:0]      bytes_out_tdata,
    output logic [0:0]      bytes_out_tkeep,
    output logic [7:0]      bytes_out_tuser,
    output logic            bytes_out_tlast
);
    /* verilator lint_off UNUSEDSIGNAL */  // one job at a time: the queue always has room; the tag is id_i
    logic       cmd_ready;
    logic [7:0] done_tag;
    /* verilator lint_on UNUSEDSIGNAL */
    logic       done_pulse, drained;

    byte_dma #(.DW(DW), .AW(AW)) u_dma (
        .aclk(clk_i), .aresetn(!rst_i),
        .cmd_valid(go_i), .cmd_ready(cmd_ready), .cmd_addr(src_i), .cmd_len(nbytes_i), .cmd_tag(id_i),
        .rd_arvalid(rd_arvalid), .rd_arready(rd_arready), .rd_araddr(rd_araddr), .rd_arlen(rd_arlen),
        .rd_arsize(rd_arsize), .rd_arburst(rd_arburst), .rd_rvalid(rd_rvalid), .rd_rready(rd_rready),
        .rd_rdata(rd_rdata), .rd_rresp(rd_rresp), .rd_rlast(rd_rlast),
        .bytes_out_tvalid(bytes_out_tvalid), .bytes_out_tready(bytes_out_tready),
        .bytes_out_tdata(bytes_out_tdata), .bytes_out_tkeep(bytes_out_tkeep), .bytes_out_tuser(bytes_out_tuser),
        .bytes_out_tlast(bytes_out_tlast),
        .done_pulse(done_pulse), .done_tag(done_tag)
    );

    always_ff @(posedge clk_i) begin
        if (rst_i) drained <= 1'b0;
        else       drained <= bytes_out_tvalid && bytes_out_tready && bytes_out_tlast;
    end
    assign fin_o = EARLY_FIN ? done_pulse : drained;
endmodule
