// The cube reader: what every reader compiles, then its own parts in dependency order.
-F ../common/common.f
cr_desc_validator.sv
cr_fp16_scan.sv
../common/atom_fifo.sv
cr_atom_assembler.sv
cr_run_walker.sv
cube_reader.sv
