"""mjfast.advice.budget moved to mjfast.advice.value.budget (the value engine's package):
importing this name warns once (DeprecationWarning) and gives that module (docs/api.md)."""

import sys

from ..runtime.lazy import moved

sys.modules[__name__] = moved(__name__, "mjfast.advice.value.budget")
