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
