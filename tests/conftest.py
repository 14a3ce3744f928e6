"""The property tests' two profiles (hypothesis):

- "ci", the default: a bounded number of examples, the same ones every run (derandomized: a
  failure in CI reproduces), no example database; what `.ci/run` runs.
- "campaign": a hundred times the examples, fresh ones every run, failures kept in
  .hypothesis/ and replayed first next time: `python -m pytest tests/test_properties_*.py
  --hypothesis-profile=campaign --hypothesis-show-statistics`.

No deadline in either: a test never asserts a speed. Each property test asks for
properties.examples(n): n examples under "ci", 100 n under "campaign". The hands come from the
tests' generators, which place sets and retry (test_fan_support): their examples are large by
nature, and the health checks about size are off.
"""

from hypothesis import HealthCheck, settings

_QUIET = [HealthCheck.too_slow, HealthCheck.large_base_example, HealthCheck.data_too_large]
settings.register_profile("ci", max_examples=100, derandomize=True, database=None, deadline=None, print_blob=True,
                          suppress_health_check=_QUIET)
settings.register_profile("campaign", max_examples=10_000, deadline=None, print_blob=True,
                          suppress_health_check=_QUIET)
settings.load_profile("ci")
