"""A passive player: the opponent the "longest game" measurement plays every level against.

It never tries to win: at each decision it plays the legal action that changes what its
seat sees the least (the fewest values of ``view(seat)`` differ after it), preferring a
pass where the game offers one. Against it a level must make the game's progress alone,
so the length of such a game is the longest game that level allows (docs/ai.md,
"Pressing for a result"; ``benchmarks/ai.py longest``).

It is not one of :data:`sengoku.ai.AGENTS` (no player asked for it): the benchmark and the
tests build it directly.
"""

from __future__ import annotations

from typing import Any

from sengoku.ai.base import Agent, Budget, pick_legal
from sengoku.core.game import Action, State

#: Short forms of an action that waits (a pass, "none", an end of turn), preferred first.
WAITING = ("pass", "none", "end", "wait", "done", "skip")
#: Counters of the game's progress that every action changes: not counted as a change.
COUNTERS = frozenset({"ply", "turn", "turns", "decisions", "plies", "clock", "log", "events"})


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """``value`` (JSON-ready) as {path: leaf}, counters of the game's length left out."""
    out: dict[str, Any] = {}
    if isinstance(value, dict):
        for key, item in value.items():
            if str(key) in COUNTERS:
                continue
            out.update(flatten(item, f"{prefix}/{key}"))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            out.update(flatten(item, f"{prefix}/{i}"))
    else:
        out[prefix] = value
    return out


def change(before: dict[str, Any], after: dict[str, Any]) -> int:
    """How many leaves differ between two flattened views."""
    keys = before.keys() | after.keys()
    return sum(1 for k in keys if before.get(k) != after.get(k))


class PassiveAgent(Agent):
    """The legal action that changes the seat's view least (a pass first); ties by seed."""

    name = "passive"
    default_budget = Budget(iterations=1)

    def choose(self, state: State, seat: int, budget: Budget | None = None) -> Action:
        world = self.observe(state, seat)
        legal = world.legal_actions()
        texts = [world.game.format_action(world, a).strip().lower() for a in legal]
        waits = [a for a, t in zip(legal, texts, strict=True) if t in WAITING]
        if waits:
            return pick_legal(state, waits[0])
        before = flatten(world.view(seat))
        best: list[Action] = []
        best_change = -1
        for action in legal:
            child = world.clone()
            child.apply(action)
            if child.is_terminal():
                # Ending the game is no waiting move (it may even lose on purpose).
                n = 10**9
            else:
                n = change(before, flatten(child.view(seat)))
            if best_change < 0 or n < best_change:
                best, best_change = [action], n
            elif n == best_change:
                best.append(action)
        self.last_stats = {"change": best_change, "candidates": len(best)}
        return pick_legal(state, self.rng.choice(best))
