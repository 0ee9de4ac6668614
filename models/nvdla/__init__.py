"""nvdla models (registers its formats on import)."""
