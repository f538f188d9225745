"""Games register themselves through the ``sengoku.games`` entry points; a broken plugin
is named in a clear error and leaves the other games playable."""

from __future__ import annotations

from pathlib import Path

import pytest

import sengoku
from sengoku.core.game import Registry, SengokuError
from sengoku.core.registry import ENTRY_POINT_GROUP, GameLoadError, discover


def _plugin(root: Path, dist: str, entry_points: str, code: dict[str, str]) -> None:
    info = root / f"{dist}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entry_points}")
    for name, text in code.items():
        (root / f"{name}.py").write_text(text)


def test_the_four_games_come_from_entry_points() -> None:
    registry = Registry(discover=discover)
    assert {"gungi", "gunshi", "gunkimono", "sashimono"} <= set(registry.names())
    assert registry.load("Gungi").name == "gungi"


def test_a_broken_plugin_is_named_and_breaks_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plugin(
        tmp_path,
        "broken_plugin",
        "brokenimport = broken_plugin_mod:Game\n"
        "notagame = broken_plugin_mod2:NotAGame\n"
        "noclass = broken_plugin_mod2:Missing\n",
        {
            "broken_plugin_mod": "raise RuntimeError('this plugin is broken')\n",
            "broken_plugin_mod2": "class NotAGame:\n    pass\n",
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = Registry(discover=discover)
    assert {"brokenimport", "notagame", "noclass", "gungi"} <= set(registry.names())
    with pytest.raises(
        GameLoadError, match=r"'brokenimport'.*broken_plugin.*this plugin is broken"
    ):
        registry.load("brokenimport")
    with pytest.raises(GameLoadError, match="not a sengoku Game class"):
        registry.load("notagame")
    with pytest.raises(GameLoadError, match="'noclass'.*cannot be imported"):
        registry.load("noclass")
    assert registry.load("gungi").name == "gungi"  # the other games still load
    assert issubclass(GameLoadError, SengokuError)


def test_unknown_game_lists_the_registered_ones() -> None:
    with pytest.raises(SengokuError, match="available: .*gungi"):
        sengoku.load_game("chess")


def test_a_source_checkout_with_stale_metadata_reads_its_pyproject(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.metadata

    import sengoku.core.registry as registry_module

    def no_entry_points(**_: object) -> list[importlib.metadata.EntryPoint]:
        return []

    monkeypatch.setattr(registry_module.importlib.metadata, "entry_points", no_entry_points)
    registry = Registry(discover=discover)
    assert {"gungi", "gunshi", "gunkimono", "sashimono"} <= set(registry.names())
    assert registry.load("gunshi").name == "gunshi"
