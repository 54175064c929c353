"""Shamrocks: eighteen fans of at most three cards, built up or down in any suit."""

from __future__ import annotations

from ..registry import register
from ..rules import FOUNDATION, TABLEAU, Build, Group
from .fortress import CircularColumns


@register
class Shamrocks(CircularColumns):
    id = "shamrocks"
    name = "Shamrocks"
    summary = ("Seventeen fans of three and one of one; move top cards up or down in any suit "
               "onto fans of fewer than three; build the foundations up in suit. Easy: your "
               "first foundation card sets the base rank (wrapping K-A); difficult: Aces up.")

    def declare(self) -> tuple[Group, ...]:
        self.base = "chosen" if self.easy else 1
        return (
            # docs/rules/shamrocks.md: 17 columns of 3, then one of 1 (the text's "last").
            Group(TABLEAU, 18, deal=(3,) * 17 + (1,), build=Build("either", "any"), fill="none",
                  capacity=3, unit="top", to=(TABLEAU, FOUNDATION), fan="right"),
            Group(FOUNDATION, 4, build=Build("up", "same", wrap=self.easy), fill="base"),
        )
