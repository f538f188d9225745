"""The games Sengoku can play, found through the ``sengoku.games`` entry point group.

Every game registers itself: its package's metadata names it in the group, e.g. in
``pyproject.toml``::

    [project.entry-points."sengoku.games"]
    gungi = "sengoku.games.gungi:Gungi"

This module names no game. The entry points are read once, on first use, without importing
any game; a game's module is imported only when the game is first loaded. (A source checkout
whose installed metadata predates the group falls back to its own ``pyproject.toml``.) A plugin that fails
to load raises a :class:`GameLoadError` naming the plugin, its entry point and the cause, and
leaves every other game playable.
"""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

from sengoku.core.game import Game, GameFactory, Registry, SengokuError

#: The entry point group a package uses to add a game.
ENTRY_POINT_GROUP = "sengoku.games"


class GameLoadError(SengokuError):
    """A registered game whose plugin could not be imported or built."""


def _factory(entry_point: importlib.metadata.EntryPoint) -> GameFactory:
    def make() -> Game:
        origin = entry_point.dist.name if entry_point.dist is not None else "pyproject.toml"
        where = f"the game {entry_point.name!r} (entry point {entry_point.value!r} from {origin})"
        try:
            cls = entry_point.load()
        except Exception as exc:  # any failure of a plugin's import is that plugin's fault
            raise GameLoadError(f"{where} cannot be imported: {type(exc).__name__}: {exc}") from exc
        if not (isinstance(cls, type) and issubclass(cls, Game)):
            raise GameLoadError(f"{where} names {cls!r}, which is not a sengoku Game class")
        try:
            game = cls()
        except Exception as exc:
            raise GameLoadError(f"{where} cannot be built: {type(exc).__name__}: {exc}") from exc
        if game.name != entry_point.name:
            raise GameLoadError(f"{where} builds a game called {game.name!r}")
        return game

    return make


def _source_tree_entry_points() -> list[importlib.metadata.EntryPoint]:
    """The group as this checkout's ``pyproject.toml`` declares it, for a source tree run
    with stale installed metadata (``PYTHONPATH`` on a checkout whose install predates the
    entry points): the declared data, never a guess. Empty when there is no such file."""
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return []
    project = data.get("project", {})
    if project.get("name") != "sengoku":
        return []
    declared = project.get("entry-points", {}).get(ENTRY_POINT_GROUP, {})
    return [
        importlib.metadata.EntryPoint(name, value, ENTRY_POINT_GROUP)
        for name, value in declared.items()
    ]


def discover(registry: Registry) -> None:
    """Add every game of the ``sengoku.games`` entry point group to ``registry``.

    A name registered explicitly (``registry.register``) is kept; where two installed
    packages claim one name, the first found wins (as Python's own entry points resolve).
    Where the installed ``sengoku`` metadata declares none of the group (a source checkout
    whose install is older than its entry points), the checkout's ``pyproject.toml`` is read.
    """
    found = list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
    if not any(e.dist is not None and e.dist.name == "sengoku" for e in found):
        found.extend(_source_tree_entry_points())
    for entry_point in found:
        name = entry_point.name.strip().lower()
        if name not in registry.factories:
            registry.register(name, _factory(entry_point))


REGISTRY = Registry(discover=discover)


def load_game(name: str) -> Game:
    """The game called ``name`` (``sengoku.list_games()`` lists them)."""
    return REGISTRY.load(name)


def list_games() -> list[str]:
    """The names of every game Sengoku can play."""
    return REGISTRY.names()
