"""The package's metadata and files (issue 43 item 3): ``sengoku --version``, the licence,
the PEP 561 marker and the data that ships them."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import sengoku
from sengoku.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_version_flag_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    expected = importlib.metadata.version("sengoku")
    assert capsys.readouterr().out.strip() == f"sengoku {expected}"
    assert expected == sengoku.__version__


def test_version_flag_through_the_command_line() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "sengoku", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith(importlib.metadata.version("sengoku"))


def test_licence_and_type_marker_ship() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    assert "LICENSE" in project["project"]["license-files"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Copyright (c) 2026 the Sengoku authors" in text
    assert (ROOT / "sengoku" / "py.typed").is_file()
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["sengoku"]


def test_changelog_keeps_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n") and "keepachangelog.com" in text
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections and sections[0] == "## [Unreleased]"
    kinds = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    headings = {line[4:] for line in text.splitlines() if line.startswith("### ")}
    assert headings and headings <= kinds, headings - kinds


def _names(requirements: list[str]) -> set[str]:
    from packaging.requirements import Requirement

    return {Requirement(r).name.lower() for r in requirements}


def test_the_server_packages_are_an_extra() -> None:
    """Issue 40: `pip install sengoku` has no web server; `sengoku[server]` adds it, and
    `sengoku serve` names exactly the packages the extra installs."""
    from sengoku.server.extra import POSTGRES_PACKAGES, SERVER_PACKAGES, SPEEDUPS

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    base = _names(project["dependencies"])
    server = _names(extras["server"])
    assert server == set(SERVER_PACKAGES) | set(SPEEDUPS)
    assert not base & (server | set(POSTGRES_PACKAGES)), base & server
    assert {"numpy", "openskill"} <= base  # the learned agent, the arena's ratings
    assert _names(extras["postgres"]) == {"sengoku", *POSTGRES_PACKAGES}
    assert "sengoku[server,postgres]" in extras["dev"]
    assert "sengoku[server]" in extras["postgres"]


def test_serve_without_the_server_packages_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    from sengoku.server import extra

    real = importlib.util.find_spec
    gone = {"fastapi", "sqlalchemy", "psycopg"}
    monkeypatch.setattr(
        extra.importlib.util, "find_spec", lambda name: None if name in gone else real(name)
    )
    assert main(["serve", "--port", "0"]) == 2
    said = capsys.readouterr().err
    assert "fastapi, sqlalchemy are not installed" in said, said
    assert "pip install 'sengoku[server]'" in said
    assert main(["serve", "--db", "postgresql+psycopg://u@h/db"]) == 2
    assert "fastapi, sqlalchemy, psycopg are not installed" in capsys.readouterr().err
    gone.clear()
    assert extra.missing_message("postgresql+psycopg://u@h/db") is None
