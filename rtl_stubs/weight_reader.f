// The weight reader: what every reader compiles, then its own parts in dependency order.
-f common.f
wr_validator.sv
wr_fifo.sv
wr_fetch.sv
wr_wgs_unpack.sv
wr_expander.sv
wr_counters.sv
wr_job_ctrl.sv
weight_reader.sv
