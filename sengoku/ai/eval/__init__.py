"""What the agents know about each game, beyond the contract.

A :class:`Knowledge` bundles one game's evaluation function, rollout policy, move ordering
and difficulty levels. The generic one knows only the rules (it scores finished games and
nothing else); ``sengoku/ai/eval/<game>.py`` defines ``KNOWLEDGE`` for a game that has one.
Evaluation functions may read a game's state attributes, but agents always hand them a
determinization drawn from what the seat may see, never the true hidden state.
"""

from __future__ import annotations

import importlib
import json
import math
import random
from collections.abc import Hashable, Mapping
from typing import Any

from sengoku.core.game import Action, Game, State

#: One difficulty level: the agent's name and its options (budget included).
Level = tuple[str, dict[str, Any]]


class Knowledge:
    """Game knowledge with neutral defaults; per-game modules subclass it.

    ``evaluate`` returns a value in [-1, 1] for ``seat``: a finished game scores its
    returns; an unfinished one the heuristic, kept strictly inside (-1, 1) so a proven win
    always outranks a good position.
    """

    #: True for games with hidden information: the levels use IS-MCTS instead of MCTS.
    hidden_information = False
    #: Rollout plies before a playout stops and evaluates (None: play to the end).
    rollout_depth: int | None = None
    #: The name of the state's position-hash attribute, if the game keeps one.
    hash_attribute: str | None = None

    def heuristic(self, state: State, seat: int) -> float:
        """How good an unfinished ``state`` is for ``seat``, any real scale (0: even)."""
        return 0.0

    def evaluate(self, state: State, seat: int) -> float:
        if state.is_terminal():
            return float(state.returns()[seat])
        return 0.9 * math.tanh(self.heuristic(state, seat))

    def rollout_action(self, state: State, rng: random.Random) -> Action:
        """The playout policy: uniformly random unless a game knows better."""
        return rng.choice(state.legal_actions())

    def order_key(self, state: State, action: Action) -> float:
        """Higher first: alpha-beta's move ordering (e.g. the value of a capture)."""
        return 0.0

    def is_noisy(self, state: State, action: Action) -> bool:
        """Actions that quiescence search still looks at (captures)."""
        return False

    def native_search(
        self,
        state: State,
        root_order: list[Action],
        options: Mapping[str, Any],
        iterations: int | None,
        seconds: float | None,
    ) -> tuple[Action, dict[str, Any]] | None:
        """Alpha-beta (:mod:`sengoku.ai.alphabeta`) run by a game's compiled core from the
        root order it made: (best action, stats), or None where the game has no such core."""
        return None

    def position_key(self, state: State) -> Hashable:
        """A key equal for equal positions (the transposition table's key)."""
        if self.hash_attribute is not None:
            value = getattr(state, self.hash_attribute, None)
            if value is not None:
                return (value, state.current_player)
        return json.dumps(state.to_json(), sort_keys=True, default=str)

    #: Search iterations of levels 3 and 4 (scaled to the game's speed: see docs/ai.md).
    level_iterations: tuple[int, int] = (200, 1000)
    #: If set, levels 1-4 are all searches with these iterations (for games whose one-ply
    #: evaluation is too weak a guide for greedy play to make a sensible beginner).
    search_ladder: tuple[int, int, int, int] | None = None

    def levels(self, game: Game) -> dict[int, Level]:
        """Difficulty 1 (a beginner's opponent) to 5 (the strongest within 1 s a move)."""
        search = "ismcts" if self.hidden_information else "mcts"
        top: Level = (search, {"seconds": 1.0})
        if self.search_ladder is not None:
            ladder = {i + 1: (search, {"iterations": n}) for i, n in enumerate(self.search_ladder)}
            return {**ladder, 5: top}
        low, high = self.level_iterations
        return {
            1: ("greedy", {"epsilon": 0.5}),
            2: ("greedy", {}),
            3: (search, {"iterations": low}),
            4: (search, {"iterations": high}),
            5: top,
        }


GENERIC = Knowledge()
_REGISTERED: dict[str, Knowledge] = {}
_CACHE: dict[str, Knowledge] = {}


def register_knowledge(game_name: str, knowledge: Knowledge) -> None:
    """Use ``knowledge`` for ``game_name`` (games outside sengoku/games, e.g. in tests)."""
    _REGISTERED[game_name] = knowledge
    _CACHE.pop(game_name, None)


def knowledge_for(game: Game | str) -> Knowledge:
    """The game's knowledge: registered, else ``sengoku.ai.eval.<name>.KNOWLEDGE``, else generic."""
    name = game if isinstance(game, str) else game.name
    if name in _REGISTERED:
        return _REGISTERED[name]
    if name not in _CACHE:
        try:
            module = importlib.import_module(f"sengoku.ai.eval.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"sengoku.ai.eval.{name}":
                raise
            _CACHE[name] = GENERIC
        else:
            _CACHE[name] = module.KNOWLEDGE
    return _CACHE[name]
