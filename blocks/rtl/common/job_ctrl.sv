// job_ctrl: the job sequencer of every reader (instantiated once, in reader_shell): START, validator hand-off,
// set-up steps, run, drain, ERROR, DONE.
//
// No registers of its own: ERROR and STATUS of the reader's map (accel_csr_pkg REG_ERROR, REG_STATUS) read err_q,
// busy and done_q through reader_shell.
//
//   IDLE --START--> VALIDATE --accepted--> SETUP 0 .. SETUP N_SETUP-1 --> RUN --drained--> FIN (DONE) --> IDLE
//                            --refused (ERROR bits, no read)--------------------------------> FIN
//
// Interface:
//   start_req   START written (CTRL.START); taken only in IDLE (`starting`): a START while busy is ignored; the
//               reader latches its descriptor struct on `starting` (its own type, so it stays out of this block)
//   val_done    the reader's validator has judged the descriptor (a combinational validator over the latched
//               descriptor ties it high: VALIDATE is then one cycle)
//   val_err     its rule bits, valid with val_done: ERROR[VAL_ERR_W-1:0]; any bit set ends the job (DONE) with no
//               set-up step, so no command and no AXI traffic
//   setup       one-hot, one cycle each after an accepted descriptor, in index order (the reader's data path
//               loads the job: sizes, first addresses, queues emptied)
//   run         RUN: commands issued, beats consumed, data sent
//   beat_err    a beat with RRESP SLVERR or DECERR (`beat_decerr`: DECERR) met in RUN: ERROR[SLVERR_BIT] or
//               ERROR[DECERR_BIT]
//   run_err     the reader's own run-time errors, each at its ERROR bit position (0 for a reader without any)
//   stopping    the first cycle of RUN with beat_err or a run_err bit: their ERROR bits are set, `stopped`
//               follows until the next START (the read engine issues nothing new and drains; the reader sends
//               nothing more); errors arriving later add no bit
//   work_done, eng_busy, out_empty   every command issued, no beat in flight and the output queue empty (or
//               stopped, nothing in flight, queue empty) -> FIN, DONE the cycle after
//   busy        STATUS.BUSY (any state but IDLE); err_q: ERROR; done_q: STATUS.DONE (cleared by START)
`timescale 1ns/1ps
module job_ctrl #(
  parameter int VAL_ERR_W  = 1,     // validator rule bits, ERROR[VAL_ERR_W-1:0]
  parameter int N_SETUP    = 1,     // set-up steps between an accepted descriptor and RUN
  parameter int SLVERR_BIT = 16,    // ERROR bit of a beat with RRESP SLVERR
  parameter int DECERR_BIT = 17     // ERROR bit of a beat with RRESP DECERR
) (
  input  logic                 clk,
  input  logic                 rst,
  input  logic                 start_req,
  input  logic                 val_done,
  input  logic [VAL_ERR_W-1:0] val_err,
  output logic [N_SETUP-1:0]   setup,
  output logic                 run,
  output logic                 busy,
  output logic                 starting,
  output logic                 stopping,
  output logic                 stopped,
  input  logic                 beat_err,
  input  logic                 beat_decerr,
  input  logic [31:0]          run_err,
  input  logic                 work_done,
  input  logic                 eng_busy,
  input  logic                 out_empty,
  output logic [31:0]          err_q,
  output logic                 done_q
);

  // Parameter contracts (param_contract.sv): the legal ranges, checked at elaboration
  param_contract #(.NAME ("VAL_ERR_W"),  .VALUE (VAL_ERR_W),  .LO (1), .HI (16)) u_contract_val_err_w ();
  param_contract #(.NAME ("N_SETUP"),    .VALUE (N_SETUP),    .LO (1), .HI (8)) u_contract_n_setup ();
  param_contract #(.NAME ("SLVERR_BIT"), .VALUE (SLVERR_BIT), .LO (VAL_ERR_W), .HI (31)) u_contract_slverr_bit ();
  param_contract #(.NAME ("DECERR_BIT"), .VALUE (DECERR_BIT), .LO (VAL_ERR_W), .HI (31)) u_contract_decerr_bit ();

  // job states: plain constants, not an enum (Icarus 11 leaves an enum variable at z when it appears in an
  // instance port expression); the set-up steps are the codes ST_SETUP .. ST_RUN-1
  localparam int SW = $clog2(N_SETUP + 4);
  localparam logic [SW-1:0] ST_IDLE = SW'(0), ST_VAL = SW'(1), ST_SETUP = SW'(2), ST_RUN = SW'(N_SETUP + 2),
                            ST_FIN = SW'(N_SETUP + 3);
  logic [SW-1:0] state;

  assign busy     = (state != ST_IDLE);
  assign starting = (state == ST_IDLE) && start_req;
  assign run      = (state == ST_RUN);
  assign stopping = run && !stopped && (beat_err || run_err != 32'd0);

  always_comb
    for (int i = 0; i < N_SETUP; i++) setup[i] = (state == SW'(ST_SETUP + SW'(i)));

  always_ff @(posedge clk) begin
    if (rst) begin
      state   <= ST_IDLE;
      done_q  <= 1'b0;
      stopped <= 1'b0;
      err_q   <= '0;
    end else begin
      case (state)
        ST_IDLE: if (start_req) begin
          state   <= ST_VAL;
          done_q  <= 1'b0;
          stopped <= 1'b0;
          err_q   <= '0;
        end
        ST_VAL: if (val_done) begin
          err_q[VAL_ERR_W-1:0] <= val_err;
          state <= (val_err != '0) ? ST_FIN : ST_SETUP;
        end
        ST_RUN: begin
          // the first run-time error stops the job: no new read, in-flight beats drained, nothing more sent
          if (stopping) begin
            stopped <= 1'b1;
            // bit by bit, not err_q | run_err: an unknown run-time flag (X in a 4-state simulator) sets nothing
            for (int i = 0; i < 32; i++) if (run_err[i]) err_q[i] <= 1'b1;
            if (beat_err) begin
              if (beat_decerr) err_q[DECERR_BIT] <= 1'b1;
              else             err_q[SLVERR_BIT] <= 1'b1;
            end
          end
          if ((work_done || stopped) && !eng_busy && out_empty) state <= ST_FIN;
        end
        ST_FIN: begin
          done_q <= 1'b1;
          state  <= ST_IDLE;
        end
        default: state <= (state < ST_RUN) ? state + SW'(1) : ST_IDLE;   // a set-up step: the next one
      endcase
    end
  end

endmodule
