$NVDLA_READER_RTL/nvdla_reader.sv
