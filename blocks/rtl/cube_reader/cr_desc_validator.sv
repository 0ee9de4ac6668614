// cr_desc_validator: checks a blocked-cube descriptor before a reader touches the bus.
//
// Reference model: dlaverif/models/blocked.py BlockedCubeDescriptor.errors() / error_bits(ADDR_W). One rule per
// error bit, bit positions CR_ERR_* of accel_csr_pkg (0 layout .. 9 addr_overflow). Every rule is evaluated on
// the raw register values, independently of the others (a descriptor can break several at once):
//   CR_ERR_LAYOUT        layout code not 0..4
//   CR_ERR_ATOM_SIZE     atom not in {8,16,32,64,128}, or not in the layout's set (NVDLA feature 32;
//                       NVDLA operand 32/64/128; MACE 8/16 and atom == 4*elem), or above MAX_ATOM_BYTES (the
//                       widest atom the reader's stream carries in one transfer)
//   CR_ERR_ELEM_SIZE     elem not in {1,2,4}, elem > atom, not in the layout's set (NVDLA 1/2, MACE 2/4),
//                       or fp16 with elem != 2
//   CR_ERR_COUNT         a count outside 1..65535
//   CR_ERR_ALIGN_*       base / stride not a multiple of align = max(atom, 32 for NVDLA layouts else 1, 1)
//                       (checked whatever the counts; a non-power-of-two align from an illegal atom size
//                       is handled exactly by a 64-cycle serial remainder)
//   CR_ERR_OVERLAP       dims with count > 1 sorted by (stride, count): each stride must be at least
//                       atom + sum of (count-1)*stride of the dims before it
//   CR_ERR_ADDR_OVERFLOW base + max(extent, 1) > 2**ADDR_W, extent = sum((count-1)*stride) + atom
//                       (signed: a zero count contributes -stride, as in the model)
//
// Interface: pulse `start` with the descriptor on the inputs (they are latched on that cycle; a start
// while busy is ignored). `busy` is high until `done` pulses for one cycle; `errors` then holds the error
// word until the next start. In the cube reader, the top hands over the fields of accel_pkg::cube_desc_t
// (the descriptor registers as programmed) on the START cycle, when the shell latches the same struct for the job;
// the flat ports keep this block testable alone (tb/cr_desc_validator).
// Latency: 3 cycles after start when the alignment is a power of two (every legal descriptor), 67
// otherwise.
`timescale 1ns/1ps
module cr_desc_validator
  import accel_csr_pkg::*;
  import accel_pkg::*;
#(
  parameter int ADDR_W         = 40,   // address bits of the bus the cube is read from (legal ranges: the param_contract lines below the ports)
  parameter int MAX_ATOM_BYTES = 128   // the widest atom the reader can send
) (
  input  logic                  clk,
  input  logic                  rst,          // synchronous, active high
  input  logic                  start,
  input  logic [3:0]            layout,
  input  logic                  fp16,
  input  logic [63:0]           base,
  input  logic [31:0]           atom_bytes,
  input  logic [31:0]           elem_bytes,
  input  logic [31:0]           count_w,
  input  logic [31:0]           count_h,
  input  logic [31:0]           count_c,
  input  logic [31:0]           count_n,
  input  logic [31:0]           stride_h,
  input  logic [31:0]           stride_c,
  input  logic [31:0]           stride_n,
  output logic                  busy,
  output logic                  done,
  output logic [CR_ERR_ADDR_OVERFLOW:0] errors      // bit CR_ERR_* set = rule broken
);

  // Parameter contracts (param_contract.sv): the legal ranges, checked at elaboration
  param_contract #(.NAME ("ADDR_W"),            .VALUE (ADDR_W),            .LO (1), .HI (64)) u_contract_addr_w ();
  param_contract #(.NAME ("MAX_ATOM_BYTES"),    .VALUE (MAX_ATOM_BYTES),    .LO (8), .HI (128), .POW2 (1)) u_contract_max_atom_bytes ();

  localparam int SW = 72;                              // signed width of extent arithmetic

  // states: plain constants, not an enum (Icarus 11 mis-simulates enum variables used in port expressions;
  // kept the same way in every block)
  localparam logic [1:0] S_IDLE = 2'd0, S_CALC = 2'd1, S_DIV = 2'd2, S_FINAL = 2'd3;
  logic [1:0] state;

  // ---------------------------------------------------------------- latched descriptor
  logic [3:0]  l_layout;
  logic        l_fp16;
  logic [63:0] l_base;
  logic [31:0] l_atom, l_elem;
  logic [31:0] l_cnt [4];     // 0 w, 1 h, 2 c, 3 n
  logic [31:0] l_str [4];     // 0 atom, 1 stride_h, 2 stride_c, 3 stride_n

  // ---------------------------------------------------------------- per-field rules (combinational)
  logic        known_layout, nvdla_layout;
  logic        atom_std, atom_ok, elem_std, elem_ok, count_ok;
  logic [31:0] align, align_m1;
  logic        align_pow2;
  logic [3:0]  mis_pow2;      // base, stride_h, stride_c, stride_n under a power-of-two align

  always_comb begin
    known_layout = (l_layout <= 4'd4);
    nvdla_layout = (l_layout == 4'(CR_LAYOUT_NVDLA_FEATURE)) || (l_layout == 4'(CR_LAYOUT_NVDLA_OPERAND));
    atom_std = (l_atom == 32'd8) || (l_atom == 32'd16) || (l_atom == 32'd32) || (l_atom == 32'd64)
            || (l_atom == 32'd128);
    elem_std = (l_elem == 32'd1) || (l_elem == 32'd2) || (l_elem == 32'd4);
    atom_ok  = atom_std;
    elem_ok  = elem_std && (l_elem <= l_atom) && (!l_fp16 || l_elem == 32'd2);
    case (l_layout)
      4'(CR_LAYOUT_NVDLA_FEATURE): begin
        atom_ok = l_atom == 32'd32;
        elem_ok = elem_ok && (l_elem != 32'd4);
      end
      4'(CR_LAYOUT_NVDLA_OPERAND): begin
        atom_ok = (l_atom == 32'd32) || (l_atom == 32'd64) || (l_atom == 32'd128);
        elem_ok = elem_ok && (l_elem != 32'd4);
      end
      4'(CR_LAYOUT_MACE): begin
        atom_ok = ((l_atom == 32'd8) || (l_atom == 32'd16)) && ({2'b00, l_atom} == {l_elem, 2'b00});
        elem_ok = elem_ok && (l_elem != 32'd1);
      end
      4'(CR_LAYOUT_GENERIC), 4'(CR_LAYOUT_ONEDNN): ;   // any standard atom, elements 1/2/4
      default: ;                                 // unknown layout: only the generic sets apply
    endcase
    // an atom wider than the reader's stream (found by make formal at MAX_ATOM_BYTES = 8: a 32-byte atom went
    // out as four 8-byte transfers, TLAST on the first)
    if (l_atom > 32'(MAX_ATOM_BYTES)) atom_ok = 1'b0;
    count_ok = 1'b1;
    for (int d = 0; d < 4; d++) begin
      if (l_cnt[d] == 32'd0 || l_cnt[d] > 32'(CR_MAX_COUNT)) count_ok = 1'b0;
    end
    align      = (nvdla_layout && l_atom < 32'd32) ? 32'd32 : (l_atom == 32'd0 ? 32'd1 : l_atom);
    align_m1   = align - 32'd1;
    align_pow2 = (align & align_m1) == 32'd0;
    mis_pow2[0] = (l_base & {32'd0, align_m1}) != 64'd0;
    for (int d = 1; d < 4; d++) mis_pow2[d] = (l_str[d] & align_m1) != 32'd0;
  end

  // ---------------------------------------------------------------- registered intermediate results
  logic [3:0]  r_simple;      // {count, elem, atom, layout} broken
  logic [3:0]  r_mis;         // alignment broken: base, h, c, n
  logic [63:0] r_prod [4];    // (count-1)*stride for count >= 1
  logic [6:0]  div_cnt;
  logic [63:0] div_q [4];     // dividends, shifted left one bit per cycle
  logic [32:0] div_r [4];     // partial remainders

  // ---------------------------------------------------------------- overlap and overflow (from r_prod)
  logic              ovl;
  logic              ovf;
  logic signed [SW-1:0] extent, ext_pos, top, limit;
  logic [SW-1:0]     inner;
  logic [63:0]       key_i, key_j;

  always_comb begin
    ovl = 1'b0;
    for (int i = 0; i < 4; i++) begin
      key_i = {l_str[i], l_cnt[i]};
      inner = {{(SW-32){1'b0}}, l_atom};
      for (int j = 0; j < 4; j++) begin
        key_j = {l_str[j], l_cnt[j]};
        if (j != i && l_cnt[j] > 32'd1 && (key_j < key_i || (key_j == key_i && j < i)))
          inner = inner + {{(SW-64){1'b0}}, r_prod[j]};
      end
      if (l_cnt[i] > 32'd1 && {{(SW-32){1'b0}}, l_str[i]} < inner) ovl = 1'b1;
    end
    extent = $signed({{(SW-32){1'b0}}, l_atom});
    for (int d = 0; d < 4; d++) begin
      if (l_cnt[d] == 32'd0) extent = extent - $signed({{(SW-32){1'b0}}, l_str[d]});
      else                   extent = extent + $signed({{(SW-64){1'b0}}, r_prod[d]});
    end
    ext_pos = (extent < $signed(SW'(1))) ? $signed(SW'(1)) : extent;
    top     = $signed({{(SW-64){1'b0}}, l_base}) + ext_pos;
    limit   = $signed(SW'(1) << ADDR_W);
    ovf     = top > limit;
  end

  // ---------------------------------------------------------------- control
  assign busy = (state != S_IDLE);

  always_ff @(posedge clk) begin
    done <= 1'b0;
    if (rst) begin
      state    <= S_IDLE;
      errors   <= '0;
      l_layout <= '0;
      l_fp16   <= 1'b0;
      l_base   <= '0;
      l_atom   <= '0;
      l_elem   <= '0;
      r_simple <= '0;
      r_mis    <= '0;
      div_cnt  <= '0;
      for (int d = 0; d < 4; d++) begin
        l_cnt[d]  <= '0;
        l_str[d]  <= '0;
        r_prod[d] <= '0;
        div_q[d]  <= '0;
        div_r[d]  <= '0;
      end
    end else begin
      case (state)
        S_IDLE: if (start) begin
          l_layout <= layout;
          l_fp16   <= fp16;
          l_base   <= base;
          l_atom   <= atom_bytes;
          l_elem   <= elem_bytes;
          l_cnt[0] <= count_w;    l_str[0] <= atom_bytes;
          l_cnt[1] <= count_h;    l_str[1] <= stride_h;
          l_cnt[2] <= count_c;    l_str[2] <= stride_c;
          l_cnt[3] <= count_n;    l_str[3] <= stride_n;
          errors   <= '0;
          state    <= S_CALC;
        end
        S_CALC: begin
          r_simple <= {!count_ok, !elem_ok, !atom_ok, !known_layout};
          r_mis    <= mis_pow2;
          for (int d = 0; d < 4; d++) r_prod[d] <= 64'(32'(l_cnt[d] - 32'd1)) * 64'(l_str[d]);
          div_q[0] <= l_base;
          for (int d = 1; d < 4; d++) div_q[d] <= {32'd0, l_str[d]};
          for (int d = 0; d < 4; d++) div_r[d] <= '0;
          div_cnt  <= '0;
          state    <= align_pow2 ? S_FINAL : S_DIV;
        end
        S_DIV: begin
          // restoring division, one dividend bit per cycle, all four remainders in parallel
          for (int d = 0; d < 4; d++) begin
            if ({div_r[d][31:0], div_q[d][63]} >= {1'b0, align})
              div_r[d] <= {div_r[d][31:0], div_q[d][63]} - {1'b0, align};
            else
              div_r[d] <= {div_r[d][31:0], div_q[d][63]};
            div_q[d] <= {div_q[d][62:0], 1'b0};
          end
          div_cnt <= div_cnt + 7'd1;
          if (div_cnt == 7'd63) state <= S_FINAL;
        end
        S_FINAL: begin
          errors[CR_ERR_LAYOUT]         <= r_simple[0];
          errors[CR_ERR_ATOM_SIZE]      <= r_simple[1];
          errors[CR_ERR_ELEM_SIZE]      <= r_simple[2];
          errors[CR_ERR_COUNT]          <= r_simple[3];
          errors[CR_ERR_ALIGN_BASE]     <= align_pow2 ? r_mis[0] : (div_r[0] != 33'd0);
          errors[CR_ERR_ALIGN_STRIDE_H] <= align_pow2 ? r_mis[1] : (div_r[1] != 33'd0);
          errors[CR_ERR_ALIGN_STRIDE_C] <= align_pow2 ? r_mis[2] : (div_r[2] != 33'd0);
          errors[CR_ERR_ALIGN_STRIDE_N] <= align_pow2 ? r_mis[3] : (div_r[3] != 33'd0);
          errors[CR_ERR_OVERLAP]        <= ovl;
          errors[CR_ERR_ADDR_OVERFLOW]  <= ovf;
          done  <= 1'b1;
          state <= S_IDLE;
        end
        default: state <= S_IDLE;
      endcase
    end
  end

endmodule
