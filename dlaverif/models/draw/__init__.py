"""Drawings of memory formats (``python -m dlaverif.models draw``): :mod:`.mapping` computes where every element lives
(pure, from the registry's ``pack``), :mod:`.render` draws it with matplotlib (imported only when drawing)."""

from .mapping import ElementMap, color_key, element_map, example_of

__all__ = ["ElementMap", "color_key", "element_map", "example_of"]
