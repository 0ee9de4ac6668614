"""NVDLA reference models (register their formats on import).

Activation side: :mod:`.feature` (``nvdla.feature``), :mod:`.pixel` (``nvdla.pixel.T_*``), :mod:`.sdp` (bias,
PReLU, batch-norm and element-wise operands), :mod:`.precision` (Tables 29-32, fp16 rules),
:mod:`.alignment` (Table 35) and :mod:`.cbuf` (where the CDMA stores a layer in the convolution buffer). Weight
side: ``weights`` and ``sparse``, imported when present.
"""

import importlib
import importlib.util

# alignment, cbuf, precision: no formats, imported for the public API; feature, pixel, sdp: register their formats
from . import alignment, cbuf, feature, pixel, precision, sdp  # noqa: F401  (re-exported / registering; see above)

# The weight-side modules are written separately; import them only once they exist.
for _name in ("weights", "sparse"):
    if importlib.util.find_spec(f"{__name__}.{_name}") is not None:
        importlib.import_module(f"{__name__}.{_name}")
del _name
