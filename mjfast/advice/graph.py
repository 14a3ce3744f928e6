"""mjfast.advice.graph moved to mjfast.advice.value.graph (the value engine's package):
importing this name warns once (DeprecationWarning) and gives that module (docs/api.md)."""

import sys

from ..runtime.lazy import moved

sys.modules[__name__] = moved(__name__, "mjfast.advice.value.graph")
