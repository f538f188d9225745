"""A terminal game for any Sengoku game, through the core contract only.

Each human seat types notation; ``moves`` lists the legal actions, ``save FILE`` writes the
record, ``resign`` concedes, ``help`` explains. Bad input is refused with the reason and the
prompt comes back; nothing is changed by it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from sengoku.ai import Agent, make_agent
from sengoku.core.game import Game, SengokuError, State
from sengoku.core.record import GameRecord

HELP = """Commands:
  <notation>     play an action (e.g. a move in the game's notation)
  moves          list the legal actions
  board          draw the board again
  save FILE      save the game record (JSON) to FILE
  resign         concede the game
  help           this text
  quit           leave without finishing"""


def play_terminal(
    game: Game,
    options: dict[str, Any],
    humans: set[int],
    agent_name: str = "random",
    seed: int = 0,
    read: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
    names: list[str] | None = None,
) -> GameRecord:
    """Play one game in the terminal; returns the record."""
    record, state = GameRecord.start(game, seed, names, **options)
    agents: dict[int, Agent] = {
        seat: make_agent(game.name, agent_name, seed=seed + seat)
        for seat in range(state.num_players)
        if seat not in humans
    }
    # Hot seat with hidden information: the seat at the screen changes only when the next
    # player confirms that only they can see it. Until then nothing private is drawn: boards
    # and events are shown as a spectator sees them (the next player's hand, deck order or
    # Shogun must never be on the screen, nor in its scrollback, before they sit down).
    pass_device = len(humans) > 1 and not game.game_type.perfect_information
    at_screen: int | None = None if pass_device else (min(humans) if humans else None)

    def show(st: State) -> None:
        if pass_device:
            # The seat at the screen sees its own view while it keeps deciding; once another
            # human is to decide, only the public view until that human confirms.
            nxt = st.current_player
            seat = at_screen if nxt == at_screen or nxt in agents else None
        else:
            seat = st.current_player if st.current_player in humans else at_screen
        print(game.render_text(st, seat), file=out)

    show(state)
    while not state.is_terminal():
        seat = state.current_player
        if seat in agents:
            action = agents[seat].choose(state, seat)
            events = record.play(state, action)
            _print_events(events, at_screen, out)
            show(state)
            continue
        if pass_device and seat != at_screen:
            print(_CLEAR if _is_tty(out) else "", end="", file=out)
            print("\n" * 60 + f"Pass the device to seat {seat}, then press Enter.", file=out)
            try:
                read(f"[seat {seat}] press Enter when only you can see the screen> ")
            except EOFError:
                print("\nInput closed; leaving the game unfinished.", file=out)
                return record
            at_screen = seat
            print(game.render_text(state, seat), file=out)
        try:
            line = read(f"[seat {seat}] your move (help for commands)> ").strip()
        except EOFError:
            print("\nInput closed; leaving the game unfinished.", file=out)
            return record
        if not line:
            continue
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in {"help", "?"}:
            print(HELP, file=out)
        elif command in {"moves", "legal"}:
            texts = [game.format_action(state, a) for a in state.legal_actions()]
            print(f"{len(texts)} legal: " + ", ".join(texts), file=out)
        elif command == "board":
            show(state)
        elif command == "save":
            path = rest.strip() or "game.json"
            record.save(path)
            print(f"Saved the record to {path}", file=out)
        elif command == "resign":
            record.concede(state, seat, "resignation")
        elif command in {"quit", "exit"}:
            print("Leaving the game unfinished.", file=out)
            return record
        else:
            try:
                action = game.parse_action(state, line)
                events = record.play(state, action)
            except SengokuError as exc:
                print(f"Not played: {exc}", file=out)
                continue
            _print_events(events, seat, out)
            show(state)
    result = state.outcome()
    if result is not None:
        winners = ", ".join(f"seat {w}" for w in result.winners) or "nobody"
        print(
            f"Game over ({result.reason}): winner {winners}; scores {list(result.scores)}", file=out
        )
    return record


#: ANSI: clear the screen and the terminal's scrollback, cursor home (xterm, VTE, Windows
#: Terminal); written only to a real terminal, before each pass screen.
_CLEAR = "\x1b[3J\x1b[2J\x1b[H"


def _is_tty(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError):
        return False


def _print_events(events: list[dict[str, Any]], seat: int | None, out: TextIO) -> None:
    for ev in events:
        audience = ev.get("audience")
        if audience is not None and seat not in audience:
            continue
        if ev.get("message"):
            print(f"  {ev['message']}", file=out)
