"""Testbench of the weight reader (rtl_stubs/weight_reader/) on the shared reader platform (tb/platform/)."""
