"""Testbench of the weight reader (blocks/rtl/weight_reader/) on the shared reader platform (dlaverif/platform/)."""
