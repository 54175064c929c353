"""Rule sets registered by id and variant, like python-chess's variants by name."""

from __future__ import annotations

import importlib
import pkgutil

from . import match_forms
from .rules import RuleSet

_RULE_SETS: dict[tuple[str, str], RuleSet] = {}
_loaded = False


class UnknownGame(KeyError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = "game.unknown"
        self.message = message

    def __str__(self) -> str:
        return self.message


def register(cls: type[RuleSet]) -> type[RuleSet]:
    """Class decorator: one registry entry per declared variant."""
    for variant in cls.variants:
        rules = cls(variant)
        match_forms.check(rules)  # a declared match kind needs its form's methods
        _RULE_SETS[(cls.id, variant)] = rules
    return cls


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        from . import games

        for mod in pkgutil.iter_modules(games.__path__):
            importlib.import_module(f"{games.__name__}.{mod.name}")


def get(game: str, variant: str) -> RuleSet:
    _load()
    try:
        return _RULE_SETS[(game, variant)]
    except KeyError:
        if any(g == game for g, _ in _RULE_SETS):
            have = ", ".join(v for g, v in _RULE_SETS if g == game)
            raise UnknownGame(f"{game} has no variant {variant!r} (it has {have})") from None
        raise UnknownGame(f"there is no game called {game!r}") from None


def rule_sets() -> list[RuleSet]:
    _load()
    return [_RULE_SETS[k] for k in sorted(_RULE_SETS)]
