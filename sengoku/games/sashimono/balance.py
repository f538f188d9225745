"""Balance of a card set by self-play: ``python -m sengoku.games.sashimono.balance``.

Plays duels with the same agent on both sides and prints each army's wins and how often
each card was scored (share of games in which it was scored at least once). Agents: random,
and a greedy player of our own that looks one decision ahead on a plain VP/bow evaluation,
choosing from a determinization (it sees only what its seat may see).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
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
    legal = st.legal_actions()
    if len(legal) == 1:
        return legal[0]
    world = st.determinize(seat, rng)
    best: list[Act] = []
    best_value = -1e18
    for action in world.legal_actions():
        child = world.clone()
        child.apply(action)
        v = _value(child, seat)
        if v > best_value + 1e-9:
            best, best_value = [action], v
        elif abs(v - best_value) <= 1e-9:
            best.append(action)
    chosen = rng.choice(best)
    return next(a for a in legal if a == chosen)


def play_games(agent: str, games: int, seed: int, **options: Any) -> dict[str, Any]:
    game = Sashimono()
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    lengths = []
    for _ in range(games):
        st = game.new_state(rng.randrange(2**31), **options)
        while not st.is_terminal():
            seat = st.current_player
            if agent == "random":
                action = rng.choice(st.legal_actions())
            else:
                action = greedy_choice(st, seat, rng)
            st.apply(action)
        result = st.outcome()
        assert result is not None
        lengths.append(st.decisions)
        if result.winners:
            wins[st.sides[result.winners[0]].army] += 1
        else:
            wins["none"] += 1
        for seat in (0, 1):
            for c in set(st.sides[seat].scored):
                scored[st.card(c).id] += 1
    total = sum(scored.values())
    mean_share = total / max(1, len(Sashimono().new_state(0).cs.cards))
    return {
        "agent": agent,
        "games": games,
        "options": options,
        "wins": dict(wins),
        "west_share": round(wins["west"] / games, 3),
        "mean_decisions": round(sum(lengths) / games, 1),
        "scored_games": dict(scored.most_common()),
        "max_card_over_mean": round(max(scored.values()) / mean_share, 2) if scored else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agent", choices=("random", "greedy"), default="random")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vp", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    out = play_games(args.agent, args.games, args.seed, vp=args.vp)
    out["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
