"""bench/soak.py and bench/session_cache.py, run short: they play through a real node and
report what they say they report."""

from __future__ import annotations

from pathlib import Path

from bench import session_cache, soak
from bench.__main__ import markdown, write_section
from bench.common import Section
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


def test_a_section_written_alone_replaces_only_its_own(tmp_path: Path) -> None:
    path = tmp_path / "results.md"
    others = [Section("One", "first", ["a"], [[1]]), Section("Two", "second", ["b"], [[2]])]
    path.write_text(markdown(others, 0))
    write_section(Section("Mine", "old", ["c"], [[3]]), path)
    write_section(Section("Mine", "new", ["c"], [[4]]), path)
    text = path.read_text()
    assert text.count("## Mine") == 1 and "new" in text and "old" not in text
    assert "## One\n\nfirst" in text and "## Two\n\nsecond" in text
    write_section(Section("One", "again", ["a"], [[5]]), path)
    text = path.read_text()
    assert text.count("## One") == 1 and "again" in text and "first" not in text
    assert "## Two" in text and "## Mine" in text
