"""mace models (registers its formats on import)."""
