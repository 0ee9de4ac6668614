// The pixel reader: what every reader compiles, the cube reader's atom FIFO, then its own parts.
-f common.f
atom_fifo.sv
pr_convert.sv
pr_atom.sv
pr_line_buf.sv
pr_unpacker.sv
pr_line_walker.sv
pr_validator.sv
pixel_reader.sv
