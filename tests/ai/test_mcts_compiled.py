"""The search compiled with mypyc and the search as plain Python play the same games.

setup.py compiles the modules listed under ``[tool.sengoku] compiled`` in pyproject.toml
(``sengoku/ai/tree.py``); ``SENGOKU_PURE_PYTHON=1`` makes the package import their Python
source instead (sengoku/compiled.py). The same searches (fixed seeds, iteration budgets) must
give the same actions and the same statistics either way, in every game, move by move.
Where nothing is compiled (a checkout never built in place, a pure-Python build) the
comparison is skipped; the finder's own tests run everywhere.
"""

from __future__ import annotations

import tomllib
import warnings
from importlib.machinery import EXTENSION_SUFFIXES, PathFinder
from pathlib import Path
from typing import Any

import pytest

import sengoku.ai
from sengoku.compiled import PURE_PYTHON, SourceFirst, source_hash
from tests.compiled_runs import run_build

ROOT = Path(__file__).resolve().parents[2]

#: Each agent plays every seat for a few decisions of one game; the options reach every
#: branch of the search: the plain UCT selection, the mean with a prior and implicit minimax
#: values, IS-MCTS with and without a belief and search reuse. (No ``mcts`` with ``reuse``: in
#: Gunkimono its kept tree's untried actions come from another determinization and may be
#: illegal, in either build.)
SCRIPT = """
import json, sys
import sengoku.ai.tree as tree
from sengoku.ai import make_agent
from sengoku.compiled import is_compiled
from sengoku.core.registry import list_games, load_game

AGENTS = [
    ("mcts", {"iterations": 40}),
    ("mcts", {"iterations": 40, "implicit": 0.3, "prior_visits": 2}),
    ("ismcts", {"iterations": 40}),
    ("ismcts", {"iterations": 30, "belief": 1, "belief_particles": 4, "reuse": 1}),
]
out = {"compiled": is_compiled(tree), "games": {}}
for name in list_games():
    game = load_game(name)
    rows = []
    for k, (agent_name, options) in enumerate(AGENTS):
        agent = make_agent(game, agent_name, seed=11 + k, **options)
        state = game.new_state(7 + k)
        for _ in range(5):
            if state.is_terminal():
                break
            action = agent.choose(state, state.current_player)
            stats = {key: v for key, v in agent.last_stats.items() if key != "seconds"}
            rows.append([agent_name, repr(action), stats])
            state.apply(action)
    out["games"][name] = rows
print("RESULT", json.dumps(out, sort_keys=True))
"""


def _searches(pure: bool) -> dict[str, Any]:
    return run_build(SCRIPT, pure=pure)


def test_the_compiled_search_plays_the_plain_pythons_games() -> None:
    built = _searches(pure=False)
    if not built["compiled"]:
        pytest.skip("sengoku/ai/tree.py is not compiled here (make install builds it in place)")
    plain = _searches(pure=True)
    assert plain["compiled"] is False  # SENGOKU_PURE_PYTHON=1 ran the source
    assert (
        set(built["games"])
        == set(plain["games"])
        == {
            "gungi",
            "gunshi",
            "gunkimono",
            "sashimono",
        }
    )
    for name, rows in built["games"].items():
        assert rows, name
        for move, (a, b) in enumerate(zip(rows, plain["games"][name], strict=True)):
            assert a == b, f"{name}, decision {move}: compiled {a} != plain {b}"


def test_the_list_of_compiled_modules_is_pyprojects() -> None:
    with open(ROOT / "pyproject.toml", "rb") as f:
        listed = tomllib.load(f)["tool"]["sengoku"]["compiled"]
    assert "sengoku/ai/tree.py" in listed
    assert all((ROOT / path).is_file() for path in listed), listed


# -- the finder ------------------------------------------------------------------------------


def _compiled_tree() -> str:
    """Where the import system finds ``sengoku.ai.tree`` (an extension module), or skip."""
    found = PathFinder.find_spec("sengoku.ai.tree", list(sengoku.ai.__path__))
    assert found is not None and found.origin is not None
    if not found.origin.endswith(tuple(EXTENSION_SUFFIXES)):
        pytest.skip("sengoku/ai/tree.py is not compiled here (make install builds it in place)")
    return found.origin


def test_the_finder_runs_the_extension_compiled_from_this_source(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    origin = _compiled_tree()
    monkeypatch.delenv(PURE_PYTHON, raising=False)
    finder = SourceFirst()
    finder.record = {"sengoku.ai.tree": source_hash(str(ROOT / "sengoku/ai/tree.py"))}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec = finder.find_spec("sengoku.ai.tree", list(sengoku.ai.__path__))
    assert spec is not None and spec.origin == origin


def test_a_source_changed_since_its_compilation_runs_as_python_with_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _compiled_tree()
    monkeypatch.delenv(PURE_PYTHON, raising=False)
    finder = SourceFirst()
    finder.record = {"sengoku.ai.tree": "0" * 64}  # compiled from another source
    with pytest.warns(RuntimeWarning, match="changed since it was compiled"):
        spec = finder.find_spec("sengoku.ai.tree", list(sengoku.ai.__path__))
    assert spec is not None and spec.origin == str(ROOT / "sengoku/ai/tree.py")


def test_pure_python_asked_runs_the_source_without_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _compiled_tree()
    monkeypatch.setenv(PURE_PYTHON, "1")
    finder = SourceFirst()
    finder.record = {"sengoku.ai.tree": source_hash(str(ROOT / "sengoku/ai/tree.py"))}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spec = finder.find_spec("sengoku.ai.tree", list(sengoku.ai.__path__))
    assert spec is not None and spec.origin == str(ROOT / "sengoku/ai/tree.py")


def test_modules_without_a_compiled_twin_are_found_as_usual() -> None:
    finder = SourceFirst()
    path = list(sengoku.ai.__path__)
    spec = finder.find_spec("sengoku.ai.base", path)
    usual = PathFinder.find_spec("sengoku.ai.base", path)
    assert spec is not None and usual is not None and spec.origin == usual.origin
    # Names outside the package, and top-level names, are left to the import system.
    assert finder.find_spec("json", None) is None
    assert finder.find_spec("sengoku", None) is None


def test_a_searched_tree_pickles_and_copies() -> None:
    """An agent keeps its tree between decisions (search reuse); agents and trees are copied
    and pickled (process pools). A compiled node's ``__new__`` runs its ``__init__``, so it
    must accept no arguments, the node's fields then filled as a plain class's are."""
    import copy
    import pickle

    from sengoku.ai import make_agent
    from sengoku.ai.tree import Node
    from sengoku.core.registry import load_game

    root = Node(5, 0, 2)
    root.children[3] = child = Node(3, 1, 2)
    root.visits, child.totals[1] = 4, 2.5
    for made in (pickle.loads(pickle.dumps(root)), copy.deepcopy(root)):
        assert (made.action, made.player, made.visits, made.totals) == (5, 0, 4, [0.0, 0.0])
        assert made.children[3].player == 1 and made.children[3].totals == [0.0, 2.5]
    game = load_game("gunshi")
    agent = make_agent(game, "ismcts", seed=1, iterations=20, reuse=1)
    state = game.new_state(1)
    agent.choose(state, state.current_player)
    again = pickle.loads(pickle.dumps(agent))
    assert again.last_root is not None and again.last_root.visits == 20
