"""mjfast.api moved to mjfast.efficiency.api (its calls are mjfast's own names: mjfast.shanten
...): importing this name warns once (DeprecationWarning) and gives that module (docs/api.md)."""

import sys

from .runtime.lazy import moved

sys.modules[__name__] = moved(__name__, "mjfast.efficiency.api")
