"""Scout Commands or Scout the Shogun (Rikutoh): pay 2 to look at one card of the opponent's
Command Row (or Lightning position), or 5 to ask whether an enemy unit is the Shogun.

Rulebook, "Advanced Card Effects and Clarifications". What a look reveals is the opponent's
(``SCOUTED``: seats see it, spectators do not).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sengoku.games.gunshi.cards as cards
import sengoku.games.gunshi.knowledge as knowledge
import sengoku.games.gunshi.words as words
from sengoku.core.sentence import N_, say
from sengoku.games.gunshi.actions import A
from sengoku.games.gunshi.battlefield import ASK, parse_cell
from sengoku.games.gunshi.commands.command import Command, CommandType, Step, done, offer_modes
from sengoku.games.gunshi.data import LETTERS, SCOUT_COSTS
from sengoku.games.gunshi.shogun_and_card_order import narrow_to, reveal, rule_out
from sengoku.games.gunshi.units import units_of

if TYPE_CHECKING:
    from sengoku.games.gunshi.actions import GunshiAction
    from sengoku.games.gunshi.state import GunshiState


def start(st: GunshiState) -> None:
    p = st.player
    pts = st.logistics.points[p]
    modes = []
    opp_row = st.cards.row[1 - p] or st.cards.lightning[1 - p] is not None
    if pts >= SCOUT_COSTS["commands"] and opp_row:
        modes.append("commands")
    if pts >= SCOUT_COSTS["shogun"] and units_of(st, 1 - p):
        modes.append("shogun")
    offer_modes(st, Command("Scout"), modes, N_("Scout cannot be afforded"))


def choose(st: GunshiState, cmd: Command, mode: str) -> None:
    """Pay for the chosen Scout: ``commands`` (look) or ``shogun`` (ask)."""
    st.pay(st.player, SCOUT_COSTS[mode])
    if mode == "commands":
        cmd.type = CommandType.LOOK
        cmd.step = Step.LOOK
    else:
        cmd.type = CommandType.ASK
        cmd.step = Step.ASK


def legal_look(st: GunshiState, cmd: Command) -> list[GunshiAction]:
    o = 1 - st.player
    out = []
    if st.cards.lightning[o] is not None:
        out.append(A("look", "L"))
    out += [A("look", str(i + 1)) for i in range(len(st.cards.row[o]))]
    return out


def do_look(st: GunshiState, cmd: Command, a: GunshiAction) -> None:
    p = st.player
    o = 1 - p
    card = cards.scout(st, o, a.arg)
    knowledge.consume(st, o, knowledge.bag_of(card), card[0])
    mine, theirs, held = words.colour(p), words.colour(o), words.card(card[0])
    if a.arg == "L":
        seen = say(
            "The Lightning position of {colour}'s Command Row holds {card}.",
            colour=theirs,
            card=held,
        )
        told = say(
            "{colour} scouts the Lightning position of {opponent}'s Command Row.",
            colour=mine,
            opponent=theirs,
        )
    else:
        seen = say(
            "Position {position} of {colour}'s Command Row holds {card}.",
            position=a.arg,
            colour=theirs,
            card=held,
        )
        told = say(
            "{colour} scouts position {position} of {opponent}'s Command Row.",
            colour=mine,
            position=a.arg,
            opponent=theirs,
        )
    st.emit([p], "scout", seen, card=card[0])
    st.emit(None, "scouted", told, seat=p, position=a.arg)
    done(st)


def legal_ask(st: GunshiState, cmd: Command) -> list[GunshiAction]:
    return [ASK[st.field.uloc[u]] for u in units_of(st, 1 - st.player)]


def do_ask(st: GunshiState, cmd: Command, a: GunshiAction) -> None:
    p = st.player
    o = 1 - p
    u = st.field.board[parse_cell(a.arg)]
    yes = st.shoguns.shogun[o] == u
    if yes:
        reveal(st, o)
        narrow_to(st, o, u)
    else:
        rule_out(st, o, u)
    asked = {
        "colour": words.colour(p),
        "opponent": words.colour(o),
        "unit": words.unit_type(u),
        "letter": LETTERS[u],
        "cell": a.arg,
    }
    st.emit(
        None,
        "scout_shogun",
        (
            say(
                "{colour} asks whether {opponent}'s {unit} {letter} on {cell} is the Shogun: Yes.",
                **asked,
            )
            if yes
            else say(
                "{colour} asks whether {opponent}'s {unit} {letter} on {cell} is the Shogun: No.",
                **asked,
            )
        ),
        unit=LETTERS[u],
        answer=yes,
    )
    done(st)
