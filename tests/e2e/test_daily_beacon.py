"""The daily page of a server with a public randomness beacon: while the beacon has not
published the round of the day's opening, nobody has the deals (no commitment, no ranked
attempt) and the page says why; once it has, the day opens. A node of its own, on a database
of its own, pointed at the local drand beacon (tests/beacon_server.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect
from redis import Redis

from tests.beacon_server import LocalBeacon
from tests.conftest import FAST, start_node, stop_node
from tests.e2e.conftest import lobby_page, open_context
from tests.server.client import Node

WAIT = 30_000


@pytest.fixture
def beacon_node(redis_url: str, local_beacon: LocalBeacon,
                tmp_path: Path) -> Iterator[tuple[Node, LocalBeacon]]:
    url = redis_url.rsplit("/", 1)[0] + "/11"
    Redis.from_url(url).flushdb()
    local_beacon.hold = True  # from the start: the node's sweep fetches the round at once
    node, proc = start_node(url, tmp_path / "beacon-node.log", **FAST, **local_beacon.env())
    yield node, local_beacon
    stop_node(proc)


def test_the_day_waits_for_the_beacon_then_opens(browser: Browser,
                                                  beacon_node: tuple[Node, LocalBeacon]) -> None:
    node, beacon = beacon_node
    context = open_context(browser, "Wendy", viewport={"width": 1200, "height": 900})
    page = lobby_page(context, node.url)
    page.goto(f"{node.url}/#/daily")
    expect(page.get_by_text("wait for the public randomness beacon")).to_be_visible(timeout=WAIT)
    row = page.locator(".daily-deals .daily-variant[data-game=golf][data-variant=easy]")
    expect(row.locator(".daily-waiting")).to_have_text("waiting for the beacon")
    expect(row.locator("[data-act=ranked]")).to_have_count(0)

    beacon.hold = False
    page.reload()
    expect(row.locator("[data-act=ranked]")).to_have_count(1, timeout=WAIT)
    expect(row.locator(".daily-waiting")).to_have_count(0)
    # The commitment, now made, is on the deal's own view.
    row.locator("[data-act=board]").click()
    expect(page.locator(".daily-game .commitment code")).to_have_text(
        re.compile(r"^[0-9a-f]{64}$"))
    expect(page.get_by_text("Open for ranked attempts")).to_be_visible()
    context.close()
