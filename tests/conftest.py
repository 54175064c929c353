from hypothesis import HealthCheck, settings

# Deterministic in CI and locally: the same examples every run, no wall-clock deadline
# (the machines are noisy; speed is measured in bench/, never asserted here).
settings.register_profile(
    "samedeal", derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("samedeal")
