"""The engine's shortcuts (issue 43's speed-up) give what the long way gives.

Bowing skips a change that no condition in play reads (:func:`bowing.condition_reads`); the
legal actions are made with the question and kept while it is asked; the action played is
found by identity when it is the legal action itself. Each shortcut is checked here against
what it stands for; tests/sashimono/test_recorded_games.py checks whole games.
"""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any

import pytest

from sengoku.core.game import IllegalAction
from sengoku.core.sentence import Sentence, Word, english, said, say, told
from sengoku.games.sashimono import Sashimono, bowing
from sengoku.games.sashimono.decisions import Act, Question
from sengoku.games.sashimono.pieces import KAGE
from sengoku.games.sashimono.state import SashimonoState

KUMI = ("T^", "Kv", "N^", "TK^", "KN^", "TKN^", "Tv", "TNv")


def _positions(mode: str, games: int) -> list[SashimonoState]:
    game = Sashimono()
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        st = game.new_state(seed, mode=mode)
        while not st.is_terminal():
            if rng.random() < 0.05:
                out.append(st.clone())
            st.apply(rng.choice(st.legal_actions()))
    return out


def _change(st: SashimonoState, side: int, part: int, rng: random.Random) -> None:
    """Change one part (a ``READ_*`` bit) of one side at random."""
    s = st.sides[side]
    if part == bowing.READ_CELLS:
        s.cells = [None if rng.random() < 0.3 else rng.choice(KUMI) for _ in s.cells]
        if side == KAGE:
            s.cells += [rng.choice(KUMI) for _ in range(rng.randrange(3))]
    elif part == bowing.READ_HAND:
        s.hand = s.hand + ["T"] * rng.randrange(1, 6) if rng.random() < 0.5 else s.hand[:1]
    elif part == bowing.READ_SHAND:
        s.shand = s.shand + s.shand[:2] if rng.random() < 0.5 else []
    elif part == bowing.READ_VP:
        s.vp += rng.randrange(1, 3)


def test_a_condition_reads_what_its_card_counts() -> None:
    cs = Sashimono().new_state(1).cs
    mori = cs.cards[cs.index["mori-terumoto"]]  # "hand(own) >= 8"
    assert bowing.condition_reads(mori.score) == (bowing.READ_HAND | bowing.READ_CELLS, 0)


def test_no_condition_changes_with_what_it_does_not_read() -> None:
    # Every card's condition, on positions of real games, own and enemy side alike: change a
    # part the condition does not read, and it holds exactly as before. A part it reads but
    # the analysis missed would show here as a condition that changed.
    rng = random.Random(7)
    parts = (bowing.READ_CELLS, bowing.READ_HAND, bowing.READ_SHAND, bowing.READ_VP)
    positions = _positions("duel", 6) + _positions("solo", 12)
    cs = positions[0].cs
    checked = 0
    for st in positions:
        own = 0
        foe = st.enemy(own)
        for card in cs.cards:
            reads_own, reads_enemy = bowing.condition_reads(card.score)
            before = card.score.holds(st, own, foe)
            for side, reads in ((own, reads_own), (foe, reads_enemy)):
                for part in parts:
                    if reads & part:
                        continue
                    changed = st.clone()
                    _change(changed, side, part, rng)
                    assert card.score.holds(changed, own, foe) == before, (card.id, side, part)
                    checked += 1
    assert checked > 1000


def test_a_question_set_by_hand_has_its_own_legal_actions() -> None:
    st = Sashimono().new_state(3)
    first = st.legal_actions()
    other = Sashimono().new_state(4)
    while other.prompt is not None and other.prompt.kind is Question.LOOK_BOTTOM:
        other.apply(other.legal_actions()[0])
    assert other.prompt is not None and other.prompt.options != st.prompt.options  # type: ignore[union-attr]
    st.prompt = other.prompt  # a test's position: the question replaced without a word
    assert st.legal_actions() == other.legal_actions() != first
    assert [a.text for a in st.legal_actions()] == [o.text for o in other.prompt.options]


def test_the_legal_action_and_its_copy_play_alike_and_a_misnamed_one_is_refused() -> None:
    game = Sashimono()
    rng = random.Random(11)
    st = game.new_state(11)
    for _ in range(60):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        act = rng.choice(legal)
        copy = Act(act.kind, act.arg, act.text, act.short)
        misnamed = Act(act.kind, act.arg, act.text + "!", act.short)
        assert copy is not act
        twin = st.clone()
        refused = st.clone()
        try:
            refused.apply(misnamed)
        except IllegalAction as exc:
            assert "the action's text" in str(exc)
        else:
            raise AssertionError(f"{misnamed!r} was played")
        assert refused.to_json() == st.to_json()
        assert st.apply(act) == twin.apply(copy)
        assert st.to_json() == twin.to_json()


def test_an_events_text_and_wire_are_the_sentences_own() -> None:
    """``sengoku.core.sentence.told`` (an event's message and ``say`` in one pass, templates parsed once) is
    ``(str(sentence), sentence.wire())`` for every kind of value a sentence holds, and for
    templates the parsed pieces leave to ``format_map``."""
    inner = say("{side}'s Kumi at {cell}", side=Word("West"), cell="b2")
    sentences = [
        say("{side} draws {n} Kumi", side=Word("East"), n=3),
        say("{a} and {b}: {c}, {d}, {e}", a=inner, b=said(inner), c=True, d=2.5, e=None),
        say("{kumi} bows", kumi=inner),
        say("no places at all"),
        say("{n:>3} with a spec, {t!r} converted", n=7, t="x"),
        Sentence("{side} over {vp} VP", MappingProxyType({"side": Word("West"), "vp": 4})),
        say("{name} plain text", name="column a"),
    ]
    for sentence in sentences * 2:  # parsed, then from the parsed pieces
        assert told(sentence) == (str(sentence), sentence.wire())
        assert english(sentence) == str(sentence)
    with pytest.raises(KeyError):  # a value missing: both raise
        told(say("{missing}"))
    with pytest.raises(KeyError):
        str(say("{missing}"))


def test_a_games_events_are_told_as_their_sentences_say() -> None:
    """Every event of random games carries the text and wire of its sentence."""
    for st in _positions("duel", 3)[:40]:
        rng = random.Random(7)
        while not st.is_terminal():
            for event in st.apply(rng.choice(st.legal_actions())):
                wire = event["say"]
                assert event["message"] == _filled(wire)


def _filled(wire: dict[str, Any]) -> str:
    """The English of a sentence's wire form, the long way (``str.format_map``)."""
    args = {k: _filled(v) if isinstance(v, dict) else v for k, v in wire["args"].items()}
    return str(wire["text"]).format_map(args)
