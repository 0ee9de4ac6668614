// The weight reader: what every reader compiles, then its own parts in dependency order.
-F ../common/common.f
wr_validator.sv
../common/sync_fifo.sv
wr_fetch.sv
wr_wgs_unpack.sv
wr_expander.sv
weight_reader.sv
