"""Gungi's refusals are sentences a reader's language translates (docs/i18n.md, "The engines'
sentences"): the English text is the one the engine always wrote, and the sentence beside it
holds the template, the values and the pieces named as game words."""

from __future__ import annotations

import pytest

from sengoku.core.game import IllegalAction, ParseError
from sengoku.games.gungi import Gungi
from sengoku.server import i18n


def test_a_notation_problem_keeps_its_english_and_its_sentence(gungi: Gungi) -> None:
    # rulebook: "Introduction ... Stack Limit: 2"
    state = gungi.new_state(mode="intro")
    with pytest.raises(ParseError) as err:
        gungi.parse_action(state, "7-6-4 兵")
    assert str(err.value) == (
        "'7-6-4 兵': tier 4: towers are at most 2 high in this mode (intro). Write "
        "column-row-tier piece, e.g. '9-6-1 兵' or '9-7-2 小新' to place a piece from the hand"
    )
    assert err.value.say is not None
    wire = err.value.say.wire()
    assert wire["text"] == "{text}: {problem}. {how}"
    assert wire["args"]["problem"]["text"] == (
        "tier {tier}: towers are at most {limit} high in this mode ({mode})"
    )
    assert wire["args"]["problem"]["args"] == {"tier": 4, "limit": 2, "mode": "intro"}
    french = i18n.sentence_("fr", wire)
    assert french.startswith("'7-6-4 兵' : étage 4 : dans ce mode (intro), les tours ont au plus 2")
    assert "Write" not in french and "Écrivez colonne-rangée-étage pièce" in french


def test_the_pieces_are_named_in_the_readers_language(gungi: Gungi) -> None:
    # rulebook: "Special pieces are not used in the intro ruleset."
    state = gungi.new_state(mode="intro")
    with pytest.raises(ParseError) as err:
        gungi.parse_action(state, "7-6-1 砲")
    assert str(err.value).startswith(
        "'7-6-1 砲': the Cannon (砲) is not used in this mode (intro): its pieces are 帥 Marshal, "
        "大 General, 中 Lieutenant General, 小 Major General, 侍 Samurai, 槍 Spear, 馬 Knight, "
        "忍 Spy, 砦 Fortress, 兵 Pawn. Write column-row-tier piece"
    )
    assert err.value.say is not None
    french = i18n.sentence_("fr", err.value.say.wire())
    assert "la pièce Canon (砲) ne sert pas dans ce mode (intro)" in french, french
    assert "帥 Maréchal, 大 Général, 中 Général de division" in french, french
    japanese = i18n.sentence_("ja", err.value.say.wire())
    assert "中（中将）" in japanese and "Marshal" not in japanese, japanese


def test_an_illegal_moves_reason_keeps_its_english_and_its_sentence(gungi: Gungi) -> None:
    state = gungi.new_state(mode="intro")
    first, other = state.legal_actions()[:2]
    state.apply(first)
    # Black to move: White's Pawn move is no move of Black's.
    reason = state.why_illegal(other)
    assert reason == f"{other} is not legal here: there is no piece of yours on top at 9-7"
    with pytest.raises(IllegalAction) as err:
        state.clone().apply(other)
    assert str(err.value) == reason
    assert err.value.say is not None
    assert i18n.sentence_("fr", err.value.say.wire()) == (
        f"{other} n’est pas permis ici : aucune de vos pièces au sommet en 9-7"
    )


def test_a_piece_in_a_reason_is_a_game_word(gungi: Gungi) -> None:
    from sengoku.games.gungi.illegal import why_illegal
    from sengoku.games.gungi.move import Move, drop_code
    from sengoku.games.gungi.pieces import PIECES

    state = gungi.new_state(mode="intro")
    state.apply(next(m for m in state.legal_actions() if m.is_board_move))
    cannon = next(k for k, p in enumerate(PIECES) if p.english == "Cannon")
    # the intro has no Cannon, so none is in hand
    reason = why_illegal(state, Move(drop_code(cannon, 40, 0, 1)))
    assert reason == "no Cannon in hand"
    assert reason.sentence.wire() == {
        "text": "no {piece} in hand",
        "args": {"piece": "Cannon"},
        "words": ["piece"],
    }
    assert i18n.sentence_("ja", reason.sentence.wire()) == "持ち駒に砲がありません"


def test_an_idle_option_and_a_fens_mode_are_sentences(gungi: Gungi) -> None:
    # rulebook: "Only Archers are used in the beginner ruleset." (no Captain: betrayal idles)
    from sengoku.core.game import InvalidOption

    with pytest.raises(InvalidOption) as err:
        gungi.new_state(mode="beginner", betrayal="all_or_nothing")
    assert str(err.value) == (
        "option 'betrayal' rules the Captain (謀), which mode 'beginner' does not use; it "
        "would do nothing"
    )
    assert err.value.say is not None
    assert i18n.sentence_("fr", err.value.say.wire()) == (
        "l’option 'betrayal' règle la pièce Capitaine (謀), que le mode 'beginner' n’utilise "
        "pas ; elle n’aurait aucun effet"
    )
    fen = gungi.to_fen(gungi.new_state(mode="intro"))
    with pytest.raises(IllegalAction) as fen_err:
        gungi.from_fen(fen, mode="advanced")
    assert str(fen_err.value) == "the FEN is a intro position, not advanced"
    assert fen_err.value.say is not None
    assert i18n.sentence_("ja", fen_err.value.say.wire()) == (
        "この FEN は advanced ではなく intro の局面です"
    )
