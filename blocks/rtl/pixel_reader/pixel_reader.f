// The pixel reader: what every reader compiles, the shared atom FIFO, then its own parts.
-F ../common/common.f
../common/atom_fifo.sv
pr_convert.sv
pr_atom.sv
pr_line_buf.sv
pr_unpacker.sv
pr_line_walker.sv
pr_validator.sv
pixel_reader.sv
