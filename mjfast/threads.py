"""mjfast.threads moved to mjfast.runtime.threads: importing this name warns once
(DeprecationWarning) and gives that module (docs/api.md)."""

import sys

from .runtime.lazy import moved

sys.modules[__name__] = moved(__name__, "mjfast.runtime.threads")
