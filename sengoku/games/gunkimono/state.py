"""One Gunkimono match in progress: the battlefield, hands, row, stacks, honor track, scores.

The turn's four steps become decisions of the player to act (one decision per action):

1. *place* a large tile (tile + squares + rotation), a small tile face up, or a small tile
   face down as extra *support*, which is followed by the large tile placed over it;
2. *score* each placed troop for victory points or honor points (one decision per troop),
   then, if the honor track allows, choose the square of a *stronghold*;
3. strongholds are assessed (no decision);
4. *draw* from the face-up row or the stack, after a large tile.

Every shuffle happens at setup with the seeded RNG and is stored here, so a record (seed and
actions) replays exactly. Hidden: other hands (except tiles seen taken from the row), other
players' banner values, the stacks' order and contents, the tiles removed at setup.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from sengoku.core.game import TERMINAL, Event, IllegalAction, Outcome, State, event
from sengoku.games.gunkimono.actions import (
    CELL_NAMES,
    CELLS,
    LETTERS,
    TILE_NAMES,
    WIDTH,
    BuildStronghold,
    Draw,
    GunkimonoAction,
    Place,
    Score,
    SmallTile,
    cell_name,
    tile_name,
    troop_name,
)
from sengoku.games.gunkimono.data import components, tile_code, tile_troops

if TYPE_CHECKING:
    from sengoku.games.gunkimono.game import Gunkimono

_C = components()
HEIGHT = _C.height
NAMES = _C.troop_names
FACE_DOWN = 5  # top of a square holding a face-down support tile (always covered at once)
END_TILE = 100  # the end-of-game tile inside the end-game stack
REMOVED = -1  # an honor marker taken off the track after claiming a banner

#: Neighbours of each square (orthogonal).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        y2 * WIDTH + x2
        for x2, y2 in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
        if 0 <= x2 < WIDTH and 0 <= y2 < HEIGHT
    )
    for y in range(HEIGHT)
    for x in range(WIDTH)
)
#: Every place for a large tile: (top or left square, right or lower square), in the order
#: of the action numbers (square, then horizontal before vertical).
PAIRS: tuple[tuple[int, int], ...] = tuple(
    sorted(
        [(c, c + 1) for c in range(CELLS) if c % WIDTH < WIDTH - 1]
        + [(c, c + WIDTH) for c in range(CELLS - WIDTH)]
    )
)
_PLACES: dict[int, list[Place]] = {}  # troop codes c1*10+c2 -> a Place per pair (built lazily)
SMALLS = tuple(tuple(SmallTile(t, c, False) for c in range(CELLS)) for t in range(5))
SUPPORTS = tuple(tuple(SmallTile(t, c, True) for c in range(CELLS)) for t in range(5))


def _places(c1: int, c2: int) -> list[Place]:
    key = c1 * 10 + c2
    table = _PLACES.get(key)
    if table is None:
        table = _PLACES[key] = [Place(c1, a, c2, b) for a, b in PAIRS]
    return table


INDEXED_PAIRS: tuple[tuple[int, int, int], ...] = tuple((i, a, b) for i, (a, b) in enumerate(PAIRS))
PAIRS_OF: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(p for p in INDEXED_PAIRS if c in p[1:]) for c in range(CELLS)
)

PHASES = ("place", "support", "score", "stronghold", "draw", "over")

_INT_ID = attrgetter("int_id")  # an action's integer, stored when it was created

#: What ``view`` shows for each square's top troop (``?`` for a face-down support tile).
_TOP_NAMES: tuple[str, ...] = tuple(LETTERS) + ("?",)
assert len(_TOP_NAMES) == FACE_DOWN + 1
#: Banner kind names, by kind index.
_BANNER_KINDS: tuple[str, ...] = tuple(_C.banner_kinds)


def _troop(code: int) -> tuple[int, int]:
    return code // 2, code % 2 + 1


class _Board:
    """Formations of one battlefield (tops and stronghold owners), computed once and shared.

    Legal-action generation, scoring and the evaluation all ask for the formations of the
    same board many times; ``key`` says which board this is, so a state whose tops or
    strongholds changed (by a move, or by a test writing ``top`` directly) computes afresh.
    Nothing here is changed after it is built: clones and determinizations share it.
    """

    __slots__ = ("key", "comp", "held", "size", "sites")

    def __init__(self, key: tuple[int, ...], top: list[int], sh_owner: list[int]) -> None:
        self.key = key
        comp = [-1] * CELLS
        size = [0] * CELLS
        for start in range(CELLS):
            if comp[start] >= 0:
                continue
            t = top[start]
            comp[start] = start
            todo = [start]
            n = 1
            while todo:
                c = todo.pop()
                for nb in NEIGHBOURS[c]:
                    if comp[nb] < 0 and top[nb] == t:
                        comp[nb] = start
                        todo.append(nb)
                        n += 1
            size[start] = n
        held: dict[int, list[int]] = {}
        for c in range(CELLS):
            if sh_owner[c] >= 0:
                held.setdefault(comp[c], []).append(c)
        #: Formation id (its lowest square) of each square.
        self.comp = comp
        #: The stronghold squares of each formation that holds one.
        self.held = held
        #: The number of squares of each formation, by formation id.
        self.size = size
        #: ``_stronghold_cells`` by (seat, own_double_stronghold), filled on demand.
        self.sites: dict[tuple[int, bool], list[int]] = {}


class GunkimonoState(State):
    """A Gunkimono position; see the module docstring for the shape of a turn."""

    def __init__(self, game: Gunkimono, options: Mapping[str, Any]) -> None:
        self.game = game
        self.options = dict(options)
        n = int(self.options["players"])
        self.num_players = n
        # battlefield
        self.top: list[int] = list(_C.printed)
        self.sym: list[int] = [0] * CELLS
        self.level: list[int] = [0] * CELLS
        self.sh_owner: list[int] = [-1] * CELLS
        self.strongholds: list[list[int]] = [[] for _ in range(n)]
        # tiles
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]  # hand tiles seen taken from row
        self.reserve: list[list[int]] = [list(range(5)) for _ in range(n)]
        self.row: list[int] = []
        self.stack: list[int] = []  # the draw pile, top = last
        self.end_stack: list[int] = []  # the covered end-game stack until it comes into play
        self.end_stack_in_play = False
        self.removed: list[int] = []
        self.placed: list[int] = []  # large tiles on the battlefield, in order
        self.placed_small: list[list[int]] = []  # [seat, troop, face up 1/0]
        # honor and banners
        self.honor: list[list[int]] = [[0] * 5 for _ in range(n)]
        self.banner_stacks: list[list[list[int]]] = [
            [] for _ in range(5)
        ]  # [kind, value], top last
        self.banners: list[list[list[int]]] = [[] for _ in range(n)]  # [kind, value, column]
        self.score: list[int] = [0] * n
        # turn
        self.turn = 0  # seat whose turn it is
        self.turns = 0  # turns completed
        self.phase = "place"
        self.support_cell = -1
        self.placed_large = False
        self.pending: list[list[int]] = []  # [cell, troop, symbols, vp, vp allowed 1/0]
        self.end_triggered = False
        self.passes = 0
        self.decisions = 0
        self.reason: str | None = None
        #: An ending made by core (concession, timeout, length limit), as Outcome JSON.
        self.ended: dict[str, Any] | None = None
        self.built_at: list[list[int]] = []  # [seat, turn number] of each stronghold built
        self._legal: list[GunkimonoAction] | None = None
        self._board: _Board | None = None

    # ------------------------------------------------------------------ setup

    @classmethod
    def setup(cls, game: Gunkimono, seed: int, options: Mapping[str, Any]) -> GunkimonoState:
        st = cls(game, options)
        n = st.num_players
        rng = random.Random(seed)
        tiles = list(_C.large_tiles)
        rng.shuffle(tiles)
        # 4-5 players use all 60 tiles; 3 players remove 10, 2 players 20, unseen.
        remove = {2: 20, 3: 10}.get(n, 0)
        st.removed = sorted(tiles[:remove])
        tiles = tiles[remove:]
        # The top 5 tiles, shuffled with the end-of-game tile, form the end-game stack.
        end_stack = tiles[-5:] + [END_TILE]
        tiles = tiles[:-5]
        rng.shuffle(end_stack)
        st.end_stack = end_stack
        st.stack = tiles
        st.row = [st.stack.pop() for _ in range(3)]
        for seat in range(n):
            st.hands[seat] = [st.stack.pop() for _ in range(3)]
        # Banner stacks on each space of the ending row: dragon over crane over lotus
        # (lotus left out with 2 players).
        for kind in reversed(range(len(_C.banner_kinds))):
            if n < _C.banner_min_players[kind]:
                continue
            values = list(_C.banner_values[kind])
            rng.shuffle(values)
            for col in range(5):
                st.banner_stacks[col].append([kind, values[col]])
        st._start_turn([])
        return st

    # ------------------------------------------------------------------ contract

    @property
    def current_player(self) -> int:
        return TERMINAL if self.phase == "over" else self.turn

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> list[GunkimonoAction]:  # type: ignore[override]
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def apply(self, action: Any) -> list[Event]:
        why = self.why_illegal(action)
        if why is not None:
            raise IllegalAction(why)
        events: list[Event] = []
        self._legal = None
        if isinstance(action, Place):
            self._do_place(action, events)
        elif isinstance(action, SmallTile):
            self._do_small(action, events)
        elif isinstance(action, Score):
            self._do_score(action, events)
        elif isinstance(action, BuildStronghold):
            self._do_build(action, events)
        else:
            self._do_draw(action, events)
        self.decisions += 1
        return events + self._end_if_too_long(self.decisions)

    def _end_game(self, result: Outcome) -> None:
        self.phase = "over"
        self.reason = result.reason
        self.ended = result.to_json()
        self._legal = None

    def interim_scores(self) -> tuple[float, ...]:
        # The victory points on the track (the hidden war banners are not counted).
        return tuple(float(v) for v in self.score)

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        n = self.num_players
        if self.ended is not None:
            return Outcome.from_json(self.ended)
        finals = self.final_scores()
        tb = [self.controlled_troops(s) for s in range(n)]
        ranks = [
            sum(1 for o in range(n) if (finals[o], tb[o]) > (finals[s], tb[s])) for s in range(n)
        ]
        return Outcome.ranked(finals, self.reason or "end_of_game", ranks)

    def final_scores(self) -> list[int]:
        """Victory points plus the values of the claimed war banners."""
        return [self.score[s] + sum(b[1] for b in self.banners[s]) for s in range(self.num_players)]

    def controlled_troops(self, seat: int) -> int:
        """Troops in the formations the seat's strongholds stand in (the tie-break)."""
        seen: set[int] = set()
        for cell in self.strongholds[seat]:
            if cell not in seen:
                seen |= self.formation(cell)
        return len(seen)

    # ------------------------------------------------------------------ formations

    def formation(self, cell: int) -> set[int]:
        """The squares of the formation whose troop stands on ``cell``."""
        top = self.top
        t = top[cell]
        seen = {cell}
        todo = [cell]
        while todo:
            c = todo.pop()
            for nb in NEIGHBOURS[c]:
                if nb not in seen and top[nb] == t:
                    seen.add(nb)
                    todo.append(nb)
        return seen

    def _formations(self) -> _Board:
        """The formations of the battlefield as it is now (cached while it stays so)."""
        key = (*self.top, *self.sh_owner)
        board = self._board
        if board is None or board.key != key:
            board = self._board = _Board(key, self.top, self.sh_owner)
        return board

    def _components(self) -> tuple[list[int], dict[int, list[int]]]:
        """Formation id of each square, and the stronghold squares of each controlled one.

        Shared with other callers and clones: read them, never change them."""
        board = self._formations()
        return board.comp, board.held

    def formation_size(self, cell: int) -> int:
        """``len(self.formation(cell))``, from the cached formations."""
        board = self._formations()
        return board.size[board.comp[cell]]

    def _links_controlled(
        self, a: int, ta: int, b: int, tb: int, comps: tuple[list[int], dict[int, list[int]]]
    ) -> bool:
        """Would troops ``ta`` on ``a`` and ``tb`` on ``b`` link formations the stronghold rule
        keeps apart (two players' formations; also one player's two, if not allowed)?"""
        comp, held = comps
        if len(held) < 2:
            return False
        for x, t in ((a, ta), (b, tb)):
            near = {
                comp[nb]
                for nb in NEIGHBOURS[x]
                if nb != a and nb != b and self.top[nb] == t and comp[nb] in held
            }
            if len(near) < 2:
                continue
            # Possibly linking: look at the formation as it would be after the placement.
            old = self.top[a], self.top[b]
            self.top[a], self.top[b] = ta, tb
            try:
                squares = self.formation(x)
            finally:
                self.top[a], self.top[b] = old
            groups = {comp[c] for c in squares if self.sh_owner[c] >= 0}
            if len(groups) < 2:
                continue
            owners = {self.sh_owner[held[g][0]] for g in groups}
            if len(owners) > 1 or not self.options["link_own_formations"]:
                return True
        return False

    # ------------------------------------------------------------------ legal actions

    def _generate(self) -> list[GunkimonoAction]:
        phase = self.phase
        out: list[GunkimonoAction] = []
        if phase == "over":
            return out
        seat = self.turn
        if phase == "place":  # generated in action-number order: no sort needed
            out.extend(self._large_placements(None))
            out.extend(self._small_placements())
            out.extend(self._supports())
            return out
        if phase == "support":
            return list(self._large_placements(self.support_cell))
        elif phase == "score":
            cell, troop, _sym, _vp, vp_ok = self.pending[0]
            if vp_ok:
                out.append(Score(False, troop, cell))
            if self._can_honor(seat, troop):
                out.append(Score(True, troop, cell))
        elif phase == "stronghold":
            out.extend(BuildStronghold(c) for c in self._stronghold_cells(seat))
        elif phase == "draw":
            if self.stack:
                out.append(Draw(None))
            out.extend(Draw(t) for t in sorted(set(self.row)))
        out.sort(key=_INT_ID)
        return out

    def _large_placements(self, support: int | None) -> list[Place]:
        """Legal large tiles, in ascending action-number order."""
        hand = set(self.hands[self.turn])
        if not hand:
            return []
        kinds = []
        for code in hand:
            (t1, s1), (t2, s2) = tile_troops(code)
            c1, c2 = t1 * 2 + s1 - 1, t2 * 2 + s2 - 1
            kinds.append((c1 * 10 + c2, t1, c1, t2, c2))
            kinds.append((c2 * 10 + c1, t2, c2, t1, c1))
        kinds.sort()
        top, level, sh = self.top, self.level, self.sh_owner
        comps = self._components() if sum(len(s) for s in self.strongholds) >= 2 else None
        pairs = INDEXED_PAIRS if support is None else PAIRS_OF[support]
        free = [p for p in pairs if sh[p[1]] < 0 and sh[p[2]] < 0 and level[p[1]] == level[p[2]]]
        out: list[Place] = []
        if comps is None:
            # Nothing can link controlled formations: only the troop duplication rule
            # filters, so read each pair's two tops once and filter per tile side.
            tops = [(i, top[a], top[b]) for i, a, b in free]
            for _key, t1, c1, t2, c2 in kinds:
                table = _places(c1, c2)
                out += [table[i] for i, x, y in tops if x != t1 and y != t2]
            return out
        for _key, t1, c1, t2, c2 in kinds:
            table = _places(c1, c2)
            for i, a, b in free:
                if top[a] != t1 and top[b] != t2:
                    if comps is not None and self._links_controlled(a, t1, b, t2, comps):
                        continue
                    out.append(table[i])
        return out

    def _small_placements(self) -> list[SmallTile]:
        out = []
        top, sh = self.top, self.sh_owner
        comps = self._components() if sum(len(s) for s in self.strongholds) >= 2 else None
        if comps is None:
            open_tops = [(c, top[c]) for c in range(CELLS) if sh[c] < 0]
            for troop in sorted(self.reserve[self.turn]):
                table = SMALLS[troop]
                out += [table[c] for c, t in open_tops if t != troop]
            return out
        for troop in sorted(self.reserve[self.turn]):
            table = SMALLS[troop]
            for c in range(CELLS):
                if sh[c] < 0 and top[c] != troop:
                    if comps is not None and self._links_controlled(c, troop, c, troop, comps):
                        continue
                    out.append(table[c])
        return out

    def _support_cells(self) -> list[int]:
        """Squares where a face-down small tile would let a large tile from the hand lie level."""
        seat = self.turn
        if not self.reserve[seat] or not self.hands[seat]:
            return []
        kinds = set()
        for code in set(self.hands[seat]):
            (t1, _), (t2, _) = tile_troops(code)
            kinds.add((t1, t2))
            kinds.add((t2, t1))
        top, level, sh = self.top, self.level, self.sh_owner
        comps = self._components() if sum(len(s) for s in self.strongholds) >= 2 else None
        cells = []
        if comps is None:
            # Then a neighbour one level up suits some tile side unless every second troop
            # of the hand's tiles is the neighbour's own (troop duplication).
            # So start from the raised squares (few) and mark their free neighbours one lower.
            seconds = {ty for _tx, ty in kinds}
            found: set[int] = set()
            for y in range(CELLS):
                ly = level[y]
                if ly == 0 or sh[y] >= 0 or (len(seconds) == 1 and top[y] in seconds):
                    continue
                for x in NEIGHBOURS[y]:
                    if level[x] == ly - 1 and sh[x] < 0:
                        found.add(x)
            return sorted(found)
        for x in range(CELLS):
            if sh[x] >= 0:
                continue
            ok = False
            for y in NEIGHBOURS[x]:
                if sh[y] >= 0 or level[y] != level[x] + 1:
                    continue
                for tx, ty in kinds:
                    if ty == top[y]:
                        continue
                    if comps is not None and self._links_controlled(x, tx, y, ty, comps):
                        continue
                    ok = True
                    break
                if ok:
                    break
            if ok:
                cells.append(x)
        return cells

    def _supports(self) -> list[SmallTile]:
        cells = self._support_cells()
        return [SUPPORTS[t][c] for t in sorted(self.reserve[self.turn]) for c in cells]

    def _can_honor(self, seat: int, troop: int) -> bool:
        row = self.honor[seat][troop]
        return row != REMOVED and row < _C.ending_row[self.num_players]

    def _stronghold_cells(self, seat: int) -> list[int]:
        board = self._formations()
        key = (seat, bool(self.options["own_double_stronghold"]))
        cells = board.sites.get(key)
        if cells is None:
            cells = board.sites[key] = self._find_stronghold_cells(seat, board)
        return list(cells)

    def _find_stronghold_cells(self, seat: int, board: _Board) -> list[int]:
        comp, sh, top = board.comp, self.sh_owner, self.top
        own_ok = self.options["own_double_stronghold"]
        # Formations closed to a new stronghold: those holding one (unless all of them are
        # the seat's own and the option allows that).
        closed = {
            g
            for g, squares in board.held.items()
            if not (own_ok and all(sh[s] == seat for s in squares))
        }
        return [
            c for c in range(CELLS) if sh[c] < 0 and top[c] != FACE_DOWN and comp[c] not in closed
        ]

    def _stronghold_due(self, seat: int) -> bool:
        """All five markers at or past the row of the lowest remaining stronghold?"""
        built = len(self.strongholds[seat])
        if built >= 2:
            return False
        row = _C.stronghold_rows[self.num_players][built]
        removed_ok = self.options["removed_marker_counts"]
        return all(
            (r == REMOVED and removed_ok) or (r != REMOVED and r >= row) for r in self.honor[seat]
        )

    # ------------------------------------------------------------------ validation

    def why_illegal(self, action: Any) -> str | None:
        """None if ``action`` is legal here, else the rule it breaks."""
        if self.phase == "over":
            return "the game is over"
        if not isinstance(action, Place | SmallTile | Score | BuildStronghold | Draw):
            return f"{action!r} is not a Gunkimono action"
        seat = self.turn
        phase = self.phase
        if isinstance(action, Place):
            if phase not in ("place", "support"):
                return f"a large tile is placed in step 1 of the turn; now: {self._phase_text()}"
            a, b = action.a, action.b
            if not (0 <= a < CELLS and 0 <= b < CELLS) or not (
                (b == a + 1 and a % WIDTH < WIDTH - 1) or b == a + WIDTH
            ):
                return "a large tile must lie on two neighbouring squares inside the battlefield"
            if not (0 <= action.first < 10 and 0 <= action.second < 10) or (
                action.first // 2 == action.second // 2
            ):
                return "a large tile shows two different troops"
            if action.tile not in self.hands[seat]:
                return f"tile {tile_name(action.tile)} is not in your hand"
            if phase == "support" and self.support_cell not in (a, b):
                return (
                    "Extra Support rule: the large tile must cover the face-down small tile on "
                    f"{cell_name(self.support_cell)}"
                )
            return self._why_not_cover(action.first // 2, a, action.second // 2, b)
        if isinstance(action, SmallTile):
            if phase != "place":
                if phase == "support":
                    return "at most one small tile per turn: place the large tile on the support"
                return f"tiles are placed in step 1 of the turn; now: {self._phase_text()}"
            if not (0 <= action.troop < 5 and 0 <= action.cell < CELLS):
                return "no such troop or square"
            if action.troop not in self.reserve[seat]:
                return f"your small {NAMES[action.troop]} tile is no longer in your reserve"
            c = action.cell
            if self.sh_owner[c] >= 0:
                return "Stronghold rule 1: no army tile may be placed on a stronghold's troop"
            if action.support:
                if c not in self._support_cells():
                    return (
                        "Extra Support rule: a face-down small tile may only be placed where it "
                        "removes a level difference for a large tile from your hand"
                    )
                return None
            if self.top[c] == action.troop:
                return f"Troop Duplication rule: a troop may not cover one of its own type ({NAMES[action.troop]} on {NAMES[action.troop]} at {cell_name(c)})"
            return self._why_links(c, action.troop, c, action.troop)
        if isinstance(action, Score):
            if phase != "score":
                return f"troops are scored in step 2 of the turn; now: {self._phase_text()}"
            cell, troop, _sym, _vp, vp_ok = self.pending[0]
            if action.cell != cell or action.troop != troop:
                return f"score the troop just placed: {LETTERS[troop]}@{cell_name(cell)}"
            if not action.honor and not vp_ok:
                return (
                    "Stronghold rule 2: no victory points for a troop that joins a formation "
                    "with a stronghold"
                )
            if action.honor and not self._can_honor(seat, troop):
                return f"your {NAMES[troop]} honor marker has left the track: score victory points"
            return None
        if isinstance(action, BuildStronghold):
            if phase != "stronghold":
                return f"no stronghold to build now; now: {self._phase_text()}"
            if action.cell not in self._stronghold_cells(seat):
                return (
                    "a stronghold goes on a troop in a formation that holds no stronghold "
                    "(option own_double_stronghold allows your own)"
                )
            return None
        if phase != "draw":
            return f"tiles are drawn in step 4 of the turn; now: {self._phase_text()}"
        if action.tile is None:
            return None if self.stack else "the stack is empty"
        if action.tile not in self.row:
            return f"tile {tile_name(action.tile)} is not in the face-up row"
        return None

    def _why_not_cover(self, t1: int, a: int, t2: int, b: int) -> str | None:
        for c in (a, b):
            if self.sh_owner[c] >= 0:
                return "Stronghold rule 1: no army tile may be placed on a stronghold's troop"
        if self.level[a] != self.level[b]:
            return (
                "Level Difference rule: both troops of a large tile must lie at the same level "
                f"({cell_name(a)} is at {self.level[a]}, {cell_name(b)} at {self.level[b]})"
            )
        for c, t in ((a, t1), (b, t2)):
            if self.top[c] == t:
                return f"Troop Duplication rule: a troop may not cover one of its own type ({NAMES[t]} on {NAMES[t]} at {cell_name(c)})"
        return self._why_links(a, t1, b, t2)

    def _why_links(self, a: int, t1: int, b: int, t2: int) -> str | None:
        if sum(len(s) for s in self.strongholds) >= 2 and self._links_controlled(
            a, t1, b, t2, self._components()
        ):
            return "Stronghold rule 4: this would link formations controlled by different players"
        return None

    def _phase_text(self) -> str:
        return {
            "place": "place a tile",
            "support": "place the large tile over the support",
            "score": "score the placed troops",
            "stronghold": "build a stronghold",
            "draw": "draw a tile",
        }[self.phase]

    # ------------------------------------------------------------------ effects

    def _do_place(self, action: Place, events: list[Event]) -> None:
        seat = self.turn
        self.hands[seat].remove(action.tile)
        if action.tile in self.known[seat]:
            self.known[seat].remove(action.tile)
        self.placed.append(action.tile)
        for c, code in ((action.a, action.first), (action.b, action.second)):
            t, s = _troop(code)
            self.top[c] = t
            self.sym[c] = s
            self.level[c] += 1
        self.placed_large = True
        self.support_cell = -1
        events.append(
            event(
                "place",
                seat=seat,
                tile=tile_name(action.tile),
                action=str(action),
                message=f"Seat {seat} places {action}.",
            )
        )
        self._queue_scoring([action.a, action.b], events)

    def _do_small(self, action: SmallTile, events: list[Event]) -> None:
        seat = self.turn
        self.reserve[seat].remove(action.troop)
        c = action.cell
        self.level[c] += 1
        self.placed_small.append([seat, action.troop, 0 if action.support else 1])
        if action.support:
            self.top[c] = FACE_DOWN
            self.sym[c] = 0
            self.support_cell = c
            self.phase = "support"
            events.append(
                event(
                    "support",
                    seat=seat,
                    action=str(action),
                    message=f"Seat {seat} places the small {NAMES[action.troop]} face down on "
                    f"{cell_name(c)} as extra support.",
                )
            )
            return
        self.top[c] = action.troop
        self.sym[c] = _C.small_symbols
        self.placed_large = False
        events.append(
            event("place", seat=seat, action=str(action), message=f"Seat {seat} places {action}.")
        )
        self._queue_scoring([c], events)

    def _queue_scoring(self, cells: list[int], events: list[Event]) -> None:
        self.passes = 0
        self.pending = []
        sh = self.sh_owner
        for c in cells:
            # Just this formation, not the whole board's (which rollouts rarely need here).
            squares = self.formation(c)
            size = len(squares)
            controlled = any(sh[x] >= 0 for x in squares)
            self.pending.append([c, self.top[c], self.sym[c], size, 0 if controlled else 1])
        self.phase = "score"
        self._skip_unscorable(events)

    def _skip_unscorable(self, events: list[Event]) -> None:
        """Troops that can score nothing (no VP allowed, no marker) pass without a decision."""
        while self.pending:
            cell, troop, _sym, _vp, vp_ok = self.pending[0]
            if vp_ok or self._can_honor(self.turn, troop):
                return
            self.pending.pop(0)
            events.append(
                event(
                    "score",
                    seat=self.turn,
                    points=0,
                    message=f"The {NAMES[troop]} on {cell_name(cell)} joins a controlled "
                    "formation and has no honor marker: it scores nothing.",
                )
            )
        self._after_scoring(events)

    def _do_score(self, action: Score, events: list[Event]) -> None:
        seat = self.turn
        cell, troop, sym, vp, _ok = self.pending.pop(0)
        if not action.honor:
            self.score[seat] += vp
            events.append(
                event(
                    "score",
                    seat=seat,
                    kind="vp",
                    points=vp,
                    message=f"Seat {seat} scores {vp} VP for the {NAMES[troop]} formation "
                    f"of {vp} at {cell_name(cell)}.",
                )
            )
        else:
            self._advance_honor(seat, troop, sym, events)
        self._skip_unscorable(events)

    def _advance_honor(self, seat: int, troop: int, points: int, events: list[Event]) -> None:
        end = _C.ending_row[self.num_players]
        row = min(self.honor[seat][troop] + points, end)
        self.honor[seat][troop] = row
        events.append(
            event(
                "score",
                seat=seat,
                kind="honor",
                points=points,
                column=NAMES[troop],
                row=row,
                message=f"Seat {seat} scores {points} honor in the {NAMES[troop]} column "
                f"(now row {row}).",
            )
        )
        if row < end:
            return
        stack = self.banner_stacks[troop]
        if stack:
            kind, value = stack.pop()
            self.banners[seat].append([kind, value, troop])
            self.honor[seat][troop] = REMOVED
            kname = _C.banner_kinds[kind]
            events.append(
                event(
                    "banner",
                    seat=seat,
                    kind=kname,
                    column=NAMES[troop],
                    message=f"Seat {seat} claims a {kname} war banner from the {NAMES[troop]} "
                    "column; that honor marker leaves the track.",
                )
            )
            events.append(
                event(
                    "banner_value",
                    audience=[seat],
                    kind=kname,
                    value=value,
                    message=f"Your {kname} banner is worth {value} VP.",
                )
            )
        elif self.options["empty_banner_stack"] == "remove":
            self.honor[seat][troop] = REMOVED
            events.append(
                event(
                    "banner",
                    seat=seat,
                    kind=None,
                    column=NAMES[troop],
                    message=f"The {NAMES[troop]} banner stack is empty: seat {seat}'s marker "
                    "leaves the track without a banner.",
                )
            )

    def _after_scoring(self, events: list[Event]) -> None:
        seat = self.turn
        if self._stronghold_due(seat):
            if self._stronghold_cells(seat):
                self.phase = "stronghold"
                return
            events.append(
                event(
                    "stronghold_blocked",
                    seat=seat,
                    message=f"Seat {seat} cannot build a stronghold: every formation holds one.",
                )
            )
        self._assess_and_refill(events)

    def _do_build(self, action: BuildStronghold, events: list[Event]) -> None:
        seat = self.turn
        self.strongholds[seat].append(action.cell)
        self.sh_owner[action.cell] = seat
        self.built_at.append([seat, self.turns])
        size = len(self.formation(action.cell))
        events.append(
            event(
                "stronghold",
                seat=seat,
                cell=cell_name(action.cell),
                message=f"Seat {seat} builds a stronghold on the {NAMES[self.top[action.cell]]} "
                f"at {cell_name(action.cell)} (formation of {size}).",
            )
        )
        self._assess_and_refill(events)

    def _assess(self, events: list[Event]) -> None:
        seat = self.turn
        if not self.strongholds[seat]:
            return
        sizes = [len(self.formation(c)) for c in self.strongholds[seat]]
        self.score[seat] += sum(sizes)
        events.append(
            event(
                "assess",
                seat=seat,
                points=sum(sizes),
                message=f"Seat {seat}'s strongholds score {' + '.join(map(str, sizes))} VP.",
            )
        )

    def _assess_and_refill(self, events: list[Event]) -> None:
        self._assess(events)
        if self.placed_large and (self.stack or self.row):
            self.phase = "draw"
            return
        self._end_turn(events)

    def _pop_stack(self, events: list[Event]) -> int | None:
        """The top tile of the draw pile; brings the end-game stack into play when needed."""
        if not self.stack:
            return None
        tile = self.stack.pop()
        if not self.stack and not self.end_stack_in_play:
            self._bring_end_stack(events)
        return tile

    def _bring_end_stack(self, events: list[Event]) -> None:
        self.end_stack_in_play = True
        self.stack = self.end_stack
        self.end_stack = []
        events.append(
            event(
                "end_stack",
                message="The last tile of the main stacks is drawn: the end-game stack comes "
                "into play (cover tile removed).",
            )
        )

    def _trigger_end(self, events: list[Event], how: str) -> None:
        self.end_triggered = True
        events.append(
            event(
                "end_triggered",
                seat=self.turn,
                message=f"The end-of-game tile is {how}: the game ends after seat "
                f"{self.num_players - 1}'s turn.",
            )
        )

    def _do_draw(self, action: Draw, events: list[Event]) -> None:
        seat = self.turn
        if action.tile is None:
            tile = self._pop_stack(events)
            while tile == END_TILE:
                self._trigger_end(events, f"drawn by seat {seat}")
                tile = self._pop_stack(events) if self.options["end_tile_replacement"] else None
            if tile is not None:
                self.hands[seat].append(tile)
                events.append(
                    event(
                        "draw",
                        seat=seat,
                        source="stack",
                        message=f"Seat {seat} draws from the stack.",
                    )
                )
                events.append(
                    event(
                        "drawn",
                        audience=[seat],
                        tile=tile_name(tile),
                        message=f"You draw {tile_name(tile)}.",
                    )
                )
        else:
            self.row.remove(action.tile)
            self.hands[seat].append(action.tile)
            self.known[seat].append(action.tile)
            events.append(
                event(
                    "draw",
                    seat=seat,
                    source="row",
                    tile=tile_name(action.tile),
                    message=f"Seat {seat} takes {tile_name(action.tile)} from the face-up row.",
                )
            )
            self._refill_row(events)
        self._end_turn(events)

    def _refill_row(self, events: list[Event]) -> None:
        while len(self.row) < 3:
            tile = self._pop_stack(events)
            if tile is None:
                return
            if tile == END_TILE:
                self._trigger_end(events, "revealed for the face-up row")
                if not self.options["end_tile_replacement"]:
                    return
                continue
            self.row.append(tile)
            events.append(
                event("reveal", tile=tile_name(tile), message=f"{tile_name(tile)} joins the row.")
            )

    def _end_turn(self, events: list[Event]) -> None:
        while True:
            self.turns += 1
            self.pending = []
            self.placed_large = False
            if self.end_triggered and self.turn == self.num_players - 1:
                self._finish("end_of_game", events)
                return
            if self.passes >= self.num_players:
                self._finish("no_placement", events)
                return
            self.turn = (self.turn + 1) % self.num_players
            if self._start_turn(events):
                return

    def _start_turn(self, events: list[Event]) -> bool:
        """Begin the turn of ``self.turn``; False if it passed (no legal placement)."""
        self.phase = "place"
        self._legal = None
        if self.legal_actions():
            return True
        seat = self.turn
        self.passes += 1
        events.append(
            event("pass", seat=seat, message=f"Seat {seat} cannot place any tile: the turn passes.")
        )
        self._assess(events)
        return False

    def _finish(self, reason: str, events: list[Event]) -> None:
        self.phase = "over"
        self.reason = reason
        self._legal = None
        finals = self.final_scores()
        reveal = {
            str(s): [[_C.banner_kinds[k], v] for k, v, _col in self.banners[s]]
            for s in range(self.num_players)
        }
        events.append(
            event(
                "game_over",
                reason=reason,
                banners=reveal,
                final_scores=finals,
                message="Game over: banners revealed; final scores "
                + ", ".join(f"seat {s} {finals[s]}" for s in range(self.num_players))
                + ".",
            )
        )

    # ------------------------------------------------------------------ copies, JSON, views

    _LIST_FIELDS = (
        "top",
        "sym",
        "level",
        "sh_owner",
        "row",
        "stack",
        "end_stack",
        "removed",
        "placed",
        "score",
    )
    _NESTED_FIELDS = (
        "strongholds",
        "hands",
        "known",
        "reserve",
        "placed_small",
        "honor",
        "pending",
        "built_at",
    )
    _SCALARS = (
        "end_stack_in_play",
        "turn",
        "turns",
        "phase",
        "support_cell",
        "placed_large",
        "end_triggered",
        "passes",
        "decisions",
        "reason",
        "ended",
    )

    def clone(self) -> GunkimonoState:
        new = GunkimonoState.__new__(GunkimonoState)
        new.game = self.game
        new.options = self.options
        new.num_players = self.num_players
        for f in self._LIST_FIELDS:
            setattr(new, f, list(getattr(self, f)))
        for f in self._NESTED_FIELDS:
            setattr(new, f, [list(x) for x in getattr(self, f)])
        for f in self._SCALARS:
            setattr(new, f, getattr(self, f))
        new.banner_stacks = [[list(b) for b in s] for s in self.banner_stacks]
        new.banners = [[list(b) for b in s] for s in self.banners]
        new._legal = self._legal
        new._board = self._board
        return new

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": "gunkimono", "options": dict(self.options)}
        for f in self._LIST_FIELDS + self._NESTED_FIELDS + self._SCALARS:
            value = getattr(self, f)
            data[f] = (
                [list(x) for x in value]
                if f in self._NESTED_FIELDS
                else (list(value) if isinstance(value, list) else value)
            )
        data["banner_stacks"] = [[list(b) for b in s] for s in self.banner_stacks]
        data["banners"] = [[list(b) for b in s] for s in self.banners]
        return data

    @classmethod
    def from_json(cls, game: Gunkimono, data: Mapping[str, Any]) -> GunkimonoState:
        options = game.resolve_options(**dict(data["options"]))
        st = cls(game, options)
        try:
            for f in cls._LIST_FIELDS:
                setattr(st, f, [int(x) for x in data[f]])
            for f in cls._NESTED_FIELDS:
                setattr(st, f, [[int(v) for v in x] for x in data[f]])
            if "ended" not in data and "conceded" in data:  # saved before "ended" existed
                data = dict(data, ended=_legacy_ending(data, st.num_players))
            for f in cls._SCALARS:
                setattr(st, f, data[f])
            if st.ended is not None:
                Outcome.from_json(st.ended)  # checked here, not when first asked for
            st.banner_stacks = [[[int(v) for v in b] for b in s] for s in data["banner_stacks"]]
            st.banners = [[[int(v) for v in b] for b in s] for s in data["banners"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"gunkimono state JSON: missing or bad field: {exc}") from None
        if st.phase not in PHASES:
            raise ValueError(f"gunkimono state JSON: unknown phase {st.phase!r}")
        if len(st.top) != CELLS or len(st.hands) != st.num_players:
            raise ValueError("gunkimono state JSON: board or player count does not match")
        return st

    def view(self, seat: int | None) -> dict[str, Any]:
        n = self.num_players
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat must be None or 0..{n - 1}, got {seat!r}")
        over = self.phase == "over"
        # Names come from tables built once (tile, square, troop letter), not formatted per call.
        tiles, cells, letters, kinds = TILE_NAMES, CELL_NAMES, LETTERS, _BANNER_KINDS
        players = []
        for s in range(n):
            mine = s == seat
            hand = self.hands[s]
            own = self.strongholds[s]
            players.append(
                {
                    "score": self.score[s],
                    "hand": [tiles[t] for t in hand] if mine else None,
                    "hand_size": len(hand),
                    "hand_known": [tiles[t] for t in self.known[s]],
                    "reserve": [letters[t] for t in self.reserve[s]],
                    "honor": [None if r == REMOVED else r for r in self.honor[s]],
                    "strongholds": [cells[c] for c in own],
                    "strongholds_left": 2 - len(own),
                    "banners": [
                        {
                            "kind": kinds[k],
                            "column": NAMES[col],
                            "value": v if (mine or over) else None,
                        }
                        for k, v, col in self.banners[s]
                    ],
                }
            )
        return {
            "game": "gunkimono",
            "seat": seat,
            "players_count": n,
            "options": dict(self.options),
            "current_player": TERMINAL if over else self.turn,
            "phase": self.phase,
            "turn": self.turn,
            "turns": self.turns,
            "decisions": self.decisions,
            "board": {
                "width": WIDTH,
                "height": HEIGHT,
                "troops": list(map(_TOP_NAMES.__getitem__, self.top)),
                "symbols": list(self.sym),
                "levels": list(self.level),
                "strongholds": list(self.sh_owner),
            },
            "row": [tiles[t] for t in self.row],
            "stack_size": len(self.stack),
            "end_stack_size": len(self.end_stack),
            "end_stack_in_play": self.end_stack_in_play,
            "end_triggered": self.end_triggered,
            "removed_count": len(self.removed),
            "placed": list(map(tiles.__getitem__, self.placed)),
            "placed_small": [list(p) for p in self.placed_small],
            "banner_stacks": [[kinds[k] for k, _v in self.banner_stacks[col]] for col in range(5)],
            "ending_row": _C.ending_row[n],
            "stronghold_rows": list(_C.stronghold_rows[n]),
            "pending": [
                {
                    "square": cells[c],
                    "troop": letters[t],
                    "symbols": sym,
                    "vp": vp,
                    "vp_allowed": bool(ok),
                }
                for c, t, sym, vp, ok in self.pending
            ],
            "support_square": cells[self.support_cell] if self.support_cell >= 0 else None,
            "placed_large": self.placed_large,
            "passes": self.passes,
            "built_at": [list(b) for b in self.built_at],
            "players": players,
            "outcome": (o.to_json() if over and (o := self.outcome()) else None),
        }

    def determinize(self, seat: int, rng: random.Random) -> GunkimonoState:
        """Resample what ``seat`` cannot see: other hands (beyond tiles seen taken from the
        row), the stacks and removed tiles, the other players' banner values and the banner
        stacks' values, from the tiles and banners ``seat`` has not seen."""
        n = self.num_players
        new = self.clone()
        # On the seat's own turn its actions read only what it sees (its hand and reserve,
        # the board, pending scores, its markers), which stays as it is: the list is kept.
        # Not in the draw step, which reads the resampled stack.
        if not (self.turn == seat and self.phase in ("place", "support", "score", "stronghold")):
            new._legal = None
        # Large tiles: the full set minus every tile this seat can see or knows the place of.
        pool = Counter(_C.large_tiles)
        seen = Counter(self.placed) + Counter(self.row) + Counter(self.hands[seat])
        for s in range(n):
            if s != seat:
                seen += Counter(self.known[s])
        pool -= seen
        tiles = sorted(pool.elements())
        rng.shuffle(tiles)
        for s in range(n):
            if s == seat:
                continue
            k = len(self.hands[s]) - len(self.known[s])
            new.hands[s] = list(self.known[s]) + tiles[:k]
            new.known[s] = list(self.known[s])
            tiles = tiles[k:]
        end_in_stack = END_TILE in self.stack or END_TILE in self.end_stack
        main = len(self.stack) - (1 if END_TILE in self.stack else 0)
        new.stack = tiles[:main]
        tiles = tiles[main:]
        rest = len(self.end_stack) - (1 if END_TILE in self.end_stack else 0)
        new.end_stack = tiles[:rest]
        tiles = tiles[rest:]
        new.removed = sorted(tiles)
        if end_in_stack:
            target = new.stack if self.end_stack_in_play else new.end_stack
            target.insert(rng.randrange(len(target) + 1), END_TILE)
        # Banners: values of each kind not seen by this seat, dealt to the unseen slots.
        over = self.phase == "over"
        for kind in range(len(_C.banner_kinds)):
            if n < _C.banner_min_players[kind]:
                continue
            values = Counter(_C.banner_values[kind])
            slots: list[list[int]] = []
            for s in range(n):
                for b in new.banners[s]:
                    if b[0] == kind:
                        if s == seat or over:
                            values[b[1]] -= 1
                        else:
                            slots.append(b)
            for col in range(5):
                slots.extend(b for b in new.banner_stacks[col] if b[0] == kind)
            vals = sorted(values.elements())
            rng.shuffle(vals)
            for b, v in zip(slots, vals, strict=True):
                b[1] = v
        return new

    # ------------------------------------------------------------------ text

    def __str__(self) -> str:
        from sengoku.games.gunkimono.render import render

        return render(self, None)


__all__ = ["GunkimonoState", "END_TILE", "REMOVED", "FACE_DOWN", "tile_code", "troop_name"]


def _legacy_ending(data: Mapping[str, Any], n: int) -> dict[str, Any] | None:
    """The ``ended`` field of a state JSON written before core made concessions."""
    if data.get("reason") == "length_limit":
        return Outcome.no_winner(n, "length_limit").to_json()
    if int(data["conceded"]) >= 0:
        return Outcome.loss(int(data["conceded"]), n, str(data["reason"])).to_json()
    return None
