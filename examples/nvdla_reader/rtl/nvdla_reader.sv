// nvdla_reader: the reader of the NVDLA-style example (examples/nvdla_reader/), a small read client in NVDLA's
// control and DMA style, written for the example: it reads one NVDLA feature cube (models.nvdla.feature: surfaces
// of 32-byte atoms, line by line) and hands each atom out as one word.
//
// Register map (rtl/nvdla_reader.rdl, the one source; CSB byte offsets, decoded on their low 12 bits; one register
// group: S_POINTER is kept for NVDLA's job protocol but selects nothing):
//   0x00 S_STATUS             RO  [1:0]  STATUS         0 IDLE, 1 RUNNING
//   0x04 S_POINTER            RW  [0]    PRODUCER       kept, unused
//   0x08 D_OP_ENABLE          RW  [0]    OP_EN          write 1 to start; reads 1 until the job's done pulse
//   0x0c D_DATA_CUBE_WIDTH    RW  [12:0] CUBE_WIDTH     atoms per line - 1
//   0x10 D_DATA_CUBE_HEIGHT   RW  [12:0] CUBE_HEIGHT    lines per surface - 1
//   0x14 D_DATA_CUBE_CHANNEL  RW  [12:0] CUBE_CHANNEL   channels - 1
//   0x18 D_DATA_FORMAT        RW  [1:0]  INPUT_DATA     0 INT8 (32 channels an atom), 1 INT16, 2 FP16 (16)
//   0x1c D_SRC_BASE_ADDR_LOW  RW  [31:5] SRC_BASE_ADDR_LOW   (bits [4:0] read 0: atoms are 32-byte aligned)
//   0x20 D_SRC_BASE_ADDR_HIGH RW  [7:0]  SRC_BASE_ADDR_HIGH  (a 40-bit address space)
//   0x24 D_SRC_LINE_STRIDE    RW  [31:5] SRC_LINE_STRIDE
//   0x28 D_SRC_SURFACE_STRIDE RW  [31:5] SRC_SURFACE_STRIDE
//
//   nvdla_core_clk, nvdla_core_rstn   clock; synchronous reset, ACTIVE LOW
//   csb2rdr_req_* / rdr2csb_resp_*    NVDLA CSB: 63-bit requests ([21:0] word address, [53:22] data, [54] write,
//                                     [55] non-posted), always ready; one 34-bit response per read ([31:0] data)
//                                     and per non-posted write ([33] set), the cycle after the request
//   rdr2mcif_rd_req_*                 NVDLA DMA read request: one per line, [63:0] the line's address, [78:64] its
//                                     width in atoms - 1; surface by surface, line by line
//   mcif2rdr_rd_rsp_*                 NVDLA DMA read response: [511:0] two atoms, [513:512] which halves hold one;
//                                     no credit wire: taken by rsp_ready (low while a response is being output)
//   rdr2dp_*                          output: one atom a word, [255:0] its bytes, [256] line_end, [257] surf_end,
//                                     [258] cube_end (the job's last word)
//   rdr_done_intr                     one-cycle pulse the cycle after the job's last word is taken (drained)
module nvdla_reader (
    input  logic         nvdla_core_clk,
    input  logic         nvdla_core_rstn,
    // CSB
    input  logic         csb2rdr_req_pvld,
    output logic         csb2rdr_req_prdy,
    input  logic [62:0]  csb2rdr_req_pd,
    output logic         rdr2csb_resp_valid,
    output logic [33:0]  rdr2csb_resp_pd,
    // DMA read
    output logic         rdr2mcif_rd_req_valid,
    input  logic         rdr2mcif_rd_req_ready,
    output logic [78:0]  rdr2mcif_rd_req_pd,
    input  logic         mcif2rdr_rd_rsp_valid,
    output logic         mcif2rdr_rd_rsp_ready,
    input  logic [513:0] mcif2rdr_rd_rsp_pd,
    // output words
    output logic         rdr2dp_valid,
    input  logic         rdr2dp_ready,
    output logic [258:0] rdr2dp_pd,
    output logic         rdr_done_intr
);
    // ------------------------------------------------------------------ registers over CSB
    logic        op_en, producer;
    logic [12:0] width, height, channel;
    logic [1:0]  data_format;
    logic [26:0] base_low, line_stride, surf_stride;  // bits [31:5]
    logic [7:0]  base_high;

    wire  [11:0] offset  = {csb2rdr_req_pd[9:0], 2'b00};
    wire  [31:0] wdat    = csb2rdr_req_pd[53:22];
    wire         write   = csb2rdr_req_pd[54];
    wire         nposted = csb2rdr_req_pd[55];
    wire         take    = csb2rdr_req_pvld;  // always ready
    logic [31:0] rdata;
    logic        last_taken;  // the job's last word is taken this cycle

    assign csb2rdr_req_prdy = 1'b1;

    always_comb begin
        case (offset)
            12'h000: rdata = {30'd0, 1'b0, op_en};
            12'h004: rdata = {31'd0, producer};
            12'h008: rdata = {31'd0, op_en};
            12'h00c: rdata = {19'd0, width};
            12'h010: rdata = {19'd0, height};
            12'h014: rdata = {19'd0, channel};
            12'h018: rdata = {30'd0, data_format};
            12'h01c: rdata = {base_low, 5'd0};
            12'h020: rdata = {24'd0, base_high};
            12'h024: rdata = {line_stride, 5'd0};
            12'h028: rdata = {surf_stride, 5'd0};
            default: rdata = 32'd0;
        endcase
    end

    always_ff @(posedge nvdla_core_clk) begin
        if (!nvdla_core_rstn) begin
            op_en <= 1'b0; producer <= 1'b0; width <= '0; height <= '0; channel <= '0; data_format <= '0;
            base_low <= '0; base_high <= '0; line_stride <= '0; surf_stride <= '0;
            rdr2csb_resp_valid <= 1'b0; rdr2csb_resp_pd <= '0;
        end else begin
            rdr2csb_resp_valid <= take && (!write || nposted);
            rdr2csb_resp_pd    <= write ? {1'b1, 1'b0, 32'd0} : {1'b0, 1'b0, rdata};
            if (last_taken) op_en <= 1'b0;
            if (take && write) begin
                case (offset)
                    12'h004: producer <= wdat[0];
                    12'h008: if (!op_en) op_en <= wdat[0];
                    12'h00c: width <= wdat[12:0];
                    12'h010: height <= wdat[12:0];
                    12'h014: channel <= wdat[12:0];
                    12'h018: data_format <= wdat[1:0];
                    12'h01c: base_low <= wdat[31:5];
                    12'h020: base_high <= wdat[7:0];
                    12'h024: line_stride <= wdat[31:5];
                    12'h028: surf_stride <= wdat[31:5];
                    default: ;
                endcase
            end
        end
    end

    // a job starts when OP_EN is written 1 while idle
    wire         start  = take && write && offset == 12'h008 && wdat[0] && !op_en;
    // the last surface: channels - 1 over the channels an atom holds
    wire  [12:0] s_last = data_format == 2'd0 ? {5'd0, channel[12:5]} : {4'd0, channel[12:4]};

    // ------------------------------------------------------------------ requests: one per line
    logic        rq_busy;
    logic [12:0] rq_h, rq_s;
    logic [39:0] rq_line, rq_surf;
    wire         rq_go = rdr2mcif_rd_req_valid && rdr2mcif_rd_req_ready;

    assign rdr2mcif_rd_req_valid = rq_busy;
    assign rdr2mcif_rd_req_pd    = {2'd0, width, 24'd0, rq_line};

    always_ff @(posedge nvdla_core_clk) begin
        if (!nvdla_core_rstn) begin
            rq_busy <= 1'b0; rq_h <= '0; rq_s <= '0; rq_line <= '0; rq_surf <= '0;
        end else if (start) begin
            rq_busy <= 1'b1; rq_h <= '0; rq_s <= '0;
            rq_line <= {base_high, base_low, 5'd0};
            rq_surf <= {base_high, base_low, 5'd0};
        end else if (rq_go) begin
            if (rq_h != height) begin
                rq_h    <= rq_h + 13'd1;
                rq_line <= rq_line + {8'd0, line_stride, 5'd0};
            end else begin
                rq_h <= '0;
                if (rq_s == s_last) rq_busy <= 1'b0;
                rq_s    <= rq_s + 13'd1;
                rq_surf <= rq_surf + {8'd0, surf_stride, 5'd0};
                rq_line <= rq_surf + {8'd0, surf_stride, 5'd0};
            end
        end
    end

    // ------------------------------------------------------------------ responses out, one atom a word
    logic [511:0] held;
    logic [1:0]   left;  // atoms of the held response still to output
    logic         upper; // the next atom is the upper half
    logic [12:0]  ow, oh, os;
    wire          line_end = ow == width;
    wire          surf_end = line_end && oh == height;
    wire          cube_end = surf_end && os == s_last;

    assign mcif2rdr_rd_rsp_ready = left == 2'd0 && op_en;
    assign rdr2dp_valid          = left != 2'd0;
    assign rdr2dp_pd             = {cube_end, surf_end, line_end, upper ? held[511:256] : held[255:0]};
    assign last_taken            = rdr2dp_valid && rdr2dp_ready && cube_end;

    always_ff @(posedge nvdla_core_clk) begin
        if (!nvdla_core_rstn) begin
            held <= '0; left <= '0; upper <= 1'b0; ow <= '0; oh <= '0; os <= '0; rdr_done_intr <= 1'b0;
        end else begin
            rdr_done_intr <= last_taken;
            if (start) begin
                ow <= '0; oh <= '0; os <= '0;
            end
            if (mcif2rdr_rd_rsp_valid && mcif2rdr_rd_rsp_ready) begin
                held  <= mcif2rdr_rd_rsp_pd[511:0];
                left  <= mcif2rdr_rd_rsp_pd[513] ? 2'd2 : 2'd1;
                upper <= 1'b0;
            end else if (rdr2dp_valid && rdr2dp_ready) begin
                left  <= left - 2'd1;
                upper <= 1'b1;
                ow    <= line_end ? 13'd0 : ow + 13'd1;
                if (line_end) oh <= surf_end ? 13'd0 : oh + 13'd1;
                if (surf_end) os <= cube_end ? 13'd0 : os + 13'd1;
            end
        end
    end

    // the CSB packet's fields this reader does not look at: upper address bits, privilege, byte enables, level
    wire unused = &{1'b0, csb2rdr_req_pd[21:10], csb2rdr_req_pd[62:56], mcif2rdr_rd_rsp_pd[512]};
endmodule
