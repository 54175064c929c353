"""The depth-first search's table of positions met (engine/solver/table.py): fingerprints in
a flat table, which must answer "met before?" exactly as a set of the keys does."""

from __future__ import annotations

import random

import pytest

import engine
from engine.solver.depth import DepthFirst
from engine.solver.state_board import StateBoard
from engine.solver.table import FIRST_BITS, Table, native

pytestmark = pytest.mark.skipif(not native(), reason="the table runs compiled only")


def test_a_table_answers_as_a_set_of_the_keys_does() -> None:
    """Keys alike but for a byte, a length or a few trailing bytes (as a board's keys are),
    each offered again, across the table's growth from 16 slots."""
    pick = random.Random(7)
    stems = [bytes(pick.randrange(256) for _ in range(pick.randrange(40, 90)))
             for _ in range(600)]
    keys = []
    for stem in stems:
        for i in range(len(stem)):
            for b in (0, 1, 255):
                keys.append(stem[:i] + bytes([b]) + stem[i + 1:])
        keys += [stem[:n] for n in range(len(stem))] + [stem + b"\xff\x00\x00"]
    pick.shuffle(keys)
    keys += keys[: len(keys) // 2]
    table, known = Table(4), set()  # from 16 slots, so that it grows many times
    buf = bytearray(128)
    for key in keys:
        buf[:len(key)] = key
        assert table.add(buf, len(key)) == (key not in known), key
        known.add(key)
    assert len(table) == len(known)
    assert table.bits >= FIRST_BITS + 2 and table.count <= table.most < table.mask


def test_depth_first_keeps_fingerprints_on_a_board_and_keys_through_the_state() -> None:
    st = engine.get("yukon", "difficult").deal(bytes(4))
    on_board = DepthFirst(st, None)
    v = on_board.run(5_000)
    assert isinstance(on_board.seen, Table) and len(on_board.seen) == v.positions
    through = DepthFirst(st, None)
    through.board = StateBoard(st)
    w = through.run(5_000)
    assert isinstance(through.seen, set) and len(through.seen) == w.positions
