"""Gunkimono's sentences for players (log lines, illegal moves' reasons) are kept translatable
(docs/i18n.md "The engines' sentences"): every event's message carries its ``say``, whose
English is the message itself, and Japanese and French read them whole.

The English stays exactly as it was: records, the CLI and the tests compare ``message``. The
digest below was taken from the transcript of random games on the code before the sentences
were made translatable.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

from sengoku.core.game import SengokuError
from sengoku.games.gunkimono import GunkimonoState
from sengoku.games.gunkimono.actions import (
    DRAW_BASE,
    NUM_ACTIONS,
    PLACE_BASE,
    SCORE_BASE,
    SMALL_BASE,
    STRONGHOLD_BASE,
    SUPPORT_BASE,
    int_to_action,
)
from tests.gunkimono.helpers import GAME

#: (players, options) of the games played: every player count, and the options that change
#: what is said (an empty banner stack, the end tile's replacement).
SETUPS: tuple[tuple[int, dict[str, object]], ...] = (
    (2, {}),
    (3, {"empty_banner_stack": "stay"}),
    (4, {"end_tile_replacement": False, "own_double_stronghold": True}),
    (5, {"removed_marker_counts": False, "link_own_formations": False}),
    (2, {"empty_banner_stack": "stay", "end_tile_replacement": False}),
    (3, {}),
    (4, {"empty_banner_stack": "stay"}),
    (5, {}),
    (2, {"own_double_stronghold": True, "removed_marker_counts": False}),
    (4, {"link_own_formations": False, "end_tile_replacement": False}),
    (5, {"empty_banner_stack": "stay", "own_double_stronghold": True}),
    (3, {"end_tile_replacement": False}),
)

#: The action numbers' blocks, one kind of action each (actions.py).
BLOCKS = (
    (PLACE_BASE, SMALL_BASE),
    (SMALL_BASE, SUPPORT_BASE),
    (SUPPORT_BASE, SCORE_BASE),
    (SCORE_BASE, STRONGHOLD_BASE),
    (STRONGHOLD_BASE, DRAW_BASE),
    (DRAW_BASE, NUM_ACTIONS),
)

#: sha256 of :func:`transcript`'s JSON lines, taken on the code before ``say``.
ENGLISH_DIGEST = "2a7fcf04be7c3eefe8c6ba81d183dc003abfb8e71b75c1dda4765b7fe56aa788"


def played(index: int) -> Iterator[tuple[GunkimonoState, list[dict[str, Any]]]]:
    """A random game of ``SETUPS[index]``: each state before a decision, and its events."""
    players, options = SETUPS[index]
    rng = random.Random(4100 + index)
    st = GAME.new_state(seed=900 + index, players=players, **options)
    while not st.is_terminal():
        action = rng.choice(st.legal_actions())
        before = st.clone()
        events = st.apply(action)
        yield before, events
    yield st, []


def refusals(st: GunkimonoState, rng: random.Random) -> Iterator[str]:
    """What a player is told for illegal moves here: reasons, refused notation, errors."""
    numbers = [n for low, high in BLOCKS for n in rng.sample(range(low, high), 5)]
    for n in numbers:
        action = int_to_action(n)
        why = st.why_illegal(action)
        if why is not None:
            yield f"why {action}: {why}"
            try:
                st.clone().apply(action)
            except SengokuError as exc:
                yield f"apply {action}: {exc}"
            try:
                GAME.parse_action(st, str(action))
            except SengokuError as exc:
                yield f"parse {action}: {exc}"
            short = getattr(action, "short", None)
            if short is not None:
                try:
                    GAME.parse_action(st, short())
                except SengokuError as exc:
                    yield f"parse short {action}: {exc}"


def transcript(index: int) -> Iterator[str]:
    """Every event's message (with its type and audience) of a random game, and, every few
    decisions, the reasons given for refused moves."""
    rng = random.Random(index)
    for decision, (before, events) in enumerate(played(index)):
        if decision % 7 == 0:
            yield from refusals(before, rng)
        for ev in events:
            yield json.dumps([ev["type"], ev["audience"], ev.get("message")])


def test_the_english_is_unchanged() -> None:
    digest = hashlib.sha256()
    for index in range(len(SETUPS)):
        for line in transcript(index):
            digest.update(line.encode() + b"\n")
    assert digest.hexdigest() == ENGLISH_DIGEST
