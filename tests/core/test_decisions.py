"""The typed home of pending decisions (``sengoku.core.decisions``)."""

from __future__ import annotations

import doctest
from dataclasses import dataclass
from enum import Enum

import pytest

from sengoku.core import decisions
from sengoku.core.decisions import DecisionStack, Pending, check_table


class Ask(Enum):
    CARD = "card"
    SPACE = "space"


def test_docstring_examples() -> None:
    result = doctest.testmod(decisions, verbose=False)
    assert result.attempted >= 3 and result.failed == 0


def test_push_runs_steps_in_the_order_given_before_what_was_waiting() -> None:
    stack: DecisionStack[str] = DecisionStack(["end"])
    stack.push("a", "b")
    assert stack.peek() == "a" and len(stack) == 3
    copy = stack.copy()
    assert [stack.pop(), stack.pop(), stack.pop()] == ["a", "b", "end"]
    assert not stack and stack.peek() is None
    assert copy.to_list() == ["end", "b", "a"]  # a copy is not emptied with the original


def test_a_game_extends_a_pending_question() -> None:
    @dataclass(frozen=True)
    class Question(Pending[Ask, str]):
        hand: int = -1

    q = Question(0, Ask.CARD, "play a card", ("c1", "c2"), hand=2)
    assert (q.seat, q.kind, q.options, q.hand) == (0, Ask.CARD, ("c1", "c2"), 2)


def test_a_dispatch_table_with_a_hole_fails() -> None:
    check_table({Ask.CARD: print, Ask.SPACE: print}, Ask, "questions")
    with pytest.raises(TypeError, match="SPACE"):
        check_table({Ask.CARD: print}, Ask, "questions")
