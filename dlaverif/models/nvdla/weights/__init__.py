"""NVDLA weight formats (seed "Weight Format", Tables 34-35; clarifications §3-§7).

Importing this package registers ``nvdla.weight.dc``, ``nvdla.weight.image``,
``nvdla.weight.winograd`` and ``nvdla.weight.deconv`` (only here, so a format is registered once).
Every format takes ``compress=True`` for sparse compression (:mod:`models.nvdla.sparse`).
"""

from ...core.registry import register
from . import dc, deconv, groups, image, winograd

for _mod in (dc, image, winograd, deconv):
    register(_mod.FORMAT)
del _mod

__all__ = ["dc", "image", "winograd", "deconv", "groups"]
