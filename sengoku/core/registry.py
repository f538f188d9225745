"""The names of the games and where each one lives (imported only when first loaded)."""

from __future__ import annotations

import importlib

from sengoku.core.game import Game, Registry

#: name -> "module:GameClass". A game joins by adding one line here.
GAMES: dict[str, str] = {
    "gungi": "sengoku.games.gungi:Gungi",
    "gunshi": "sengoku.games.gunshi:Gunshi",
    "sashimono": "sengoku.games.sashimono:Sashimono",
    "gunkimono": "sengoku.games.gunkimono:Gunkimono",
}


def _factory(path: str):  # type: ignore[no-untyped-def]
    module_name, _, class_name = path.partition(":")

    def make() -> Game:
        cls = getattr(importlib.import_module(module_name), class_name)
        game: Game = cls()
        return game

    return make


REGISTRY = Registry()
for _name, _path in GAMES.items():
    REGISTRY.register(_name, _factory(_path))


def load_game(name: str) -> Game:
    """The game called ``name`` (``sengoku.list_games()`` lists them)."""
    return REGISTRY.load(name)


def list_games() -> list[str]:
    """The names of every game Sengoku can play."""
    return REGISTRY.names()
