"""Gungi (軍儀), the 9x9 stacking game: the :class:`Gungi` game description."""

from __future__ import annotations

import functools
import random
import re
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import sengoku.games.gungi.native_core as native_core
import sengoku.games.gungi.state as gungi_state
from sengoku.core.describe import ActionDescription, load_view_schema
from sengoku.core.features import Features
from sengoku.core.game import (
    Game,
    IllegalAction,
    InvalidOption,
    Option,
    ParseError,
    State,
    action_number,
    pick_one,
)
from sengoku.core.game_type import GameType
from sengoku.core.observation import Encoder
from sengoku.core.sentence import Sentence, Word, say
from sengoku.core.traits import Traits
from sengoku.games.gungi.fen import (
    MODE_SETS,
    STORED_MOVE_NUMBER,
    FenError,
    parse_fen,
    to_fen,
)
from sengoku.games.gungi.move import (
    DONE_TEXT,
    INTERNED,
    NEW,
    NUM_DISTINCT_ACTIONS,
    Move,
)
from sengoku.games.gungi.pieces import (
    ARCHER,
    ARCHER_BLOCKERS,
    BLACK,
    CAPTAIN,
    ENGLISH_ALIASES,
    KIND_BY_KANJI,
    MARSHAL,
    MODE_BY_CODE,
    MODES,
    PIECES,
    WHITE,
)
from sengoku.games.gungi.state import PLAY, SETUP, GungiState
from sengoku.games.gungi.the_end import judge

if TYPE_CHECKING:
    from sengoku.core.batch import GameBatch
    from sengoku.core.native_play import NativePlay

#: The starting position of each (resolved options, first player), cloned by ``new_state``.
_STARTS: dict[tuple[Any, ...], GungiState] = {}

MAX_GAME_LENGTH = 1000

_get_ident = native_core.get_ident
_entry = native_core.scratch_entry


class Gungi(Game):
    """Gungi: 2 players, perfect information, no chance (but who moves first may be drawn)."""

    game_type = GameType(
        # The catalog's words the server translates (sengoku/server/texts.py).
        catalog_words=frozenset({"name"}),
        name="gungi",
        title="Gungi - 9x9 stacking chess from HUNTER x HUNTER",
        version=1,
        min_players=2,
        max_players=2,
        perfect_information=True,
        # Only who moves first may be drawn (first_player=random): see traits().
        chance=True,
        renderer="gungi",
        bench_presets=({"mode": "intro"}, {"mode": "advanced"}),
        # gungi.js / gungi.io's move text and PGN (sengoku convert; gungijs.py)
        record_formats={"gungijs": "sengoku.games.gungi.convert:run"},
        provides_fen=True,
        # GungiBatch: the compiled core steps the games (sengoku/games/gungi/batch.py).
        provides_native_batch=True,
        # "If the same board position is reached 4 times, the game is drawn": the rules
        # know a draw, so players may agree one.
        provides_draws_by_agreement=True,
    )
    options: ClassVar[Mapping[str, Option]] = {
        "mode": Option(
            "mode", "intro", tuple(MODES), "ruleset: intro, beginner, intermediate or advanced"
        ),
        "first_player": Option(
            "first_player",
            "white",
            ("white", "black", "random"),
            "who places and moves first (random: drawn from the seed)",
        ),
        "self_check": Option(
            "self_check",
            "allowed",
            ("allowed", "forbidden"),
            "whether a move may leave your own Marshal capturable",
        ),
        "archer_blockers": Option(
            "archer_blockers",
            "front_and_wing",
            ARCHER_BLOCKERS,
            "which squares must be no taller than an Archer for its diagonal jump",
        ),
        "betrayal": Option(
            "betrayal",
            "any_subset",
            ("any_subset", "all_or_nothing"),
            "which enemy pieces a Captain's betrayal may turn: any choice, or all or none",
        ),
    }

    # -- Declared hooks (see sengoku.core.game.Game) -------------------------------------

    def features(self) -> Features:
        from sengoku.games.gungi.features import FEATURES

        return FEATURES

    def observation_encoder(self, **options: Any) -> Encoder:
        from sengoku.games.gungi.encoder import GungiEncoder

        return GungiEncoder(self.max_game_length(**options))

    def batch(self, **options: Any) -> GameBatch:
        # The native core keeps the games in C++ (batch.py), with the contract's numbers.
        from sengoku.games.gungi.batch import GungiBatch

        return GungiBatch(**options)

    def native_play(self, **options: Any) -> NativePlay | None:
        # The research adapters play whole games in the core where it is built.
        if not native_core.HAS_MATCH:
            return None
        return native_core.GungiPlay(self, self.resolve_options(**options))

    def traits(self, **options: Any) -> Traits:
        # The setup draws from the seed only to choose a random first player.
        random_first = options.get("first_player") == "random"
        return Traits(stochastic=random_first, zero_sum=True, perfect_information=True)

    def describe_action(self, state: State, action: Any) -> ActionDescription:
        return self.describe_actions(state, [action])[0]

    def describe_actions(self, state: State, actions: Sequence[Any]) -> list[ActionDescription]:
        from sengoku.games.gungi.describe import describe_move, tower_heights

        assert isinstance(state, GungiState)
        heights = tower_heights(state.view(None))
        out = []
        for action in actions:
            if not isinstance(action, Move):
                raise IllegalAction(f"{action!r} is not a Gungi move")
            out.append(describe_move(action, state.phase == SETUP, heights))
        return out

    def view_schema(self) -> dict[str, Any]:
        return load_view_schema(Path(__file__).parent)

    def catalog(self, **options: Any) -> dict[str, Any]:
        from sengoku.games.gungi.describe import catalog

        return catalog()

    def new_state(self, seed: int = 0, **options: Any) -> GungiState:
        opts = self.resolve_options(**options)
        _refuse_idle_options(opts, options)
        first = opts["first_player"]
        if first == "random":
            first = random.Random(seed).choice(("white", "black"))
        # Every game of a mode starts from the same position: it is read from the mode's FEN
        # once, and each new game is a clone (self-play starts thousands of games a second).
        key = (tuple(sorted(opts.items())), first)
        start = _STARTS.get(key)
        if start is None:
            color = WHITE if first == "white" else BLACK
            start = _STARTS[key] = self._from_fen(MODES[opts["mode"]].setup, opts, color)
        state = start.clone()
        state.game = self  # the game asked, not the one that first read the FEN
        return state

    def from_fen(self, fen: str, *, study: bool = False, **options: Any) -> GungiState:
        """A position from gungi.js FEN (its mode field sets the mode).

        A position in play must hold both Marshals on the board (or, a finished game, only the
        Marshal of the side that just captured the other). ``study=True`` lifts that rule for
        study positions (move-generation tests, puzzles without Marshals); the other checks
        stay.
        """
        if not isinstance(fen, str):
            raise FenError(f"a Gungi FEN is a string, not {type(fen).__name__}")
        board, hands, _order, side, _mode, drafting, _number = parse_fen(fen)
        if not (drafting[0] or drafting[1]) and not study:
            _check_play_marshals(board, hands, side)
        mode = MODE_BY_CODE[int(fen.split()[3])].name
        if "mode" in options and options["mode"] != mode:
            raise IllegalAction(
                say(
                    "the FEN is a {fen_mode} position, not {mode}",
                    fen_mode=mode,
                    mode=options["mode"],
                )
            )
        opts = self.resolve_options(**{**options, "mode": mode})
        return self._from_fen(fen, opts, None, study=study)

    def _from_fen(
        self,
        fen: str,
        opts: dict[str, Any],
        first: int | None,
        study: bool = False,
        stored: bool = False,
    ) -> GungiState:
        # A stored state may have counted past from_fen's move-number bound (a game from a
        # FEN at that bound); the native core's counter holds it.
        board, hands, order, side, _mode, drafting, number = (
            parse_fen(fen, STORED_MOVE_NUMBER) if stored else parse_fen(fen)
        )
        state = GungiState(self, opts)
        state.board = board
        state.hands = hands
        state.hand_order = order
        state.move_number = number
        in_setup = drafting[0] or drafting[1]
        state.phase = SETUP if in_setup else PLAY
        state.drafting = drafting if in_setup else [False, False]
        if first is not None:
            state.first = first
            state.to_move = first
        else:
            state.to_move = side
            state.first = self._infer_first(state, opts)
        state.recompute()
        state.seen = {state.hash: 1}
        if state.phase == PLAY:
            # Outside studies, a missing Marshal of the side to move was just captured.
            mover = 1 - state.to_move
            taken = not study and state.marshal_at[state.to_move] < 0 <= state.marshal_at[mover]
            result = judge(state, mover, taken)
            if result is not None and result.reason != "length_limit":
                state.end(result)
        return state

    @staticmethod
    def _infer_first(state: GungiState, opts: dict[str, Any]) -> int:
        """Who placed first, from the setup progress (the FEN does not record it)."""
        if state.phase == SETUP and all(state.drafting):
            placed = [sum(1 for t in state.board for p in t if p & 1 == c) for c in (WHITE, BLACK)]
            side = state.to_move
            return side if placed[side] == placed[1 - side] else 1 - side
        if state.phase == PLAY and state.mode.free_setup is False:
            return state.to_move if state.move_number == 1 else WHITE
        return WHITE if opts["first_player"] != "black" else BLACK

    def state_from_json(self, data: Mapping[str, Any]) -> GungiState:
        try:
            if data.get("game") != "gungi":
                raise IllegalAction(f"not a Gungi state: game is {data.get('game')!r}")
            opts = self.resolve_options(**data["options"])
            first = WHITE if data["first"] == "white" else BLACK
            state = self._from_fen(str(data["fen"]), opts, None, stored=True)
            state.first = first
            state.to_move = WHITE if str(data["fen"]).split()[2] == "w" else BLACK
            state.recompute()
            state.ply = int(data["ply"])
            state.seen = {int(k): int(n) for k, n in data["seen"]}
            outcome = data.get("outcome")
            from sengoku.core.game import Outcome

            if outcome:
                state.end(Outcome.from_json(outcome))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, IllegalAction):
                raise
            raise IllegalAction(f"malformed Gungi state JSON: {exc!r}") from None
        return state

    def to_fen(self, state: GungiState) -> str:
        return to_fen(state)

    # ------------------------------------------------------------------ actions
    def num_distinct_actions(self, **options: Any) -> int:
        self.resolve_options(**options)
        return NUM_DISTINCT_ACTIONS

    #: The length guard (any options; core/game.py ``Game.length_limit``).
    length_limit = MAX_GAME_LENGTH

    def action_to_int(self, state: State, action: Any) -> int:
        if not isinstance(action, Move):
            raise IllegalAction(f"{action!r} is not a Gungi move")
        return action.action_int

    def legal_action_ints(self, state: State) -> list[int]:
        # The legal codes, sorted as legal_actions lists its moves; no Move is made.
        assert isinstance(state, GungiState)
        if gungi_state.native_in_use() and native_core.HAS_ADAPTER_QUERIES:
            # Made in the core from its kept legal list (no list of codes in between);
            # is_terminal and native_core.legal_ints written out: an environment asks on
            # every step.
            if state.is_terminal():
                return []
            # native_core.scratch written out: this thread's scratch entry, reloaded if it
            # holds another position.
            kept = state.memo.native
            entry = kept[1] if kept is not None and kept[0] == _get_ident() else _entry(state)
            now = (state.hash, state.ply, state.move_number, state.first)
            if entry[1] != now:
                native_core.load(entry[0], state)
                entry[1] = now
            ints: list[int] = entry[0].legal_ints()
            return ints
        return [code >> 14 for code in state.legal_codes()]

    def int_to_action(self, state: State, n: int) -> Move:
        assert isinstance(state, GungiState)
        if type(n) is not int or not 0 <= n < NUM_DISTINCT_ACTIONS:  # the common case first
            n = action_number(n, NUM_DISTINCT_ACTIONS)
        if gungi_state.native_in_use() and native_core.HAS_ADAPTER_QUERIES:
            if state.is_terminal():
                raise IllegalAction(f"action {n} is not legal in this position")
            kept = state.memo.native  # native_core.scratch written out, as above
            entry = kept[1] if kept is not None and kept[0] == _get_ident() else _entry(state)
            now = (state.hash, state.ply, state.move_number, state.first)
            if entry[1] != now:
                native_core.load(entry[0], state)
                entry[1] = now
            code: int = entry[0].code_of(n)
            if code < 0:
                raise IllegalAction(f"action {n} is not legal in this position")
            return INTERNED.get(code) or Move(code)  # the interned Move, once made
        # The legal codes are ascending and an action's integer is its code's top bits: a
        # binary search for the first code at or above ``n << 14`` finds it.
        codes = state.legal_codes()
        i = bisect_left(codes, n << 14)
        if i < len(codes) and codes[i] >> 14 == n:
            code = codes[i]
            return INTERNED.get(code) or Move(code)  # the interned Move, once made
        raise IllegalAction(f"action {n} is not legal in this position")

    def format_action(self, state: State, action: Any) -> str:
        """Official short notation; the origin (or betrayal tiers) only when needed."""
        return self.format_actions(state, [action])[0]

    def format_actions(self, state: State, actions: Sequence[Any]) -> list[str]:
        assert isinstance(state, GungiState)
        short_counts, origin_counts = state.notation_counts()  # once for the list
        out = []
        for action in actions:
            if not isinstance(action, Move):
                raise IllegalAction(f"{action!r} is not a Gungi move")
            short = action.official()
            if short_counts.get(short, 0) <= 1:
                out.append(short)
                continue
            with_origin = action.official(with_origin=True)
            out.append(with_origin if origin_counts.get(with_origin, 0) <= 1 else str(action))
        return out

    def parse_action(self, state: State, text: str) -> Move:
        if not isinstance(text, str):
            raise ParseError(
                f"Gungi notation is a string such as '7-6-1 兵' or '4-7-2 忍新', "
                f"not {type(text).__name__} {text!r}"
            )
        assert isinstance(state, GungiState)
        typed = text
        text = text.translate(FULL_WIDTH)
        if _BAD_SEPARATOR.search(text):
            raise ParseError(
                say(
                    "{text}: a square is column-row-tier, three digits joined by single hyphens "
                    "(e.g. '1-6-1 兵'); a leading or doubled hyphen is not notation",
                    text=repr(typed),
                )
            )
        key = _normalize_cached(text)
        legal: list[Move] = state.legal_actions()
        keys = {key}
        if state.phase == SETUP and key != DONE_TEXT and not key.endswith(NEW):
            # Every setup action but Done is a placement from the hand, so records write it
            # without 新 ('6-9-1-帥', '4-9-1 兵'): read it as the placement.
            keys.add(key + NEW)
        matches = [m for m in legal if not keys.isdisjoint(_forms(m))]
        if not matches:
            raise ParseError(_no_match_reason(state, typed, legal))
        return pick_one(typed, matches, legal)  # type: ignore[return-value]

    def render_text(self, state: State, seat: int | None) -> str:
        return str(state)


def _refuse_idle_options(opts: dict[str, Any], given: Mapping[str, Any]) -> None:
    """An option set away from its default where the mode's pieces make it do nothing is
    refused with the reason (the default is always accepted)."""
    if "archer_blockers" not in given and "betrayal" not in given:
        return  # nothing to refuse (and no setup to read for every new game)
    board, hands, *_rest = parse_fen(MODES[opts["mode"]].setup)
    kinds = {p >> 1 for tower in board for p in tower}
    kinds |= {k for hand in hands for k, n in enumerate(hand) if n}
    for name, kind in (("archer_blockers", ARCHER), ("betrayal", CAPTAIN)):
        if name in given and opts[name] != Gungi.options[name].default and kind not in kinds:
            raise InvalidOption(
                say(
                    "option {option} rules the {piece} ({kanji}), which mode {mode} does not "
                    "use; it would do nothing",
                    option=repr(name),
                    piece=Word(PIECES[kind].english),
                    kanji=PIECES[kind].kanji,
                    mode=repr(opts["mode"]),
                )
            )


def _check_play_marshals(board: list[tuple[int, ...]], hands: list[list[int]], side: int) -> None:
    """A position in play has each Marshal on the board: it is the first piece placed in any
    setup and never returns to a hand. A Marshal can be missing only in a finished game, where
    the side to move has just lost it."""
    on_board = [False, False]
    for tower in board:
        for p in tower:
            if p >> 1 == MARSHAL:
                on_board[p & 1] = True
    for color, name in ((WHITE, "White"), (BLACK, "Black")):
        if hands[color][MARSHAL]:
            raise FenError(
                f"FEN: {name}'s Marshal is in hand, but the setup is over (drafting '-'); the "
                "Marshal is the first piece placed in the setup and never returns to a hand"
            )
    for color, name in ((WHITE, "White"), (BLACK, "Black")):
        if not on_board[color] and (color != side or not on_board[1 - color]):
            raise FenError(
                f"FEN: {name} has no Marshal on the board in a position in play (drafting '-'); "
                "only a finished game lacks one, the Marshal of the side to move, just captured"
            )


#: A hyphen before anything (a sign, as in '-1-6-1') or two in a row: normalize() would drop it.
_BAD_SEPARATOR = re.compile(r"^\s*-|-[\s_]*-")
_ALIASES = sorted(ENGLISH_ALIASES.items(), key=lambda kv: -len(kv[0]))
_NEW_FIRST = re.compile("新([" + "".join(KIND_BY_KANJI) + "])")


def _forms(move: Move) -> frozenset[str]:
    """Every spelling ``parse_action`` accepts for ``move``, normalised: its canonical form,
    the official short form, with the origin, with the betrayal tiers, and with the origin
    but no stack/capture mark. Made once per move (moves are interned, their texts fixed), so
    parsing is one set test per legal move, not five normalisations."""
    forms = _FORMS.get(move.code)
    if forms is None:
        forms = _FORMS[move.code] = frozenset(
            (
                normalize(str(move)),
                normalize(move.official()),
                normalize(move.official(with_origin=True)),
                normalize(move.official(betrayal_tiers=True)),
                normalize(move.official(with_origin=True, betrayal_tiers=False).rstrip("付取")),
            )
        )
    return forms


_FORMS: dict[int, frozenset[str]] = {}


@functools.lru_cache(maxsize=4096)
def _normalize_cached(text: str) -> str:
    """``normalize`` of a text a client sends (the same few texts again and again)."""
    return normalize(text)


#: Full-width digits, hyphen, parentheses and space (a Japanese keyboard's input mode) read as
#: their ASCII twins: '７－６－１ 兵' is '7-6-1 兵'.
FULL_WIDTH = str.maketrans(
    {
        **{0xFF10 + d: str(d) for d in range(10)},
        0xFF0D: "-",
        0xFF08: "(",
        0xFF09: ")",
        0x3000: " ",
    }
)


def normalize(text: str) -> str:
    """One spelling for every way of writing a move: kanji, no spaces or hyphens."""
    t = text.translate(FULL_WIDTH).strip().casefold()
    if t in ("done", "済", "済み", "sumi"):
        return DONE_TEXT
    for alias, kind in _ALIASES:
        t = t.replace(alias, PIECES[kind].kanji)
    t = t.replace("new", NEW)
    t = re.sub(r"[\s\-_]", "", t)
    t = t.replace("betray", "返").replace("capture", "取").replace("stack", "付")
    return _NEW_FIRST.sub(lambda m: m.group(1) + NEW, t)


#: The square at the start of a move's text, column-row-tier (after FULL_WIDTH).
_SQUARE = re.compile(r"\s*([0-9]+)[\s_]*-[\s_]*([0-9]+)[\s_]*-[\s_]*([0-9]+)(.*)", re.DOTALL)


def _kinds_text(kinds: Sequence[int]) -> Sentence:
    """The pieces ``kinds``, "帥 Marshal, 大将 General", each name a word of the reader's
    language (the list's own template, only commas and places, is the same in every one)."""
    names = {
        f"p{i}": say("{kanji} {piece}", kanji=PIECES[k].kanji, piece=Word(PIECES[k].english))
        for i, k in enumerate(kinds)
    }
    return Sentence(", ".join("{" + name + "}" for name in names), names)


def _notation_problem(state: GungiState, text: str) -> Sentence | None:
    """What makes ``text`` name no move in any position of this mode: a square off the board,
    a tier beyond the mode's towers, a word that is no piece, a piece the mode does not use;
    None when the text could be a move (it is simply not legal here)."""
    m = _SQUARE.match(text.translate(FULL_WIDTH))
    if m is None:
        return None
    column, row, tier = (int(m.group(i)) for i in (1, 2, 3))
    if not 1 <= column <= 9:
        return say("column {column} is off the board: columns are 1-9", column=column)
    if not 1 <= row <= 9:
        return say("row {row} is off the board: rows are 1-9", row=row)
    limit = state.mode.stack_limit
    if tier < 1:
        return say(
            "tier {tier}: tiers count from 1, the bottom of a tower, up to {limit}",
            tier=tier,
            limit=limit,
        )
    if tier > limit:
        return say(
            "tier {tier}: towers are at most {limit} high in this mode ({mode})",
            tier=tier,
            limit=limit,
            mode=state.mode.name,
        )
    rest = m.group(4)
    piece = normalize(rest).removeprefix(NEW)
    used = [k for k, n in enumerate(MODE_SETS[state.mode.code]) if n]
    if not piece:
        return say("no piece after the square")
    kind = KIND_BY_KANJI.get(piece[0])
    if kind is None:
        word = re.split(r"[\s(]", rest.strip(" -_"), maxsplit=1)[0] or rest.strip()
        return say(
            "{word} is not a piece: pieces are {pieces}",
            word=repr(word),
            pieces=_kinds_text(range(len(PIECES))),
        )
    if kind not in used:
        return say(
            "the {piece} ({kanji}) is not used in this mode ({mode}): its pieces are {pieces}",
            piece=Word(PIECES[kind].english),
            kanji=PIECES[kind].kanji,
            mode=state.mode.name,
            pieces=_kinds_text(used),
        )
    return None


def _no_match_reason(state: State, text: str, legal: list[Move]) -> Sentence:
    """Why ``text`` names no legal move, and how to write one (a sentence a reader's
    language translates: sengoku/core/sentence.py)."""
    if state.is_terminal():
        return say("{text}: the game is over", text=repr(text))
    assert isinstance(state, GungiState)
    problem = _notation_problem(state, text)
    sample = ", ".join(str(m) for m in legal[:10])
    # The examples are moves legal now: a board move and a drop (or setup placement).
    board = next((m for m in legal if m.is_board_move), None)
    drop = next((m for m in legal if m.is_drop), None)
    if board is not None and drop is not None:
        how = say(
            "Write column-row-tier piece, e.g. '{board}' or '{drop}' to place a piece from "
            "the hand",
            board=board.official(),
            drop=drop.official(),
        )
    elif board is not None:
        how = say("Write column-row-tier piece, e.g. '{board}'", board=board.official())
    elif drop is not None:
        how = say(
            "Write column-row-tier piece, e.g. '{drop}' to place a piece from the hand",
            drop=drop.official(),
        )
    elif legal:
        how = say("The only legal action is {action}", action=str(legal[0]))
    else:
        how = say("Write column-row-tier piece")
    if problem is not None:
        return say("{text}: {problem}. {how}", text=repr(text), problem=problem, how=how)
    return say(
        "{text} names no legal move. {how} ({count} legal moves, e.g. {sample})",
        text=repr(text),
        how=how,
        count=len(legal),
        sample=sample,
    )


__all__ = ["Gungi", "normalize", "PLAY", "SETUP"]
