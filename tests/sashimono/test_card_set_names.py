"""The ``cards`` option names a card set; it never names a path (issue 14, item 1).

A server accepts options from anyone, so an option that opened a path would let any client
read (or hang on) any file the server can open.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from sengoku.core.game import InvalidOption
from sengoku.games.sashimono import Sashimono
from sengoku.games.sashimono import cards as cards_mod
from sengoku.games.sashimono.cards import CardError, available_card_sets, card_set

from .test_cards import GOOD


def full_set_text() -> str:
    parts = []
    for army in ("west", "east"):
        for n in range(8):
            parts.append(
                GOOD.replace("test-card", f"{army}-{n}").replace(
                    'army = "west"', f'army = "{army}"'
                )
            )
    return "\n".join(parts)


@pytest.fixture
def card_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "sets"
    folder.mkdir()
    monkeypatch.setenv(cards_mod.CARD_DIR_ENV, str(folder))
    yield folder
    for key in [k for k in cards_mod._CACHE if k]:
        cards_mod._CACHE.pop(key, None)


@pytest.mark.parametrize(
    "value",
    [
        "/etc/passwd",
        "/dev/zero",
        "/tmp",
        "../cards",
        "..",
        "a/b",
        "west.toml",
        "C:\\\\x",
        "Sengoku",
        "x" * 65,
        "sets\x00",
    ],
)
def test_a_path_is_refused_without_touching_the_file_system(value: str) -> None:
    with pytest.raises(InvalidOption) as info:
        Sashimono().new_state(1, cards=value)
    message = str(info.value)
    assert "never a path" in message
    # nothing in the message says whether such a file exists or what it holds
    assert "root" not in message and "no such" not in message


def test_non_strings_are_refused() -> None:
    for value in (None, 3, ["west"], {"path": "/etc/passwd"}):
        with pytest.raises(InvalidOption, match="by its name"):
            Sashimono().new_state(1, cards=value)


def test_our_set_has_two_names() -> None:
    assert card_set("") is card_set("sengoku")
    assert Sashimono().new_state(1, cards="sengoku").view(0)["cards"] == "sengoku"


def test_an_unknown_name_lists_the_available_sets() -> None:
    with pytest.raises(InvalidOption, match="no card set 'nosuchset'.*available: .*sengoku"):
        Sashimono().new_state(1, cards="nosuchset")


def test_an_operator_installs_sets_by_name(card_dir: Path) -> None:
    (card_dir / "mine.toml").write_text(full_set_text())
    folder = card_dir / "split"
    folder.mkdir()
    (folder / "a.toml").write_text(full_set_text())
    assert {"mine", "split", "sengoku"} <= set(available_card_sets())
    allowed = next(o for o in Sashimono().describe()["options"] if o["name"] == "cards")
    assert {"mine", "split"} <= set(allowed["allowed"])
    st = Sashimono().new_state(3, cards="mine")
    rng = random.Random(3)
    for _ in range(40):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
    assert Sashimono().new_state(3, cards="split").options["cards"] == "split"


def test_an_installed_set_that_is_not_a_regular_file_is_refused(card_dir: Path) -> None:
    fifo = card_dir / "pipe.toml"
    os.mkfifo(fifo)  # opening it for reading would block: it must never be read
    with pytest.raises(InvalidOption, match="card set 'pipe': not a regular file"):
        Sashimono().new_state(1, cards="pipe")
    (card_dir / "link.toml").symlink_to("/dev/zero")
    with pytest.raises(InvalidOption, match="card set 'link'"):
        Sashimono().new_state(1, cards="link")


def test_errors_in_an_installed_set_name_the_set_card_and_field(card_dir: Path) -> None:
    (card_dir / "broken.toml").write_text(full_set_text().replace('army = "east"', 'army = "x"', 1))
    with pytest.raises(InvalidOption) as info:
        Sashimono().new_state(1, cards="broken")
    message = str(info.value)
    assert "card set 'broken': card 'east-0': field 'army'" in message
    assert str(card_dir) not in message
    (card_dir / "notoml.toml").write_text("root:x:0:0:root:/root:/bin/bash\n")
    with pytest.raises(InvalidOption) as info:
        Sashimono().new_state(1, cards="notoml")
    assert "not valid TOML" in str(info.value) and "root:x" not in str(info.value)


def test_a_huge_installed_file_is_refused(card_dir: Path) -> None:
    (card_dir / "huge.toml").write_bytes(b"#" * (cards_mod.MAX_CARD_FILE + 1))
    with pytest.raises(InvalidOption, match="limited to"):
        Sashimono().new_state(1, cards="huge")


def test_the_command_line_reads_a_local_file_through_its_own_flag(tmp_path: Path) -> None:
    from sengoku.cli import build_parser, game_options

    path = tmp_path / "My Cards.toml"
    path.write_text(full_set_text())
    args = build_parser().parse_args(["play", "sashimono", "--cards", str(path)])
    options = game_options(Sashimono(), args)
    assert options["cards"] == "local-my-cards"
    assert Sashimono().new_state(1, **options).options["cards"] == "local-my-cards"
    # ... but not through -o, which sets the option itself
    args = build_parser().parse_args(["play", "sashimono", "-o", f"cards={path}"])
    with pytest.raises(InvalidOption, match="never a path"):
        Sashimono().new_state(1, **game_options(Sashimono(), args))


def test_card_set_itself_refuses_paths() -> None:
    with pytest.raises(CardError, match="never a path"):
        card_set("/etc/passwd")
