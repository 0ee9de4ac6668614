"""cocotb + pyuvm testbench: agents, environments, sequences, scoreboards (imports models, never the reverse)."""
