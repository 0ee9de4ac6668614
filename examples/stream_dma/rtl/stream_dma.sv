// stream_dma: a memory-to-stream DMA driven by an AXI-Stream of descriptors, the second worked example of a user
// project (docs/verify_your_reader.md, "Your own project"); written for it in the style of an HLS-generated core,
// unlike this repository's readers, and verified from its own folder through the installed platform.
//
// Register map: none. Jobs arrive as descriptors; status leaves on a status port.
//
//   ap_clk, ap_rst_n     clock; synchronous reset, ACTIVE LOW
//   enable               1: descriptors are taken; 0: s_desc_tready stays low (jobs already taken go on)
//   s_desc_*             descriptor stream (tvalid/tready), one descriptor per transfer, its fields on their own
//                        ports: addr (byte address, any alignment), len (bytes, 1 or more; 0 is outside the
//                        contract), tag (returned in the job's status), tid and tdest (returned on every output
//                        transfer of the job)
//   m_axi_gmem_*         AXI4 read master: INCR bursts of bus words of up to MAX_BURST beats, never across a 4 KB
//                        page, ARID = AXI_ID on an ID_W-bit ID; NO limit on the bursts outstanding (the master
//                        issues as fast as ARREADY allows while the R side drains at the stream's pace)
//   m_axis_out_*         AXI4-Stream: the job's bytes realigned to lane 0, DATA_W/8 per transfer, the last one
//                        short by TKEEP (a contiguous run of low bytes), TLAST on it; TID/TDEST the descriptor's;
//                        TUSER[0] = an R beat of the job so far (this transfer's included) was answered with
//                        SLVERR/DECERR
//   st_valid, st_tag,    one pulse per job, in job order, the cycle after its LAST output transfer is accepted
//   st_err               (the job is drained): its tag, and 1 when any of its R beats had an error response
// Up to JOBS jobs wait between the AR side and the R side; one more is being streamed.
module stream_dma #(
    parameter int              DATA_W    = 64,  // AXI and stream data width (64, 128, 256 or 512)
    parameter int              ID_W      = 4,   // AXI ID width
    parameter logic [ID_W-1:0] AXI_ID    = 5,   // the one ARID this master uses
    parameter int              ADDR_W    = 32,  // AXI address width
    parameter int              LEN_W     = 16,  // width of a descriptor's byte count
    parameter int              TAG_W     = 8,   // width of the status tag
    parameter int              SID_W     = 4,   // width of the stream's TID and TDEST
    parameter int              MAX_BURST = 8,   // longest AR burst in beats (a power of two, 1..256)
    parameter int              JOBS      = 4    // jobs queued between the AR and the R side (a power of two)
) (
    input  logic                ap_clk,
    input  logic                ap_rst_n,
    input  logic                enable,
    // descriptors
    input  logic                s_desc_tvalid,
    output logic                s_desc_tready,
    input  logic [ADDR_W-1:0]   s_desc_addr,
    input  logic [LEN_W-1:0]    s_desc_len,
    input  logic [TAG_W-1:0]    s_desc_tag,
    input  logic [SID_W-1:0]    s_desc_tid,
    input  logic [SID_W-1:0]    s_desc_tdest,
    // AXI4 read master
    output logic                m_axi_gmem_arvalid,
    input  logic                m_axi_gmem_arready,
    output logic [ID_W-1:0]     m_axi_gmem_arid,
    output logic [ADDR_W-1:0]   m_axi_gmem_araddr,
    output logic [7:0]          m_axi_gmem_arlen,
    output logic [2:0]          m_axi_gmem_arsize,
    output logic [1:0]          m_axi_gmem_arburst,
    input  logic                m_axi_gmem_rvalid,
    output logic                m_axi_gmem_rready,
    /* verilator lint_off UNUSEDSIGNAL */  // one ID: RID is not looked at; beats are counted, not framed by RLAST
    input  logic [ID_W-1:0]     m_axi_gmem_rid,
    input  logic                m_axi_gmem_rlast,
    input  logic [1:0]          m_axi_gmem_rresp,
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic [DATA_W-1:0]   m_axi_gmem_rdata,
    // output stream
    output logic                m_axis_out_tvalid,
    input  logic                m_axis_out_tready,
    output logic [DATA_W-1:0]   m_axis_out_tdata,
    output logic [DATA_W/8-1:0] m_axis_out_tkeep,
    output logic                m_axis_out_tlast,
    output logic [SID_W-1:0]    m_axis_out_tid,
    output logic [SID_W-1:0]    m_axis_out_tdest,
    output logic [0:0]          m_axis_out_tuser,
    // status
    output logic                st_valid,
    output logic [TAG_W-1:0]    st_tag,
    output logic                st_err
);
    localparam int BW  = DATA_W / 8;             // bytes per bus word
    localparam int LB  = $clog2(BW);
    localparam int WW  = ADDR_W - LB;            // width of a bus-word number
    localparam int JW  = $clog2(JOBS);
    localparam int BTW = $clog2(MAX_BURST) + 1;  // width of a burst's beat count
    localparam int PGW = 12 - LB;                // bus words of a 4 KB page, as a width

    initial begin
        if (DATA_W != 64 && DATA_W != 128 && DATA_W != 256 && DATA_W != 512)
            $fatal(1, "stream_dma: DATA_W=%0d is not 64, 128, 256 or 512", DATA_W);
        if (MAX_BURST < 1 || MAX_BURST > 256 || (MAX_BURST & (MAX_BURST - 1)) != 0)
            $fatal(1, "stream_dma: MAX_BURST=%0d is not a power of two in 1..256", MAX_BURST);
        if (JOBS < 2 || (JOBS & (JOBS - 1)) != 0) $fatal(1, "stream_dma: JOBS=%0d is not a power of two >= 2", JOBS);
        if (LEN_W > WW) $fatal(1, "stream_dma: LEN_W=%0d wider than the bus-word number", LEN_W);
    end

    // ------------------------------------------------------------------ the job queue between the AR and R sides
    typedef struct packed {
        logic [LB-1:0]    off;    // the job's address within its first bus word
        logic [LEN_W-1:0] words;  // R beats of the job (bus words it touches)
        logic [LEN_W-1:0] outs;   // output transfers of the job
        logic [LB:0]      tail;   // bytes of its last output transfer (1..BW)
        logic [TAG_W-1:0] tag;
        logic [SID_W-1:0] tid;
        logic [SID_W-1:0] tdest;
    } job_t;

    job_t          taken;      // the descriptor as the R side needs it (below)
    // the queue holds job_t words: Yosys 0.23 reads an unpacked array of packed structs as 1-bit entries, and
    // Icarus 11 takes $bits() of a struct as 0 in a declaration, so the width is written out and checked here
    localparam int JOB_W = 2 * LB + 1 + 2 * LEN_W + TAG_W + 2 * SID_W;
    logic [JOB_W-1:0] q [JOBS];
    initial if ($bits(taken) != JOB_W) $fatal(1, "stream_dma: JOB_W %0d is not $bits(job_t)", JOB_W);
    logic [JW:0]   q_wr, q_rd;
    logic          q_full, q_empty;
    logic [JW:0]   q_count;  // jobs queued, 0..JOBS (the plan's occupancy probe)
    assign q_count = q_wr - q_rd;
    assign q_full  = q_count == (JW + 1)'(JOBS);
    assign q_empty = q_wr == q_rd;

    // ------------------------------------------------------------------ AR side: one job at a time, all its bursts
    logic          ar_busy;
    logic [WW-1:0] ar_word;   // the next bus word to request
    logic [LEN_W-1:0] ar_left;  // bus words still to request
    logic          desc_take;
    assign s_desc_tready = enable && !ar_busy && !q_full;
    assign desc_take     = s_desc_tvalid && s_desc_tready;

    logic [WW-1:0]    first_w, last_w;
    logic [LEN_W-1:0] n_words;
    assign first_w   = s_desc_addr[ADDR_W-1:LB];
    assign last_w    = WW'((s_desc_addr + ADDR_W'(s_desc_len) - 1'b1) >> LB);  // the word of the job's last byte
    assign n_words   = LEN_W'(last_w - first_w) + 1'b1;

    always @* begin
        taken.off   = s_desc_addr[LB-1:0];
        taken.words = n_words;
        taken.outs  = LEN_W'((32'(s_desc_len) + BW - 1) / BW);
        taken.tail  = (LB + 1)'(s_desc_len[LB-1:0] == '0 ? BW : 32'(s_desc_len[LB-1:0]));
        taken.tag   = s_desc_tag;
        taken.tid   = s_desc_tid;
        taken.tdest = s_desc_tdest;
    end

    // this burst: up to MAX_BURST words, up to the end of the job, up to the end of the 4 KB page
    logic [PGW:0]  to_page;
    logic [BTW-1:0] beats;
    always @* begin
        to_page = (PGW + 1)'(1 << PGW) - {1'b0, ar_word[PGW-1:0]};
        beats   = BTW'(MAX_BURST);
        if (32'(ar_left) < 32'(beats)) beats = BTW'(ar_left);
        if (32'(beats) > 32'(to_page)) beats = BTW'(to_page);
    end

    assign m_axi_gmem_arid    = AXI_ID;
    assign m_axi_gmem_araddr  = {ar_word, {LB{1'b0}}};
    assign m_axi_gmem_arlen   = 8'(beats - 1'b1);
    assign m_axi_gmem_arsize  = 3'(LB);
    assign m_axi_gmem_arburst = 2'b01;
    assign m_axi_gmem_arvalid = ar_busy;

    always_ff @(posedge ap_clk) begin
        if (!ap_rst_n) begin
            ar_busy <= 1'b0;
            q_wr    <= '0;
            ar_word <= '0;
            ar_left <= '0;
        end else begin
            if (desc_take) begin
                q[q_wr[JW-1:0]] <= taken;
                q_wr    <= q_wr + 1'b1;
                ar_busy <= 1'b1;
                ar_word <= first_w;
                ar_left <= n_words;
            end else if (m_axi_gmem_arvalid && m_axi_gmem_arready) begin
                ar_word <= ar_word + WW'(beats);
                ar_left <= ar_left - LEN_W'(beats);
                if (ar_left == LEN_W'(beats)) ar_busy <= 1'b0;
            end
        end
    end

    // ------------------------------------------------------------------ R side: realign to lane 0, one job at a time
    job_t             cur;
    logic             r_busy;     // a job is being streamed
    logic [LEN_W-1:0] r_seen;     // its R beats taken
    logic [LEN_W-1:0] o_sent;     // its output transfers made
    logic             flush;      // its last transfer is made of the held word alone
    logic             err;        // an error beat of the job so far
    logic [DATA_W-1:0] hold;      // the previous R beat

    logic             o_valid, o_last;
    logic [DATA_W-1:0] o_data;
    logic [BW-1:0]    o_keep;
    logic             o_user;
    logic             o_free;     // the output register takes a transfer this cycle
    assign o_free = !o_valid || m_axis_out_tready;

    logic r_fire, r_err, make, final_out;
    assign m_axi_gmem_rready = r_busy && !flush && o_free && r_seen != cur.words;
    assign r_fire            = m_axi_gmem_rvalid && m_axi_gmem_rready;
    assign r_err             = m_axi_gmem_rresp[1];
    // an R beat makes a transfer, except an unaligned job's first beat (held for the next) when more beats follow
    assign make      = (r_fire && !(cur.off != '0 && r_seen == '0 && cur.words != 1)) || (flush && o_free);
    assign final_out = o_sent == cur.outs - 1'b1;

    // the transfer's bytes: from lane off of {this beat, the previous one} (the held one alone for a flush, this
    // one alone for an aligned job or a one-beat job)
    logic [2*DATA_W-1:0] pair;
    logic [DATA_W-1:0]   shifted;
    always @* begin
        if (flush) pair = {{DATA_W{1'b0}}, hold};
        else if (r_seen == '0 || cur.off == '0) pair = {{DATA_W{1'b0}}, m_axi_gmem_rdata};
        else pair = {m_axi_gmem_rdata, hold};
        shifted = DATA_W'(pair >> (8 * 32'(cur.off)));
    end

    logic stream_end;  // the job's last transfer is accepted
    assign stream_end = o_valid && o_last && m_axis_out_tready;

    always_ff @(posedge ap_clk) begin
        if (!ap_rst_n) begin
            r_busy   <= 1'b0;
            q_rd     <= '0;
            r_seen   <= '0;
            o_sent   <= '0;
            flush    <= 1'b0;
            err      <= 1'b0;
            o_valid  <= 1'b0;
            st_valid <= 1'b0;
        end else begin
            st_valid <= 1'b0;
            if (o_valid && m_axis_out_tready) o_valid <= 1'b0;
            if (!r_busy && !q_empty && !o_valid) begin
                cur    <= q[q_rd[JW-1:0]];
                q_rd   <= q_rd + 1'b1;
                r_busy <= 1'b1;
                r_seen <= '0;
                o_sent <= '0;
                err    <= 1'b0;
            end
            if (r_fire) begin
                r_seen <= r_seen + 1'b1;
                hold   <= m_axi_gmem_rdata;
                if (r_err) err <= 1'b1;
                // the last beat of an unaligned job whose tail needs a transfer of its own
                if (r_seen == cur.words - 1'b1 && cur.off != '0 && cur.outs == cur.words && cur.words != 1)
                    flush <= 1'b1;
            end
            if (make) begin
                o_valid <= 1'b1;
                o_data  <= shifted;
                o_keep  <= final_out ? {BW{1'b1}} >> (BW - 32'(cur.tail)) : {BW{1'b1}};
                o_last  <= final_out;
                o_user  <= err || (r_fire && r_err);
                o_sent  <= o_sent + 1'b1;
                if (flush) flush <= 1'b0;
            end
            if (stream_end) begin
                r_busy   <= 1'b0;
                st_valid <= 1'b1;
                st_tag   <= cur.tag;
                st_err   <= err;
            end
        end
    end

    assign m_axis_out_tvalid = o_valid;
    assign m_axis_out_tdata  = o_data;
    assign m_axis_out_tkeep  = o_keep;
    assign m_axis_out_tlast  = o_last;
    assign m_axis_out_tid    = cur.tid;
    assign m_axis_out_tdest  = cur.tdest;
    assign m_axis_out_tuser  = o_user;
endmodule
