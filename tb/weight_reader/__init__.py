"""Testbench of the weight reader (rtl_stubs/weight_reader.sv) on the shared reader platform (tb/platform/)."""
