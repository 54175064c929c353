"""bench/soak.py and bench/session_cache.py, run short: they play through a real node and
report what they say they report."""

from __future__ import annotations

from bench import session_cache, soak
from server.config import Settings


def test_a_minute_of_soak_samples_memory_and_the_cache() -> None:
    sec = soak.run(minutes=1, every=10, tables=2, rate=10)
    raw = sec.raw
    samples = raw["samples"]
    assert len(samples) >= 6 and samples[-1][0] >= 60
    assert all(rss > 10 * 2**20 for _, rss, _ in samples)  # the node's, not nothing
    assert raw["moves"] > 100 and raw["games"] > 5 and raw["races"] >= 1
    assert raw["errors"] == {}
    kept = [k for _, _, k in samples]
    assert 0 < max(kept) <= Settings().cache_size  # the gauge was read, within its cap
    assert len(sec.rows) == len(samples)
    assert raw["bound"] > samples[0][1]
    assert f"{raw['moves']:,} moves acknowledged" in sec.method
    assert "the last half" in sec.method and "MiB a minute" in sec.method


def test_what_the_cache_saves_is_measured_on_the_same_games() -> None:
    sec = session_cache.run(quick=True)
    names = [row[0] for row in sec.rows]
    assert names == ["1-10", "11-30", "31-60", "node CPU µs a move (median of the games)"]
    for row in sec.rows:
        assert row[3].endswith("x") and float(row[3][:-1]) > 0
    assert set(sec.raw["cpu_us"]) == {"kept", "rebuilt"}
