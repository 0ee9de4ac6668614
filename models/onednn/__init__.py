"""onednn models (registers its formats on import)."""
