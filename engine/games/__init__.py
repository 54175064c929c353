"""One module per game; each registers its variants with ``engine.registry.register``."""
