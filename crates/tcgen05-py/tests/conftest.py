"""Hypothesis settings for a shared, busy machine: no per-example deadline, no slowness check
(the tests assert properties, not timings; the throughput figure comes from perf_batch.py)."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "tcgen05", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=False
)
settings.load_profile("tcgen05")
