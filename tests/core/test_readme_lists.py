"""README's agent and command lists name everything there is (issue 43 item 5)."""

from __future__ import annotations

import re
from pathlib import Path

from sengoku.ai import AGENTS
from sengoku.cli import build_parser

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## )", README, re.S | re.M)
    assert match, f"README has no section {title!r}"
    return match.group(1)


def test_every_agent_is_in_the_agent_list() -> None:
    agents = re.search(r"^Agents: (.*?)\n\n", _section("AI opponents and tournaments"), re.S | re.M)
    assert agents
    named = set(re.findall(r"`([a-z]+)[`:]", agents.group(1)))
    assert set(AGENTS) <= named, f"missing from README's agents: {set(AGENTS) - named}"


def test_every_command_is_in_the_command_list() -> None:
    listed = set(re.findall(r"^\$ sengoku (\S+)", _section("Command line"), re.M))
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    commands = set(sub.choices)  # type: ignore[arg-type]
    # `play` has its own section ("Play in the terminal").
    assert commands - {"play"} <= listed, f"missing from README: {commands - {'play'} - listed}"
    assert "--version" in listed
