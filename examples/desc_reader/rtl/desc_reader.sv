// desc_reader: the reader of the worked example (docs/verify_your_reader.md, "Your own project"), written for it in
// a style deliberately unlike this repository's readers, and verified from its own project through the installed
// platform (examples/desc_reader/).
//
// Register map: none. Jobs arrive as descriptors; nothing is configured by software.
//
//   clk_i, rst_ni        clock; synchronous reset, ACTIVE LOW
//   desc_*               descriptor port (valid/ready): a byte address of any alignment, a byte count (1 or more;
//                        0 is outside the contract) and a job id. SLOTS descriptors wait behind the job being
//                        read, so several jobs are in flight at once
//   mem_*                AXI4 read master: bus-word-aligned INCR bursts of up to MAX_BEATS beats, one burst
//                        outstanding, never across a MAX_BEATS*BEAT_BYTES block (so never across a 4 KB page);
//                        the job's first word is read whole, its bytes below the job's address are dropped
//   pkt_*                AXI4-Stream: the job's bytes packed from lane 0, BEAT_BYTES per transfer, the last
//                        transfer (TLAST) short by TKEEP; TUSER carries the job id
//   fin_o, fin_id_o      one pulse per job, in job order, the cycle after its LAST R BEAT is taken: the job is
//                        issued, not drained (its packed tail leaves pkt_* no earlier than that cycle)
// RRESP is not looked at: this reader reports no bus errors.
module desc_reader #(
    parameter int ADDR_BITS  = 36,  // AXI4 address width
    parameter int BEAT_BYTES = 8,   // bytes per AXI4 beat and per stream transfer (a power of two)
    parameter int MAX_BEATS  = 4,   // longest burst (a power of two, 2..256)
    parameter int SLOTS      = 2,   // descriptors queued behind the running job (a power of two)
    parameter int LEN_BITS   = 12,  // width of the byte count
    parameter int ID_BITS    = 4    // width of the job id
) (
    input  logic                    clk_i,
    input  logic                    rst_ni,
    // descriptor port
    input  logic                    desc_valid_i,
    output logic                    desc_ready_o,
    input  logic [ADDR_BITS-1:0]    desc_addr_i,
    input  logic [LEN_BITS-1:0]     desc_len_i,
    input  logic [ID_BITS-1:0]      desc_id_i,
    // AXI4 read master
    output logic                    mem_arvalid,
    input  logic                    mem_arready,
    output logic [ADDR_BITS-1:0]    mem_araddr,
    output logic [7:0]              mem_arlen,
    output logic [2:0]              mem_arsize,
    output logic [1:0]              mem_arburst,
    input  logic                    mem_rvalid,
    output logic                    mem_rready,
    input  logic [8*BEAT_BYTES-1:0] mem_rdata,
    /* verilator lint_off UNUSEDSIGNAL */  // no error reporting; bursts are counted, not framed by RLAST
    input  logic [1:0]              mem_rresp,
    input  logic                    mem_rlast,
    /* verilator lint_on UNUSEDSIGNAL */
    // packed output
    output logic                    pkt_tvalid,
    input  logic                    pkt_tready,
    output logic [8*BEAT_BYTES-1:0] pkt_tdata,
    output logic [BEAT_BYTES-1:0]   pkt_tkeep,
    output logic                    pkt_tlast,
    output logic [ID_BITS-1:0]      pkt_tuser,
    // completion
    output logic                    fin_o,
    output logic [ID_BITS-1:0]      fin_id_o
);
    // widths kept at 1 bit or more, so that an illegal parameter reaches its $fatal below
    localparam int NB = BEAT_BYTES;
    localparam int LB = NB > 1 ? $clog2(NB) : 1;  // byte-lane bits
    localparam int MB = MAX_BEATS > 1 ? $clog2(MAX_BEATS) : 1;
    localparam int SW = SLOTS > 1 ? $clog2(SLOTS) : 1;
    localparam int WB = ADDR_BITS - LB;  // bus-word address bits
    localparam int CB = LB + 2;  // packer byte count, 0 .. 2*NB

    initial begin
        if (NB < 2 || NB > 64 || (NB & (NB - 1)) != 0)
            $fatal(1, "desc_reader: BEAT_BYTES=%0d is not a power of two in 2..64", BEAT_BYTES);
        if (MAX_BEATS < 2 || MAX_BEATS > 256 || (MAX_BEATS & (MAX_BEATS - 1)) != 0 || MAX_BEATS * NB > 4096)
            $fatal(1, "desc_reader: MAX_BEATS=%0d is not a power of two in 2..256 within a 4 KB page", MAX_BEATS);
        if (SLOTS < 2 || (SLOTS & (SLOTS - 1)) != 0)
            $fatal(1, "desc_reader: SLOTS=%0d is not a power of two of at least 2", SLOTS);
        if (ADDR_BITS < 12 || ADDR_BITS > 64)
            $fatal(1, "desc_reader: ADDR_BITS=%0d is outside 12..64", ADDR_BITS);
        if (LEN_BITS < 1 || LEN_BITS > ADDR_BITS || ID_BITS < 1 || ID_BITS > 16)
            $fatal(1, "desc_reader: LEN_BITS=%0d or ID_BITS=%0d is out of range", LEN_BITS, ID_BITS);
    end

    // ------------------------------------------------------------------ descriptor queue
    logic [ADDR_BITS-1:0] q_addr [SLOTS];
    logic [LEN_BITS-1:0]  q_len  [SLOTS];
    logic [ID_BITS-1:0]   q_id   [SLOTS];
    logic [SW:0]          q_wr, q_rd;
    wire                  q_empty = q_wr == q_rd;
    wire [SW:0]           q_count = q_wr - q_rd;  // descriptors queued, 0..SLOTS (the plan's occupancy probe)
    assign desc_ready_o = q_count != (SW + 1)'(SLOTS);

    // ------------------------------------------------------------------ fetch side
    typedef enum logic [1:0] {F_IDLE, F_AR, F_R} fetch_e;
    fetch_e          f_st;
    logic [WB-1:0]   word;          // the next bus word to read
    logic [WB-1:0]   last_word;     // the job's last bus word
    logic [LB-1:0]   first_lane;    // the job's first byte in its first word
    logic [LB-1:0]   last_lane;     // the job's last byte in its last word
    logic            first_beat;    // the next R beat is the job's first
    logic [ID_BITS-1:0] job_id;
    logic [MB:0]     beats_left;    // R beats still owed by the burst in flight

    wire [ADDR_BITS-1:0] q_end = q_addr[q_rd[SW-1:0]] + ADDR_BITS'(q_len[q_rd[SW-1:0]]) - 1'b1;
    wire [MB:0]      to_block = (MB+1)'(MAX_BEATS) - {1'b0, word[MB-1:0]};
    wire [WB-1:0]    after = last_word - word;            // words of the job after the next one
    wire [MB:0]      beats = after < WB'(to_block) ? (MB+1)'(after) + 1'b1 : to_block;
    wire             is_last = word == last_word;

    assign mem_arvalid = f_st == F_AR;
    assign mem_araddr  = {word, {LB{1'b0}}};
    assign mem_arlen   = 8'(beats - 1'b1);
    assign mem_arsize  = 3'(LB);
    assign mem_arburst = 2'b01;

    // ------------------------------------------------------------------ packer: 2*NB bytes, filled from lane 0
    logic [16*NB-1:0] acc;
    logic [CB-1:0]    cnt;          // bytes held in acc
    logic             tail;         // the job's last word is in acc: flush it
    logic [ID_BITS-1:0] pkt_id;

    assign mem_rready = f_st == F_R && cnt < CB'(NB) && !tail;
    wire   r_take = mem_rvalid && mem_rready;
    wire [LB-1:0]   lo = first_beat ? first_lane : '0;
    wire [LB-1:0]   hi = is_last ? last_lane : LB'(NB - 1);
    wire [NB-1:0]   upto_hi = ~({NB{1'b1}} << (LB+1)'({1'b0, hi} + 1'b1));
    logic [8*NB-1:0] kept;
    always_comb for (int b = 0; b < NB; b++) kept[8*b +: 8] = upto_hi[b] ? mem_rdata[8*b +: 8] : 8'h00;
    wire [16*NB-1:0] appended = ({{8*NB{1'b0}}, kept} >> {lo, 3'b000}) << {cnt, 3'b000};
    wire [CB-1:0]    n_bytes = CB'(hi) - CB'(lo) + 1'b1;

    assign pkt_tvalid = cnt >= CB'(NB) || (tail && cnt != '0);
    assign pkt_tdata  = acc[8*NB-1:0];
    assign pkt_tlast  = tail && cnt <= CB'(NB);
    assign pkt_tuser  = pkt_id;
    always_comb for (int b = 0; b < NB; b++) pkt_tkeep[b] = CB'(b) < cnt;
    wire   send = pkt_tvalid && pkt_tready;

    always_ff @(posedge clk_i) begin
        if (!rst_ni) begin
            q_wr <= '0; q_rd <= '0; f_st <= F_IDLE; word <= '0; last_word <= '0; first_lane <= '0;
            last_lane <= '0; first_beat <= 1'b0; job_id <= '0; beats_left <= '0;
            acc <= '0; cnt <= '0; tail <= 1'b0; pkt_id <= '0; fin_o <= 1'b0; fin_id_o <= '0;
        end else begin
            fin_o <= 1'b0;
            if (desc_valid_i && desc_ready_o) begin
                q_addr[q_wr[SW-1:0]] <= desc_addr_i;
                q_len[q_wr[SW-1:0]]  <= desc_len_i;
                q_id[q_wr[SW-1:0]]   <= desc_id_i;
                q_wr <= q_wr + 1'b1;
            end
            case (f_st)
                F_IDLE: if (!q_empty) begin
                    word       <= q_addr[q_rd[SW-1:0]][ADDR_BITS-1:LB];
                    first_lane <= q_addr[q_rd[SW-1:0]][LB-1:0];
                    last_word  <= q_end[ADDR_BITS-1:LB];
                    last_lane  <= q_end[LB-1:0];
                    job_id     <= q_id[q_rd[SW-1:0]];
                    first_beat <= 1'b1;
                    q_rd <= q_rd + 1'b1;
                    f_st <= F_AR;
                end
                F_AR: if (mem_arready) begin
                    beats_left <= beats;
                    f_st <= F_R;
                end
                F_R: if (r_take) begin
                    first_beat <= 1'b0;
                    word <= word + 1'b1;
                    beats_left <= beats_left - 1'b1;
                    if (is_last) begin
                        fin_o <= 1'b1;          // the job is read: reported now, its tail still in the packer
                        fin_id_o <= job_id;
                        f_st <= F_IDLE;
                    end else if (beats_left == (MB+1)'(1)) begin
                        f_st <= F_AR;
                    end
                end
                default: f_st <= F_IDLE;
            endcase
            // the packer takes a beat (room for it: cnt < NB) or sends a transfer (cnt >= NB, or the tail), never
            // both in one cycle
            if (r_take) begin
                acc <= acc | appended;
                cnt <= cnt + n_bytes;
                tail <= is_last;
                pkt_id <= job_id;
            end else if (send) begin
                acc <= acc >> (8 * NB);
                cnt <= cnt > CB'(NB) ? cnt - CB'(NB) : '0;
                if (pkt_tlast) tail <= 1'b0;
            end
        end
    end
endmodule
