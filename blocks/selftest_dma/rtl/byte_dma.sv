// byte_dma: a small AXI4 read DMA written in a deliberately different style from the readers of blocks/rtl/, to
// verify the platform on a DUT it was not written for:
//   * clock aclk, reset aresetn (synchronous, ACTIVE LOW);
//   * jobs are descriptors on a valid/ready port (cmd_*: byte address, byte count, tag), queued up to QDEPTH deep,
//     several jobs in flight: the fetch side starts the next job while the output still drains the previous ones;
//   * byte addresses need no alignment: the first AR of a job carries the job's unaligned address, the others are
//     bus-aligned; one single-beat INCR burst per bus word;
//   * output: one byte per AXI4-Stream transfer on bytes_out_* (TUSER = the job's tag, TLAST on the job's last
//     byte);
//   * completion: done_pulse (one cycle, done_tag) when the job's LAST R BEAT is accepted, which is always BEFORE
//     its last byte leaves on bytes_out (the DMA reports "issued", not "drained").
// RRESP is ignored (no error reporting). Not a reader of this project: no register block, no assertions bound.
module byte_dma #(
    parameter int DW = 64,        // AXI4 read data width (bits)
    parameter int AW = 32,        // AXI4 address width
    parameter int QDEPTH = 4,     // descriptor queue depth
    parameter int WDEPTH = 4      // words buffered between the read and the output side
) (
    input  logic            aclk,
    input  logic            aresetn,
    // descriptor port
    input  logic            cmd_valid,
    output logic            cmd_ready,
    input  logic [AW-1:0]   cmd_addr,
    input  logic [15:0]     cmd_len,     // bytes, 1 or more
    input  logic [7:0]      cmd_tag,
    // AXI4 read master
    output logic            rd_arvalid,
    input  logic            rd_arready,
    output logic [AW-1:0]   rd_araddr,
    output logic [7:0]      rd_arlen,
    output logic [2:0]      rd_arsize,
    output logic [1:0]      rd_arburst,
    input  logic            rd_rvalid,
    output logic            rd_rready,
    input  logic [DW-1:0]   rd_rdata,
    /* verilator lint_off UNUSEDSIGNAL */  // single-beat bursts; no error reporting
    input  logic [1:0]      rd_rresp,
    input  logic            rd_rlast,
    /* verilator lint_on UNUSEDSIGNAL */
    // AXI4-Stream output, one byte per transfer
    output logic            bytes_out_tvalid,
    input  logic            bytes_out_tready,
    output logic [7:0]      bytes_out_tdata,
    output logic [0:0]      bytes_out_tkeep,
    output logic [7:0]      bytes_out_tuser,
    output logic            bytes_out_tlast,
    // completion
    output logic            done_pulse,
    output logic [7:0]      done_tag
);
    localparam int NB = DW / 8;
    localparam int LB = $clog2(NB);
    localparam int QW = $clog2(QDEPTH);
    localparam int WW = $clog2(WDEPTH);

    // ---------------------------------------------------------------- descriptor queue
    logic [AW-1:0] q_addr [QDEPTH];
    logic [15:0]   q_len  [QDEPTH];
    logic [7:0]    q_tag  [QDEPTH];
    logic [QW:0]   q_wp, q_rp;
    wire q_empty = q_wp == q_rp;
    wire q_full  = (q_wp[QW] != q_rp[QW]) && (q_wp[QW-1:0] == q_rp[QW-1:0]);
    assign cmd_ready = !q_full;

    // ---------------------------------------------------------------- fetch side
    typedef enum logic [1:0] {IDLE, ADDR, DATA} fetch_t;
    fetch_t            st;
    logic [AW-1:0]     cur_addr;      // byte address of the next word's first wanted byte
    logic [AW-1:0]     end_addr;      // last wanted byte of the job
    logic [7:0]        cur_tag;
    logic [WW:0]       w_count;       // words buffered or owed by an AR in flight
    wire               pop_q = st == IDLE && !q_empty;
    wire [AW-1:0]      word_end = {cur_addr[AW-1:LB], {LB{1'b1}}};
    wire               last_word = word_end >= end_addr;

    wire   room = w_count < (WW+1)'(WDEPTH);  // a word slot for the R beat of the next AR
    assign rd_arvalid = st == ADDR && room;   // stays high once up: room only grows while no AR is owed
    assign rd_araddr  = cur_addr;     // unaligned for the job's first word
    assign rd_arlen   = 8'd0;
    assign rd_arsize  = 3'(LB);
    assign rd_arburst = 2'b01;
    assign rd_rready  = st == DATA;
    wire r_take = rd_rvalid && rd_rready;

    // word buffer: data, first and last byte lane, last word of its job, tag
    logic [DW-1:0] w_data [WDEPTH];
    logic [LB-1:0] w_lo [WDEPTH], w_hi [WDEPTH];
    logic          w_end [WDEPTH];
    logic [7:0]    w_tag [WDEPTH];
    logic [WW:0]   w_wp, w_rp;
    wire           w_empty = w_wp == w_rp;
    wire           w_pop;

    always_ff @(posedge aclk) begin
        if (!aresetn) begin
            q_wp <= '0; q_rp <= '0; st <= IDLE; w_wp <= '0; w_count <= '0;
            done_pulse <= 1'b0; done_tag <= '0; cur_addr <= '0; end_addr <= '0; cur_tag <= '0;
        end else begin
            done_pulse <= 1'b0;
            if (cmd_valid && cmd_ready) begin
                q_addr[q_wp[QW-1:0]] <= cmd_addr;
                q_len[q_wp[QW-1:0]]  <= cmd_len;
                q_tag[q_wp[QW-1:0]]  <= cmd_tag;
                q_wp <= q_wp + 1'b1;
            end
            case (st)
                IDLE: if (pop_q) begin
                    cur_addr <= q_addr[q_rp[QW-1:0]];
                    end_addr <= q_addr[q_rp[QW-1:0]] + AW'(q_len[q_rp[QW-1:0]]) - 1'b1;
                    cur_tag  <= q_tag[q_rp[QW-1:0]];
                    q_rp <= q_rp + 1'b1;
                    st <= ADDR;
                end
                ADDR: if (rd_arvalid && rd_arready) st <= DATA;
                DATA: if (r_take) begin
                    w_data[w_wp[WW-1:0]] <= rd_rdata;
                    w_lo[w_wp[WW-1:0]]   <= cur_addr[LB-1:0];
                    w_hi[w_wp[WW-1:0]]   <= last_word ? end_addr[LB-1:0] : LB'(NB - 1);
                    w_end[w_wp[WW-1:0]]  <= last_word;
                    w_tag[w_wp[WW-1:0]]  <= cur_tag;
                    w_wp <= w_wp + 1'b1;
                    if (last_word) begin
                        done_pulse <= 1'b1;   // the job's data is read: reported now, not when it has left
                        done_tag <= cur_tag;
                        st <= IDLE;
                    end else begin
                        cur_addr <= word_end + 1'b1;
                        st <= ADDR;
                    end
                end
                default: st <= IDLE;
            endcase
            w_count <= w_count + (WW+1)'(rd_arvalid && rd_arready) - (WW+1)'(w_pop);
        end
    end

    // ---------------------------------------------------------------- output side: one byte per transfer
    logic [LB-1:0] lane;
    logic          lane_ok;      // lane was set from the head word's w_lo
    wire  [WW-1:0] h = w_rp[WW-1:0];
    wire  [LB-1:0] at = lane_ok ? lane : w_lo[h];
    assign bytes_out_tvalid = !w_empty;
    assign bytes_out_tdata  = w_data[h][8*at +: 8];
    assign bytes_out_tkeep  = 1'b1;
    assign bytes_out_tuser  = w_tag[h];
    assign bytes_out_tlast  = w_end[h] && at == w_hi[h];
    wire   send = bytes_out_tvalid && bytes_out_tready;
    assign w_pop = send && at == w_hi[h];

    always_ff @(posedge aclk) begin
        if (!aresetn) begin
            w_rp <= '0; lane <= '0; lane_ok <= 1'b0;
        end else if (send) begin
            if (w_pop) begin
                w_rp <= w_rp + 1'b1;
                lane_ok <= 1'b0;
            end else begin
                lane <= at + 1'b1;
                lane_ok <= 1'b1;
            end
        end
    end
endmodule
