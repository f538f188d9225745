"""A terminal drawing of a Gunkimono position, showing only what one seat may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sengoku.games.gunkimono.actions import CELLS, LETTERS, WIDTH, cell_name, tile_name
from sengoku.games.gunkimono.battlefield import FACE_DOWN, HEIGHT
from sengoku.games.gunkimono.data import components
from sengoku.games.gunkimono.formations import formations
from sengoku.games.gunkimono.honor_track import REMOVED
from sengoku.games.gunkimono.turn_sequence import Phase

if TYPE_CHECKING:
    from sengoku.games.gunkimono.state import GunkimonoState

_C = components()


def render(state: GunkimonoState, seat: int | None) -> str:
    lines: list[str] = []
    lines += _battlefield(state)
    lines += _formations(state)
    lines += _honor_track(state)
    lines += _tiles(state)
    for s in range(state.num_players):
        lines.append(_player(state, s, seat))
    prompt = _prompt(state)
    if prompt is not None:
        lines.append(prompt)
    return "\n".join(lines)


def _battlefield(state: GunkimonoState) -> list[str]:
    lines = [
        "Battlefield: troop letter:level (lower case = printed on the board, level 0), "
        "*N = stronghold of seat N (in notation A1 is a tile's archer with 1 symbol)",
        "     " + "".join(f"{chr(ord('a') + x):<6}" for x in range(WIDTH)),
    ]
    for y in range(HEIGHT):
        cells = []
        for x in range(WIDTH):
            c = y * WIDTH + x
            t = state.battlefield.top[c]
            letter = "?" if t == FACE_DOWN else LETTERS[t]
            if state.battlefield.level[c] == 0:
                letter = letter.lower()
            mark = f"*{state.fortresses.sh_owner[c]}" if state.fortresses.sh_owner[c] >= 0 else ""
            # "S:1" is a samurai on level 1; "S1" would read as notation's one symbol.
            cells.append(f"{letter}:{state.battlefield.level[c]}{mark:<3}")
        lines.append(f"{y + 1:>3}  " + "".join(cells).rstrip())
    return lines


def _formations(state: GunkimonoState) -> list[str]:
    """Formations under control, and the largest free formation of each troop type."""
    lines = []
    board = formations(state)
    comp, held = board.comp, board.held
    sizes: dict[int, int] = {}
    for c in range(CELLS):
        sizes[comp[c]] = sizes.get(comp[c], 0) + 1
    if held:
        lines.append("Controlled formations:")
        for root, squares in sorted(held.items()):
            owner = state.fortresses.sh_owner[squares[0]]
            name = _C.troop_names[state.battlefield.top[root]]
            lines.append(
                f"  seat {owner}: {name} x{sizes[root]} "
                f"(stronghold on {', '.join(cell_name(s) for s in squares)})"
            )
    best = []
    for t in range(5):
        roots = [r for r in sizes if state.battlefield.top[r] == t and r not in held]
        if roots:
            r = max(roots, key=lambda r: (sizes[r], -r))
            best.append(f"{_C.troop_names[t]} x{sizes[r]} at {cell_name(r)}")
    lines.append("Largest free formations: " + "; ".join(best))
    return lines


def _honor_track(state: GunkimonoState) -> list[str]:
    """The honor track, top row first."""
    n = state.num_players
    end = _C.ending_row[n]
    first, second = _C.stronghold_rows[n]
    lines = [
        "",
        "Honor track (seats' markers per troop column):",
        "  row  " + "".join(f"{name:<10}" for name in _C.troop_names),
    ]
    for row in range(end, -1, -1):
        cols = []
        for col in range(5):
            if row == end:
                stack = state.war_banners.banner_stacks[col]
                text = "".join(_C.banner_kinds[k][0].upper() for k, _v in reversed(stack)) or "-"
                text = f"[{text}]"
            else:
                text = (
                    "".join(str(s) for s in range(n) if state.honor_track.honor[s][col] == row)
                    or "."
                )
            cols.append(f"{text:<10}")
        note = ""
        if row == end:
            note = " <- banners (D dragon, C crane, L lotus; top first)"
        elif row in (first, second):
            note = f" <- stronghold row ({'first' if row == first else 'second'})"
        lines.append(f"  {row:>3}  " + "".join(cols).rstrip() + note)
    return lines


def _tiles(state: GunkimonoState) -> list[str]:
    stack_text = f"stack {len(state.supply.stack)}"
    if not state.ending.end_stack_in_play:
        stack_text += f", end-game stack {len(state.ending.end_stack)} (covered)"
    else:
        stack_text += " (end-game stack in play)"
    if state.ending.end_triggered:
        stack_text += "; END TRIGGERED: the round finishes"
    return [
        "",
        f"Face-up row: {' '.join(tile_name(t) for t in state.supply.row) or '-'};  {stack_text}",
    ]


def _player(state: GunkimonoState, s: int, seat: int | None) -> str:
    """Seat ``s``'s line, as ``seat`` may see it (a hand and banner values are secret)."""
    n = state.num_players
    over = state.sequence.phase is Phase.OVER
    star = ">" if s == state.sequence.turn and not over else " "
    score = state.victory_points.score[s]
    flipped = " (daimyo tile at 100)" if score >= 100 else ""
    parts = [f"{star}seat {s}: {score} VP{flipped}"]
    if s == seat:
        parts.append("hand " + (" ".join(tile_name(t) for t in state.supply.hands[s]) or "-"))
    else:
        known = " ".join(tile_name(t) for t in state.supply.known[s])
        parts.append(
            f"hand {len(state.supply.hands[s])} tiles" + (f" (seen: {known})" if known else "")
        )
    parts.append("reserve " + ("".join(LETTERS[t] for t in state.supply.reserve[s]) or "-"))
    honor = " ".join(
        f"{LETTERS[c]}{'-' if r == REMOVED else r}"
        for c, r in enumerate(state.honor_track.honor[s])
    )
    parts.append(f"honor {honor}")
    built = len(state.fortresses.strongholds[s])
    if built < 2:
        parts.append(f"next stronghold at row {_C.stronghold_rows[n][built]}")
    else:
        parts.append("both strongholds built")
    banners = []
    for k, v, _col in state.war_banners.banners[s]:
        kind = _C.banner_kinds[k]
        banners.append(f"{kind} {v}" if (s == seat or over) else kind)
    if banners:
        parts.append("banners: " + ", ".join(banners))
    return " | ".join(parts)


def _prompt(state: GunkimonoState) -> str | None:
    """The result once over, else what the seat to act decides."""
    if state.sequence.phase is Phase.OVER:
        outcome = state.outcome()
        if outcome is None:
            return None
        return (
            f"Game over ({outcome.reason}): final scores {[int(x) for x in outcome.scores]}, "
            f"winner(s) {list(outcome.winners)}"
        )
    what = {
        Phase.PLACE: "place a tile (large from the hand, or small from the reserve)",
        Phase.SUPPORT: "place a large tile over the support on "
        + cell_name(state.sequence.support_cell),
        Phase.SCORE: "",
        Phase.STRONGHOLD: "choose the square of the new stronghold",
        Phase.DRAW: "draw a tile: 'stack' or a tile of the face-up row",
    }[state.sequence.phase]
    if state.sequence.phase is Phase.SCORE:
        cell, troop, sym, vp, ok = state.scoring.pending[0]
        vp_text = f"{vp} VP" if ok else "no VP (controlled formation)"
        what = (
            f"score the {_C.troop_names[troop]} on {cell_name(cell)}: vp ({vp_text}) or "
            f"honor ({sym})"
        )
    return f"Seat {state.sequence.turn} to act: {what}"
