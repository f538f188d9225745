"""The Sashimono position and its turn: one duel, or one solo game against the Kagemusha.

The game advances as a small machine: ``tasks`` is a
:class:`~sengoku.core.decisions.DecisionStack` of :class:`~.decisions.Task` steps still to
do (the turn flow and the operations of card effects); a step either happens at once (an
event) or asks one seat one question (``prompt``, a :class:`~.decisions.Prompt`). Every
question is one decision: the turn type, a card, a space, an action, a flip target, one
ante, a casualty... The Kagemusha is no seat: its questions are answered inside ``apply``
by the rulebook's prescriptions (see :mod:`.kagemusha`).

This module keeps the position, the contract and the machine; the rules are in modules
named as the rulebook names them, and the three tables below say which runs what:
``STEPS`` (a step -> its rule), ``ANSWERS`` (a question -> the rule that applies its
answer) and ``OPERATIONS`` (an operation of the card language -> its rule). In the rule
modules, ``step_*`` runs a step, ``answer_*`` applies an answer (the question, then the
chosen option's kind and argument) and ``op_*`` performs an operation.

``apply`` is the template of ``FLOW`` (:mod:`sengoku.core.flow`), whose phase is the question
asked now and whose ``do`` applies the answer with the question's rule from ``ANSWERS``,
then runs the machine to the next question.

The position is composed of typed parts, each owned by the rule module that writes it: the
look at a deck's top (``look``, :class:`.effects.Look`), the turn order (``turn_order``,
:class:`.turn.TurnOrder`) and what bowing last held for (``bow_memo``,
:class:`.bowing.BowingMemo`); ``clone`` and ``to_json`` copy and save them one by one. They
are classes of their own, not parts of :mod:`sengoku.core.substate`: the engine is
compiled with mypyc, whose classes cannot subclass the core's Python ones.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING, Any, Final

import sengoku.games.sashimono.action_turn as action_turn
import sengoku.games.sashimono.battle as battle
import sengoku.games.sashimono.bowing as bowing
import sengoku.games.sashimono.determinize as determinize
import sengoku.games.sashimono.effects as effects
import sengoku.games.sashimono.hidden_information as hidden_information
import sengoku.games.sashimono.kagemusha as kagemusha
import sengoku.games.sashimono.score_turn as score_turn
import sengoku.games.sashimono.setup as setup
import sengoku.games.sashimono.sonae as sonae
import sengoku.games.sashimono.training as training
import sengoku.games.sashimono.turn as turn
from sengoku.core.decisions import DecisionStack, check_table
from sengoku.core.flow import Flow, Phase
from sengoku.core.game import TERMINAL, Event, Outcome, State
from sengoku.core.sentence import Sentence, Word, said, say, told
from sengoku.games.sashimono.bowing import BowingMemo
from sengoku.games.sashimono.cards import OPS, Card, CardSet, Query
from sengoku.games.sashimono.decisions import (
    K_BONUS,
    K_DO,
    K_DONE,
    K_ENEMY,
    K_HAND,
    K_LINE,
    K_LOOK,
    K_OPTION,
    K_OWN,
    K_PERM,
    K_PLACE,
    K_PLAY,
    K_PSLOT,
    K_SHAND,
    K_SLOT,
    K_TURN,
    KIND_OFFSET,
    KIND_SIZE,
    NUM_ACTIONS,
    Act,
    Battle,
    Choice,
    Played,
    Prompt,
    Question,
    Spec,
    Step,
    Task,
    dcopy,
)
from sengoku.games.sashimono.effects import Look
from sengoku.games.sashimono.pieces import (
    CELLS,
    CORNERS,
    EDGES,
    EVERYONE,
    KAGE,
    KAGEMUSHA,
    LINE_NAMES,
    LINES,
    PERMS,
    SLOT_LINE,
    SLOT_POS,
    SLOT_SHORT,
    SLOTS,
    SPECTATOR_BIT,
    Side,
    attack_of,
    capitalised,
    defence_of,
    describe_stack,
    flipped,
    is_up,
    rank,
    seat_bit,
    types_of,
)
from sengoku.games.sashimono.score_turn import BONUS, BONUS_EFFECT
from sengoku.games.sashimono.setup import setup_bows
from sengoku.games.sashimono.turn import TurnOrder

if TYPE_CHECKING:
    from sengoku.games.sashimono.game import Sashimono

__all__ = [
    "BONUS", "BONUS_EFFECT", "CELLS", "CORNERS", "EDGES", "EVERYONE", "KAGE", "K_BONUS",
    "K_DO", "K_DONE", "K_ENEMY", "K_HAND", "K_LINE", "K_LOOK", "K_OPTION", "K_OWN", "K_PERM",
    "K_PLACE", "K_PLAY", "K_PSLOT", "K_SHAND", "K_SLOT", "K_TURN", "KIND_OFFSET", "KIND_SIZE",
    "LINE_NAMES", "LINES", "NUM_ACTIONS", "PERMS", "SLOTS", "SLOT_LINE", "SLOT_POS",
    "SLOT_SHORT", "SPECTATOR_BIT", "Act", "SashimonoState", "Side", "attack_of", "defence_of",
    "describe_stack", "flipped", "is_up", "rank", "seat_bit", "setup_bows", "types_of",
]  # fmt: skip

StepRule = Callable[["SashimonoState", Task], None]
AnswerRule = Callable[["SashimonoState", Prompt, int, int], None]
OperationRule = Callable[["SashimonoState", Task, Spec], None]


#: The option (a ``Choice``) and legal action (an ``Act``) of each option met lately: both are
#: immutable, an ``Act`` checks its fields when made (a Python class: microseconds), and the
#: same options come up again and again (a few thousand in all: "kumi h1", "play W07", "to
#: b2 up"...). Kept by option, not by question: a question's list of options recurs far less
#: often than each of its options.
#: Found by the action's (kind, arg) as one integer, then by its texts: an option's texts are
#: new strings each time (f-strings), whose hash a look-up by the whole option would compute.
_OPTIONS: dict[int, list[tuple[Choice, Act]]] = {}
#: The most texts kept for one (kind, arg) (a card set has a few for each).
_TEXTS_KEPT = 64


def _option(option: tuple[int, int, str, str]) -> tuple[Choice, Act]:
    """The option's ``Choice`` and ``Act``, made once."""
    kind = option[0]
    arg = option[1]
    text = option[2]
    short = option[3]
    key = (kind << 8) + arg
    made = _OPTIONS.get(key)
    if made is None:
        made = _OPTIONS[key] = []
    for pair in made:
        choice = pair[0]
        if choice[2] == text and choice[3] == short and choice[0] == kind and choice[1] == arg:
            return pair
    if len(made) >= _TEXTS_KEPT:
        made.clear()
    # ``tuple.__new__``: a Choice made in C, not through the named tuple's Python ``__new__``.
    pair = (tuple.__new__(Choice, option), Act(kind, arg, text, short))
    made.append(pair)
    return pair


#: The questions asked lately, made once: a ``Prompt`` is immutable and a Python class (a
#: microsecond to make from compiled code), and the same questions come up again and again
#: ("action or score?", "which Kumi?"). Only those whose data are numbers (a question that
#: remembers its operation, a ``Task``, is made each time).
_PROMPTS: dict[tuple[Any, ...], Prompt] = {}
_PROMPTS_KEPT = 4096


def _prompt(
    seat: int, question: Question, rule: str, options: tuple[Choice, ...], data: dict[str, Any]
) -> Prompt:
    """``Prompt(seat, question, rule, options, **data)``, made once where it can be."""
    key: tuple[Any, ...]
    if data:
        for value in data.values():
            if type(value) is not int and value is not None:
                return Prompt(seat, question, rule, options, **data)
        key = (seat, question, rule, options, tuple(data.items()))
    else:
        # Most questions remember nothing: their key has no data part (a key one shorter,
        # so never equal to one with data).
        key = (seat, question, rule, options)
    prompt = _PROMPTS.get(key)
    if prompt is None:
        if len(_PROMPTS) >= _PROMPTS_KEPT:
            _PROMPTS.clear()
        prompt = _PROMPTS[key] = Prompt(seat, question, rule, options, **data)
    return prompt


def _in_order(opts: list[tuple[int, int, str, str]]) -> bool:
    """Whether the options are in integer order already (most questions list them so)."""
    for i in range(1, len(opts)):
        a = opts[i - 1]
        b = opts[i]
        if a[0] > b[0] or (a[0] == b[0] and a[1] > b[1]):
            return False
    return True


#: A question's options in integer order: (kind, arg), as ``KIND_OFFSET[kind] + arg`` is
#: (each arg is below its kind's size), and stable for equal ones as that key was.
_IN_ORDER = itemgetter(0, 1)
#: The spaces of the Kagemusha's Kumi line of each length, made once (bowing reads them
#: after every step of a solo game).
_KUMI_LINES: Final = tuple(tuple(range(n)) for n in range(64))
#: The words naming a side in the messages, made once (every event names one).
_KAGE_NAME = Word(KAGEMUSHA)
_ARMY_NAMES: dict[str, Word] = {}


class SashimonoState(State[Act]):
    """A Sashimono position (duel: seats 0 West, 1 East; solo: seat 0 and the Kagemusha)."""

    game: Sashimono

    def __init__(self, game: Sashimono, options: dict[str, Any], cs: CardSet) -> None:
        self.game = game
        self.options = options
        self.cs = cs
        self.solo = options["mode"] == "solo"
        self.num_players = 1 if self.solo else 2
        self.target = int(options["vp"])
        self.sides: list[Side] = []
        self._tasks: DecisionStack[Task] = DecisionStack()
        self.prompt: Prompt | None = None
        self.ctx: Played = {}
        self.battle: Battle | None = None
        self.look = Look()
        self.turn_order = TurnOrder()
        self.decisions = 0
        self.result: Outcome | None = None
        self._legal: list[Act] | None = None
        #: the question ``_legal`` lists the actions of (a position set up by hand may
        #: replace the question without a word: its list is then made again)
        self._legal_of: Prompt | None = None
        self._events: list[Event] = []
        # ``mute``: a search's state builds no events (a clone tells again).
        self._muted = False
        self.bow_memo = BowingMemo()

    @property
    def tasks(self) -> DecisionStack[Task]:
        """The steps still to do (``pop`` gives the next)."""
        return self._tasks

    @tasks.setter
    def tasks(self, steps: Iterable[Task | Mapping[str, Any]]) -> None:
        """Replace the steps, bottom first: ``Task`` records or their saved form
        (``{"t": "turn", "seat": 0}``), as tests that set up a position write them."""
        self._tasks = DecisionStack(t if isinstance(t, Task) else Task.from_json(t) for t in steps)

    def setup(self, seed: int) -> list[Event]:
        """Deal the game (the rulebook's Setup: :mod:`.setup`) and run to the first question."""
        setup.setup(self, seed)
        return self._run()

    # ------------------------------------------------------------------ contract

    @property
    def current_player(self) -> int:
        if self.result is not None or self.prompt is None:
            return TERMINAL
        return self.prompt.seat

    def is_terminal(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        return self.result

    def legal_actions(self) -> list[Act]:
        """The legal actions (each an :class:`~.decisions.Act`), in integer order."""
        return self.legal_acts()

    def legal_acts(self) -> list[Act]:
        """:meth:`legal_actions`, typed as what they are."""
        if self.result is not None or self.prompt is None:
            return []
        prompt = self.prompt
        acts = self._legal
        if acts is None or self._legal_of is not prompt:
            acts = [_option(o)[1] for o in prompt.options]
            self._legal = acts  # never changed in place (clones share it too)
            self._legal_of = prompt
        return list(acts)

    def why_illegal(self, action: object) -> str | None:
        """None if ``action`` is legal here, else the rule of the decision asked for now."""
        return self._choose(action)[1]

    def _choose(self, action: object) -> tuple[Choice | None, str | None]:
        """The prompt's option ``action`` chooses, or None and why it chooses none."""
        if self.result is not None:
            return None, said(say("the game is over; no action is legal"))
        prompt = self.prompt
        assert prompt is not None
        if not isinstance(action, Act):
            return None, said(
                say("{action} is not a Sashimono action (parse it first)", action=repr(action))
            )
        acts = self._legal
        if acts is not None and self._legal_of is prompt:
            # The legal action itself (a caller plays what legal_actions gave): its option
            # without reading the action's fields, unless an earlier option has its (kind,
            # arg) too (then that one is chosen, below, as ever).
            options = prompt.options
            for i in range(len(acts)):
                if acts[i] is action:
                    opt = options[i]
                    first = True
                    for j in range(i):
                        if options[j][0] == opt[0] and options[j][1] == opt[1]:
                            first = False
                            break
                    if first:
                        return opt, None
                    break
        chosen = None
        kind = action.kind
        arg = action.arg
        for opt in prompt.options:
            if opt[0] == kind and opt[1] == arg:
                chosen = opt
                break
        if chosen is None:
            legal = ", ".join(o.text for o in prompt.options[:12])
            # the rule is a phrase the catalog translates where it is written (N_), else English
            return None, said(
                say(
                    "{action} is not legal now ({rule}); legal: {legal}",
                    action=str(action),
                    rule=Word(prompt.rule),
                    legal=legal,
                )
            )
        # The action must be the legal one exactly: a record stores its notation, and an
        # action whose text names another decision than its number would be misrecorded.
        if action.text != chosen.text or (action.short and action.short != chosen.short):
            field, given, legal_value = (
                ("text", action.text, chosen.text)
                if action.text != chosen.text
                else ("short", action.short, chosen.short)
            )
            return None, said(
                say(
                    "action number {number} is {legal_text}, but the action's {field} is "
                    "{given}, not {legal_value}: play the legal action as listed, or parse its "
                    "notation",
                    number=int(action),
                    legal_text=repr(chosen.text),
                    field=field,
                    given=repr(given),
                    legal_value=repr(legal_value),
                )
            )
        return chosen, None

    def apply(self, action: object) -> list[Event]:
        """Answer the question asked now through the flow's template (core/flow.py): its
        phase is the question (``FLOW``), which applies the answer and runs the machine to
        the next question. ``action`` is typed ``object``: compiled (mypyc), a parameter
        typed ``Act`` would refuse anything else with a TypeError before the flow refuses it
        with the rule (an ``IllegalAction``), as the contract asks."""
        given: Any = action  # passed on unchecked: the flow checks it
        return FLOW.apply(self, given)

    def _end_game(self, result: Outcome) -> None:
        self.finish(result)

    def _end_if_too_long(self, decisions: int) -> list[Event]:
        # The flow asks after every decision: short of the game's fixed limit, answered here,
        # compiled, without a call of the contract's Python method.
        limit = self.game.length_limit
        if limit is not None and decisions < limit:
            return []
        return State._end_if_too_long(self, decisions)

    def interim_scores(self) -> tuple[float, ...]:
        """The VP of each seat."""
        return tuple(float(self.sides[s].vp) for s in range(self.num_players))

    def finish(self, result: Outcome) -> None:
        """End the game with ``result``."""
        self.result = result
        self.prompt = None
        self._legal = None
        self._tasks = DecisionStack()

    def clone(self) -> SashimonoState:
        # Through the constructor: a class compiled by mypyc has no ``__new__`` that skips
        # ``__init__``.
        c = SashimonoState(self.game, self.options, self.cs)
        c.sides = [s.copy() for s in self.sides]
        c._tasks = self._tasks.copy()  # steps and prompts are immutable: shared
        c.prompt = self.prompt
        c.ctx = dcopy(self.ctx)
        c.battle = dcopy(self.battle)
        c.look = self.look.clone()
        c.turn_order = self.turn_order.clone()
        c.bow_memo = self.bow_memo.clone()
        c.decisions = self.decisions
        c.result = self.result
        c._legal = self._legal
        c._legal_of = self._legal_of
        c._events = []
        return c

    # ``copy.copy`` and ``copy.deepcopy`` make a clone (the game and its cards shared): a class
    # compiled by mypyc has no way to make an empty instance for the copy module to fill.
    def __copy__(self) -> SashimonoState:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> SashimonoState:
        return self.clone()

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "sashimono",
            "options": dict(self.options),
            "sides": [s.to_json() for s in self.sides],
            "tasks": [t.to_json() for t in self._tasks],
            "prompt": self.prompt.to_json() if self.prompt is not None else None,
            "ctx": dcopy(self.ctx),
            "battle": dcopy(self.battle),
            **self.look.to_json(),
            **self.turn_order.to_json(),
            "decisions": self.decisions,
            "result": self.result.to_json() if self.result else None,
        }

    @classmethod
    def from_json(cls, game: Sashimono, data: dict[str, Any], cs: CardSet) -> SashimonoState:
        st = cls(game, dict(data["options"]), cs)
        st.sides = [Side.from_json(s) for s in data["sides"]]
        # A DecisionStack, not the saved list: compiled, the property takes its getter's type.
        st.tasks = DecisionStack(Task.from_json(t) for t in data["tasks"])
        st.prompt = Prompt.from_json(data["prompt"]) if data["prompt"] else None
        st.ctx = dcopy(data["ctx"])
        st.battle = dcopy(data["battle"])
        st.look = Look.from_json(data)
        st.turn_order = TurnOrder.from_json(data)
        st.decisions = int(data["decisions"])
        st.result = Outcome.from_json(data["result"]) if data["result"] else None
        return st

    # ------------------------------------------------------------------ helpers

    def enemy(self, side: int) -> int:
        if self.solo:
            return KAGE if side == 0 else 0
        return 1 - side

    def card(self, idx: int) -> Card:
        return self.cs.cards[idx]

    def emit(
        self, type_: str, message: Sentence, audience: list[int] | None = None, **kw: Any
    ) -> None:
        """Report an event to ``audience`` (seats; ``None``: everyone): ``message`` is a
        sentence a reader's language translates (sengoku/core/sentence.py)."""
        if self._muted:
            return
        if audience is not None:
            audience = [s for s in audience if s < self.num_players]
        # A sentence: "the Kagemusha attacks..." opens with a capital like any other.
        message = capitalised(message)
        # The dict ``event`` (sengoku/core/events.py) makes, with its keys in its order, built
        # here in one go: through ``event(..., **kw)`` the details were copied twice more.
        # ``ply``: the decisions played when it happened (public: the move list groups a
        # turn's sentences and browses back to that position).
        # Its English and its wire form in one pass over the values (sengoku.core.sentence.told), the
        # template parsed once: the same text and dict as ``str`` and ``wire``.
        text, wired = told(message)
        event: Event = {
            "type": type_,
            "audience": audience,
            "message": text,
            "ply": self.decisions,
        }
        if kw:
            event.update(kw)
        event["say"] = wired
        self._events.append(event)

    def mute(self) -> None:
        """``apply`` returns no events from now on (a search's state); the rules are the same."""
        self._muted = True

    def name_of(self, side: int) -> Word:
        """A side as the messages name it (a word the reader's language names)."""
        if side == KAGE:
            return _KAGE_NAME
        army = self.sides[side].army
        name = _ARMY_NAMES.get(army)
        if name is None:
            name = _ARMY_NAMES[army] = Word(army.capitalize())
        return name

    def kumi_words(self, side: int, idx: int) -> Sentence:
        """A space of a Sonae (or of the Kagemusha's line) in words: "West's Kumi at b2"."""
        if side == KAGE:
            return say("the Kagemusha's Kumi number {number}", number=idx + 1)
        return say("{side}'s Kumi at {cell}", side=self.name_of(side), cell=CELLS[idx])

    def cell_name(self, side: int, idx: int) -> str:
        return f"k{idx + 1}" if side == KAGE else CELLS[idx]

    def line_cells(self, side: int, lid: int) -> tuple[int, ...]:
        if side == KAGE:
            n = len(self.sides[KAGE].cells)
            return _KUMI_LINES[n] if n < len(_KUMI_LINES) else tuple(range(n))
        return LINES[lid]

    def lines_of(self, side: int) -> tuple[int, ...]:
        return (6,) if side == KAGE else (0, 1, 2, 3, 4, 5)

    # the rules other modules ask of a position (cards' conditions, features, tests)

    def reqs_ok(self, side: int, lid: int, requires: tuple[str, ...], flip: int = -1) -> bool:
        return action_turn.reqs_ok(self, side, lid, requires, flip)

    def action_ready(self, side: int, lid: int, requires: tuple[str, ...]) -> list[int] | bool:
        """True if performable now; with a Gunbai icon, the cells whose flip makes it so."""
        return action_turn.action_ready(self, side, lid, requires)

    def measure(self, query: Query, side: int, other: int) -> int:
        """The value of one counting function of the condition language for ``side``."""
        return bowing.measure(self, query, side, other)

    def battle_power(self) -> tuple[int, int]:
        """(attack, defence) of the battle under way."""
        return battle.battle_power(self)

    def nearest_line(self, axis: str) -> int:
        """The player's row or column nearest the Kagemusha's Army."""
        return kagemusha.nearest_line(self, axis)

    def _rebow(self) -> None:
        bowing.rebow(self)

    def _flip(self, actor: int, side: int, idx: int) -> None:
        sonae.flip(self, actor, side, idx)

    # ------------------------------------------------------------------ the machine

    def forget_legal(self) -> None:
        """Drop the legal list made for the question asked (determinization changes it)."""
        self._legal = None

    def drop_events(self) -> None:
        """Drop the events reported since the last action (a determinized copy replays
        steps whose events no seat is to see)."""
        self._events = []

    def _run(self) -> list[Event]:
        events = self._events
        # Bowing holds after every change of state (spec), the answer just applied included:
        # an answer that asks again at once (the first Kumi kept of a look) runs no task.
        bowing.rebow(self)
        while self.result is None:
            if self.prompt is not None:
                if self.prompt.seat != KAGE:
                    break
                kagemusha.answer(self)
                bowing.rebow(self)
                continue
            if not self._tasks:
                break
            task = self._tasks.pop()
            STEPS[task.kind](self, task)
            bowing.rebow(self)
        self._events = []
        return events

    def push(self, *tasks: Task) -> None:
        """Schedule ``tasks`` to run in the order given, before what was already waiting."""
        self._tasks.push(*tasks)

    def ask(self, seat: int, question: Question, rule: str,
            opts: list[tuple[int, int, str, str]], **data: Any) -> None:  # fmt: skip
        """Ask ``seat`` one question; ``data``: what its answer needs (see Prompt)."""
        options = opts if _in_order(opts) else sorted(opts, key=_IN_ORDER)
        choices: list[Choice] = []
        acts: list[Act] = []
        for o in options:
            choice, act = _option(o)
            choices.append(choice)
            acts.append(act)
        prompt = self.prompt = _prompt(seat, question, rule, tuple(choices), data)
        # The legal actions made with the question (most questions are a seat's, not the
        # Kagemusha's): one look-up an option.
        self._legal = acts
        self._legal_of = prompt

    def answer(self, choice: Choice) -> None:
        """Answer the pending question with ``choice``, one of its options: the question is
        taken off the position, then its rule from ``ANSWERS`` applies the answer."""
        prompt = self._take_question()
        ANSWERS[prompt.kind](self, prompt, choice.kind, choice.arg)

    def _take_question(self) -> Prompt:
        """The pending question, taken off the position (its answer is being applied)."""
        prompt = self.prompt
        assert prompt is not None
        self.prompt = None
        self._legal = None
        return prompt

    # ------------------------------------------------------------------ what a seat knows

    def view(self, seat: int | None) -> dict[str, Any]:
        return hidden_information.view(self, seat)

    def determinize(self, seat: int, rng: random.Random) -> SashimonoState:
        return determinize.determinize(self, seat, rng)

    def __str__(self) -> str:
        return self.game.render_text(self, None)


def _operation(state: SashimonoState, task: Task) -> None:
    """An operation of the card language: its rule from ``OPERATIONS``."""
    OPERATIONS[task.spec["op"]](state, task, task.spec)


#: Each step of the turn machine, and the rule that runs it.
STEPS: dict[Step, StepRule] = {
    Step.SETUP_LOOK: setup.step_setup_look,
    Step.TURN: turn.step_turn,
    Step.ACTIONS: action_turn.step_actions,
    Step.SCORE: score_turn.step_score,
    Step.RETURN_SAS: score_turn.step_return_sas,
    Step.BONUS: score_turn.step_bonus,
    Step.DRAW_KUMI: turn.step_draw_kumi,
    Step.PLACE: turn.step_place,
    Step.END_TURN: turn.step_end_turn,
    Step.OP: _operation,
    Step.ANTE: battle.step_ante,
    Step.RESOLVE: battle.step_resolve,
    Step.BATTLE_END: battle.step_battle_end,
    Step.KAGE_BLOCK: kagemusha.step_block,
    Step.KAGE_BATTLE: kagemusha.step_battle,
    Step.KAGE_PLACE: kagemusha.step_place,
    Step.KAGE_DRAW: kagemusha.step_draw,
    Step.KAGE_MOVE: kagemusha.step_move,
}
#: Each question, and the rule that applies its answer.
ANSWERS: dict[Question, AnswerRule] = {
    Question.LOOK_BOTTOM: setup.answer_look_bottom,
    Question.TURN: turn.answer_turn,
    Question.PLAY: action_turn.answer_play,
    Question.SLOT: action_turn.answer_slot,
    Question.DO: action_turn.answer_do,
    Question.GUNBAI: action_turn.answer_gunbai,
    Question.RETURN_SAS: score_turn.answer_return_sas,
    Question.BONUS: score_turn.answer_bonus,
    Question.PLACE: turn.answer_place,
    Question.PLACE_AT: turn.answer_place_at,
    Question.FLIP: effects.answer_flip,
    Question.KEEP: effects.answer_keep,
    Question.BATTLE: battle.answer_battle,
    Question.ANTE: battle.answer_ante,
    Question.CASUALTY: battle.answer_casualty,
    Question.TRAIN: training.answer_train,
    Question.TRAIN_WITH: training.answer_train_with,
    Question.REARRANGE: effects.answer_rearrange,
    Question.PERM: effects.answer_perm,
    Question.SWAP: effects.answer_swap,
    Question.SWAP_WITH: effects.answer_swap_with,
    Question.RETURN_KUMI: effects.answer_return_kumi,
    Question.DISCARD: effects.answer_discard,
    Question.BURY: effects.answer_bury,
    Question.PEEK: effects.answer_peek,
    Question.CHOOSE: effects.answer_choose,
}
#: Each operation of the card language (``op`` in the card files), and its rule.
OPERATIONS: dict[str, OperationRule] = {
    "flip": effects.op_flip,
    "draw": effects.op_draw,
    "look": effects.op_look,
    "battle": battle.op_battle,
    "train": training.op_train,
    "rearrange": effects.op_rearrange,
    "swap": effects.op_swap,
    "return": effects.op_return,
    "discard": effects.op_discard,
    "play_kumi": effects.op_play_kumi,
    "bury": effects.op_bury,
    "peek": effects.op_peek,
    "choose": effects.op_choose,
}
check_table(STEPS, Step, "steps")
check_table(ANSWERS, Question, "questions")


def _answering(rule: AnswerRule) -> Callable[[SashimonoState, Any], list[Event] | None]:
    """A question's ``do`` for the flow: apply the answer with the question's rule, then
    run the machine to the next question (or the end); the events of both. It judges the
    action itself (the flow's ``judges``): one look for the chosen option a ply, not the
    flow's ``why_illegal`` and then this one's."""

    def run(state: SashimonoState, action: Any) -> list[Event] | None:
        chosen, _ = state._choose(action)
        if chosen is None:
            return None  # refused, nothing changed: the flow raises with why_illegal's rule
        # Counted before the answer is applied: the events it makes carry the count.
        state.decisions += 1
        state._events = []
        prompt = state._take_question()
        rule(state, prompt, chosen.kind, chosen.arg)
        return state._run()

    return run


def _question(state: SashimonoState) -> Question:
    prompt = state.prompt
    assert prompt is not None  # a game not over always asks a question
    return prompt.kind


#: Sashimono's turn as a flow (core/flow.py): the phase is the question asked now (the
#: ``DecisionStack`` of steps runs between questions); its legal actions are the question's
#: options, and its ``do`` applies the answer with the question's rule from ``ANSWERS``.
#: The questions are the flow's stages and the stack is their ``next``: no phase here has
#: an ``end`` or a ``next``, because the question that follows is whatever the steps the
#: rules pushed ask when they run, read from the top of the stack by ``phase_of``.
FLOW: Flow[SashimonoState, Question, Any] = Flow(
    {
        question: Phase(question.value, SashimonoState.legal_actions, _answering(rule), judges=True)
        for question, rule in ANSWERS.items()
    },
    phase_of=_question,
    decisions=attrgetter("decisions"),
    keys=Question,
)

if set(OPERATIONS) != set(OPS):
    raise TypeError(f"the card language's operations {sorted(OPS)} have no rule in OPERATIONS")
