"""Card data that would break a rule is refused at load time (issue 15 item 11), and the two
cards that did are fixed: Tanaka Yoshimasa (bowed without play in the solo game) and Oda
Nagamasu's Chado (trained inside the just-played line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono.cards import DATA_DIR, CardError, load_cards
from sengoku.games.sashimono.state import KAGE, SashimonoState

from .conftest import at_turn, give_sashimono, play


def _copy_with(tmp_path: Path, old: str, new: str) -> list[Path]:
    """Our two card files, with one text replaced in the East file."""
    east = (DATA_DIR / "east.toml").read_text()
    assert east.count(old) == 1
    (tmp_path / "east.toml").write_text(east.replace(old, new))
    (tmp_path / "west.toml").write_text((DATA_DIR / "west.toml").read_text())
    return [tmp_path / "west.toml", tmp_path / "east.toml"]


TANAKA = "score = \"lines(enemy, face='hidden', at_least=3) >= 1\""


def test_a_condition_true_in_the_solo_setup_is_refused(tmp_path: Path) -> None:
    files = _copy_with(tmp_path, TANAKA, "score = \"count(enemy, face='up') <= 5\"")
    with pytest.raises(CardError) as err:
        load_cards(files)
    msg = str(err.value)
    assert str(tmp_path / "east.toml") in msg and "'tanaka-yoshimasa'" in msg
    assert "field 'score'" in msg and "Kagemusha trap" in msg


def test_a_condition_true_when_played_in_the_duel_is_refused(tmp_path: Path) -> None:
    files = _copy_with(tmp_path, TANAKA, "score = \"count(own, face='up') >= 6\"")
    with pytest.raises(CardError, match=r"'tanaka-yoshimasa': field 'score'.*played.*duel"):
        load_cards(files)
    # one face-up Kumi more than the printed Sonae has: needs play, accepted
    load_cards(_copy_with(tmp_path, TANAKA, "score = \"count(own, face='up') >= 7\""))


def test_training_inside_the_played_line_is_refused(tmp_path: Path) -> None:
    chado = 'label = "train", effect = [{ op = "train", where = "other" }]'
    for where in ("any", "anywhere"):
        new = f'label = "train", effect = [{{ op = "train", where = "{where}" }}]'
        files = _copy_with(tmp_path, chado, new)
        with pytest.raises(CardError) as err:
            load_cards(files)
        msg = str(err.value)
        assert str(tmp_path / "east.toml") in msg and "'oda-nagamasu'" in msg
        assert "field 'action'" in msg and "(Chado)" in msg and "'other'" in msg


def test_chado_trains_only_outside_the_played_line(game: Sashimono) -> None:
    # rulebook: "If training is from a Sashimono action, the chosen face-up Kumi cannot be
    # in the same line as your just-played Sashimono."
    st = game.new_state(3)
    at_turn(st, 1)
    me = st.sides[1]
    me.cells = ["T^", "Kv", "N^", "T^", "N^", "K^", None, "N^", "K^"]
    me.hand = ["K", "N"]
    give_sashimono(st, 1, "oda-nagamasu")
    play(game, st, "action", "play oda-nagamasu", "slot right-2", "do Chado", "choose train")
    targets = [str(a) for a in st.legal_actions()]
    assert targets and not {"train a2", "train b2", "train c2"} & set(targets)
    assert "train a1" in targets


def test_tanaka_is_no_free_trap_and_bows_only_through_play(game: Sashimono) -> None:
    traps = 0
    for seed in range(60):
        st = game.new_state(seed, mode="solo")
        kage = st.sides[KAGE]
        tanaka = st.cs.index["tanaka-yoshimasa"]
        if tanaka in kage.sline:
            traps += 1
            assert not kage.sbowed[kage.sline.index(tanaka)]
    assert traps >= 3
    # in the player's hand (leading the East): not bowed the moment it is played
    st = game.new_state(1, mode="solo", army="east")
    assert isinstance(st, SashimonoState)
    give_sashimono(st, 0, "tanaka-yoshimasa")
    at_turn(st, 0)
    play(game, st, "action", "play tanaka-yoshimasa", "slot right-2")
    assert st.sides[0].bowed[st.sides[0].slots.index(st.cs.index["tanaka-yoshimasa"])] is False
    # in the duel it bows once a line of the enemy is all Hidden
    st = game.new_state(2)
    at_turn(st, 1)
    st.sides[0].cells[6] = "Kv"  # a3, as if played Hidden: column a holds a2 and a3 Hidden
    give_sashimono(st, 1, "tanaka-yoshimasa")
    play(game, st, "action", "play tanaka-yoshimasa", "slot right-2")
    assert st.sides[1].bowed[4] is False
    play(game, st, "do No-dachi", "flip enemy a1")  # column a: a1, a2 and a3 now Hidden
    assert st.sides[1].bowed[4] is True


def test_our_card_set_has_no_free_bow() -> None:
    from sengoku.games.sashimono.state import setup_bows

    assert setup_bows(load_cards()) == []
