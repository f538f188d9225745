"""Balance of a card set by self-play: ``python -m sengoku.arena.sashimono_balance``.

Plays duels with the same agent on both sides and prints each army's wins (with a 95%
Wilson interval) and how often each card was scored (share of games in which it was scored
at least once). Agents: random; a greedy player of our own that looks one decision ahead on
a plain VP/bow evaluation, choosing from a determinization (it sees only what its seat may
see); and the project's IS-MCTS (``sengoku.ai``, ``--iterations`` per decision). With
``--mode solo`` one seat plays the Kagemusha and the player's wins are counted.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from sengoku.games.sashimono.game import Sashimono
from sengoku.games.sashimono.state import Act, SashimonoState


def _value(st: SashimonoState, seat: int) -> float:
    result = st.outcome()
    if result is not None:
        return 1000.0 * (result.returns[seat] if seat < len(result.returns) else -1.0)
    me, foe = st.sides[seat], st.sides[st.enemy(seat)]
    mine = sum(1 for c, b in zip(me.slots, me.bowed, strict=True) if c is not None and b)
    theirs = sum(1 for c, b in zip(foe.slots, foe.bowed, strict=True) if c is not None and b)
    return 10.0 * (me.vp - foe.vp) + 4.0 * (mine - theirs) + 0.2 * len(me.hand)


def greedy_choice(st: SashimonoState, seat: int, rng: random.Random) -> Act:
    legal = st.legal_acts()
    if len(legal) == 1:
        return legal[0]
    world = st.determinize(seat, rng)
    best: list[Act] = []
    best_value = -1e18
    for action in world.legal_acts():
        child = world.clone()
        child.apply(action)
        v = _value(child, seat)
        if v > best_value + 1e-9:
            best, best_value = [action], v
        elif abs(v - best_value) <= 1e-9:
            best.append(action)
    chosen = rng.choice(best)
    return next(a for a in legal if a == chosen)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


def _chooser(
    agent: str, game: Sashimono, rng: random.Random, iterations: int
) -> Callable[[SashimonoState, int], Act]:
    if agent == "random":
        return lambda st, seat: rng.choice(st.legal_acts())
    if agent == "greedy":
        return lambda st, seat: greedy_choice(st, seat, rng)
    from sengoku.ai import make_agent

    agents = [
        make_agent(game, "ismcts", seed=rng.randrange(2**31), iterations=iterations)
        for _ in range(2)
    ]
    return lambda st, seat: agents[seat].choose(st, seat)  # type: ignore[return-value]


def play_games(
    agent: str, games: int, seed: int, iterations: int = 8, **options: Any
) -> dict[str, Any]:
    game = Sashimono()
    rng = random.Random(seed)
    choose = _chooser(agent, game, rng, iterations)
    wins: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    lengths = []
    solo = options.get("mode") == "solo"
    for _ in range(games):
        st = game.new_state(rng.randrange(2**31), **options)
        while not st.is_terminal():
            st.apply(choose(st, st.current_player))
        result = st.outcome()
        assert result is not None
        lengths.append(st.decisions)
        if solo:
            wins["player" if result.winners else "kagemusha"] += 1
        elif result.winners:
            wins[st.sides[result.winners[0]].army] += 1
        else:
            wins["none"] += 1
        for seat in (0, 2) if solo else (0, 1):
            for c in set(st.sides[seat].scored):
                scored[st.card(c).id] += 1
    cards = Sashimono().new_state(0).cs.cards
    mean_share = sum(scored.values()) / len(cards)
    share = {c.id: scored[c.id] / mean_share if mean_share else 0.0 for c in cards}
    top = max(share, key=lambda k: share[k])
    low = min(share, key=lambda k: share[k])
    key = "player" if solo else "west"
    out: dict[str, Any] = {
        "agent": agent if agent != "ismcts" else f"ismcts:iterations={iterations}",
        "games": games,
        "seed": seed,
        "options": options,
        "wins": dict(wins),
        f"{key}_share": round(wins[key] / games, 3),
        f"{key}_share_ci95": wilson(wins[key], games),
        "mean_decisions": round(sum(lengths) / games, 1),
        "most_scored_over_mean": [top, round(share[top], 2)],
        "least_scored_over_mean": [low, round(share[low], 2)],
        "scored_games": dict(scored.most_common()),
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agent", choices=("random", "greedy", "ismcts"), default="random")
    parser.add_argument("--iterations", type=int, default=8, help="IS-MCTS iterations a decision")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vp", type=int, default=3)
    parser.add_argument("--mode", choices=("duel", "solo"), default="duel")
    args = parser.parse_args()
    start = time.perf_counter()
    out = play_games(
        args.agent, args.games, args.seed, iterations=args.iterations, vp=args.vp, mode=args.mode
    )
    out["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
