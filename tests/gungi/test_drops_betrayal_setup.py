"""Drops (新 arata), betrayal (寝返り) and the free setup with its Done asymmetry."""

from __future__ import annotations

import pytest

from sengoku.core.game import IllegalAction
from sengoku.games.gungi import Gungi, Move
from sengoku.games.gungi.pieces import square_name

from .conftest import fen_of


def drops(state, kanji: str | None = None) -> list[Move]:
    return [
        m
        for m in state.legal_actions()
        if m.is_drop and (kanji is None or m.official().split()[1][0] == kanji)
    ]


class TestDrops:
    def test_drop_zone_ends_at_the_most_advanced_piece(self, gungi: Gungi) -> None:
        # rulebook: a new piece goes between your most advanced piece and your own edge.
        state = gungi.from_fen(fen_of({"5-9": "M", "3-6": "D", "5-1": "m"}, hands="S1/-"))
        rows = {int(square_name(m.destination).split("-")[1]) for m in drops(state)}
        assert rows == {6, 7, 8, 9}

    def test_only_top_pieces_count_for_the_zone(self, gungi: Gungi) -> None:
        # spec: only pieces on top of a tower count for "most advanced".
        state = gungi.from_fen(fen_of({"5-9": "M", "3-4": "Dd", "5-1": "m"}, hands="S1/-"))
        rows = {int(square_name(m.destination).split("-")[1]) for m in drops(state)}
        assert rows == {9}

    def test_drop_targets(self, gungi: Gungi) -> None:
        # rulebook: on your own piece yes; on the opponent's no; never above the limit;
        # never on a Marshal.
        towers = {"5-9": "M", "4-8": "D", "3-8": "d", "2-8": "DDD", "5-1": "m"}
        state = gungi.from_fen(fen_of(towers, hands="S1/-"))
        dests = {m.official().split()[0] for m in drops(state)}
        assert "4-8-2" in dests
        assert not any(d.startswith(("3-8", "2-8", "5-9")) for d in dests)

    def test_drop_beyond_zone_is_refused_with_reason(self, gungi: Gungi) -> None:
        state = gungi.from_fen(fen_of({"5-9": "M", "5-1": "m"}, hands="S1/-"))
        fen = gungi.to_fen(state)
        from sengoku.games.gungi.move import drop_code
        from sengoku.games.gungi.pieces import KIND_BY_NAME

        bad = Move(drop_code(KIND_BY_NAME["spy"], 4 * 9 + 4, 0, 1))
        with pytest.raises(IllegalAction, match="most advanced"):
            state.apply(bad)
        assert gungi.to_fen(state) == fen

    def test_drop_is_the_whole_turn(self, gungi: Gungi) -> None:
        state = gungi.new_state(mode="intro")
        state.apply(gungi.parse_action(state, "4-7-2 New Knight"))
        assert state.current_player == 1
        assert state.hands[0][6] == 1


class TestBetrayal:
    def test_betrayal_by_move(self, gungi: Gungi) -> None:
        # rulebook: a Captain stacked on the opponent's 兵 while you hold 兵 in hand may
        # swap it for yours; the opponent's pawn leaves the game.
        state = gungi.from_fen(
            fen_of({"5-9": "M", "5-6": "T", "4-5": "d", "5-1": "m"}, hands="D1/-")
        )
        onto = [m for m in state.legal_actions() if m.official().startswith("4-5")]
        assert sorted(str(m) for m in onto) == [
            "4-5-1 謀(5-6)取",
            "4-5-2 謀(5-6)付",
            "4-5-2 謀(5-6)付 返兵1",
        ]
        betray = gungi.parse_action(state, "4-5-2 謀 返兵")
        events = state.apply(betray)
        assert state.board[4 * 9 + 5] == (9 * 2, 13 * 2)  # white pawn, white captain
        assert state.hands[0][9] == 0
        assert any(e["type"] == "piece_removed" and e["piece"] == "pawn" for e in events)

    def test_betrayal_of_two_tiers_any_subset(self, gungi: Gungi) -> None:
        # rulebook: turncoat also applies to the level below the piece stacked upon.
        towers = {"5-9": "M", "5-6": "DT", "4-5": "dw", "5-1": "m"}
        state = gungi.from_fen(fen_of(towers, hands="D1W1/-"))
        stacks = [m for m in state.legal_actions() if m.official().startswith("4-5-3")]
        assert sorted(m.betrayal_mask for m in stacks) == [0, 1, 2, 3]
        all_or_none = gungi.from_fen(fen_of(towers, hands="D1W1/-"), betrayal="all_or_nothing")
        stacks = [m for m in all_or_none.legal_actions() if m.official().startswith("4-5-3")]
        assert sorted(m.betrayal_mask for m in stacks) == [0, 3]

    def test_betrayal_needs_the_type_in_hand(self, gungi: Gungi) -> None:
        state = gungi.from_fen(
            fen_of({"5-9": "M", "5-6": "T", "4-5": "d", "5-1": "m"}, hands="W1/-")
        )
        assert not any(m.betrayal_mask for m in state.legal_actions())

    def test_betrayal_by_drop(self, gungi: Gungi) -> None:
        # A Captain dropped (新) onto your own piece that sits on an enemy piece.
        towers = {"5-9": "M", "4-8": "dW", "5-1": "m"}
        state = gungi.from_fen(fen_of(towers, hands="T1D1/-"))
        captain_drops = [m for m in drops(state, "謀") if m.official().startswith("4-8-3")]
        assert sorted(m.betrayal_mask for m in captain_drops) == [0, 1]
        state.apply(gungi.parse_action(state, "4-8-3 謀新 返兵"))
        assert state.board[7 * 9 + 5] == (9 * 2, 4 * 2, 13 * 2)
        assert state.hands[0] == [0] * 14


class TestSetup:
    def test_setup_starts_with_the_marshal(self, gungi: Gungi) -> None:
        state = gungi.new_state(mode="advanced")
        assert state.phase == "setup"
        assert {m.kind for m in state.legal_actions()} == {0}
        assert len(state.legal_actions()) == 27  # White's three rows
        with pytest.raises(IllegalAction, match="Marshal must be placed first"):
            state.apply(_done())

    def test_first_players_done_lets_the_second_continue(self, gungi: Gungi) -> None:
        state = gungi.new_state(mode="intermediate")
        for text in ("5-9-1 帥新", "5-1-1 帥新", "済み"):
            state.apply(gungi.parse_action(state, text))
        assert state.phase == "setup" and state.current_player == 1
        state.apply(gungi.parse_action(state, "4-1-1 兵新"))
        assert state.current_player == 1  # keeps placing alone
        state.apply(gungi.parse_action(state, "Done"))
        assert state.phase == "play" and state.current_player == 0

    def test_second_players_done_ends_setup_at_once(self, gungi: Gungi) -> None:
        state = gungi.new_state(mode="intermediate")
        for text in ("5-9-1 帥新", "5-1-1 帥新", "4-9-1 兵新", "済み"):
            state.apply(gungi.parse_action(state, text))
        assert state.phase == "play"
        assert state.current_player == 0  # the first player moves first
        assert state.hands[0][0] == 0 and sum(state.hands[0]) == 23  # the rest is the hand

    def test_setup_rows_and_limits(self, gungi: Gungi) -> None:
        state = gungi.new_state(mode="intermediate")
        state.apply(gungi.parse_action(state, "5-9-1 帥新"))
        state.apply(gungi.parse_action(state, "5-1-1 帥新"))
        dests = {m.official().split()[0] for m in state.legal_actions() if m.is_drop}
        rows = {int(d.split("-")[1]) for d in dests}
        assert rows == {7, 8, 9}
        assert not any(d.startswith("5-9") for d in dests)  # never onto the Marshal
        state.apply(gungi.parse_action(state, "4-9-1 兵新"))
        state.apply(gungi.parse_action(state, "4-1-1 兵新"))
        dests = {m.official().split()[0] for m in state.legal_actions() if m.is_drop}
        assert "4-9-2" in dests  # stacking is allowed within the limit
        assert "4-9-3" not in dests

    def test_first_player_option(self, gungi: Gungi) -> None:
        state = gungi.new_state(mode="intro", first_player="black")
        assert state.current_player == 1
        drawn = {
            gungi.new_state(seed=s, mode="intro", first_player="random").current_player
            for s in range(20)
        }
        assert drawn == {0, 1}


def _done() -> Move:
    from sengoku.games.gungi.move import DONE

    return DONE
