"""The registry imports every module of engine/games; each of them is a game."""

from __future__ import annotations

import pkgutil

import engine
import engine.games


def test_every_module_in_games_is_a_rule_set():
    """Shared mechanics live in engine/mechanics, where the registry never looks for games."""
    registered = {type(rules).__module__ for rules in engine.rule_sets()}
    modules = {f"engine.games.{m.name}" for m in pkgutil.iter_modules(engine.games.__path__)}
    assert sorted(modules - registered) == []
    assert len(modules) == len({rules.id for rules in engine.rule_sets()}) == 32
