"""server/daily/remembered.py: a map of fixed facts that keeps the most recently kept or read."""

from __future__ import annotations

from server.daily.remembered import Remembered


def test_it_keeps_the_most_recent_up_to_its_limit() -> None:
    days: Remembered[int, str] = Remembered(3)
    for day in range(1000):  # a client asking about day after day
        days[day] = f"beacon {day}"
    assert list(days) == [997, 998, 999]
    assert days[997] == "beacon 997"  # read: now the most recent
    days[1000] = "beacon 1000"
    assert list(days) == [999, 997, 1000]
    days[999] = "again"  # kept again: the most recent, still once
    assert list(days.items()) == [(997, "beacon 997"), (1000, "beacon 1000"), (999, "again")]
    assert 998 not in days and days.get(998) is None
