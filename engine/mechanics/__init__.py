"""Mechanics several rule sets share; none of them is a game.

They live outside ``engine/games`` so that the registry, which imports every module there,
only ever finds rule sets. A game subclasses or calls them: ``CircularColumns`` and
``reversible`` end games whose column moves could go back and forth for ever, ``idle_swap``
spots a packed tail moved between two equivalent cards for nothing, ``Squares`` places
called cards in a grid, and
``Matching`` removes sets of top cards to one foundation.
"""
