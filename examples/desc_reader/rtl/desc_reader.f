$DESC_READER_RTL/desc_reader.sv
