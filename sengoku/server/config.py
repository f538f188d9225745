"""Server settings from the environment: ``SENGOKU_<FIELD>`` sets ``Settings.<field>``.

For example ``SENGOKU_TRUSTED_PROXIES=10.0.0.1`` (lists are comma-separated),
``SENGOKU_WAITING_TTL=3600``, ``SENGOKU_SQLITE_SYNCHRONOUS=NORMAL``. Only fields of simple
types (numbers, strings, booleans, lists of strings) can be set this way. An unusable value
stops the server with a message naming the variable.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from typing import Any

from sengoku.server.settings import Settings

PREFIX = "SENGOKU_"


class ConfigError(ValueError):
    """An environment variable whose value the setting cannot take."""


def _convert(name: str, text: str, default: Any) -> Any:
    try:
        if isinstance(default, bool):
            low = text.strip().lower()
            if low not in {"1", "0", "true", "false", "yes", "no", "on", "off"}:
                raise ValueError(text)
            return low in {"1", "true", "yes", "on"}
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            return float(text)
        if isinstance(default, tuple):
            return tuple(p.strip() for p in text.split(",") if p.strip())
        if isinstance(default, str):
            return text.strip()
    except ValueError:
        raise ConfigError(
            f"{PREFIX}{name.upper()}={text!r} is not a {type(default).__name__}"
        ) from None
    raise ConfigError(f"{PREFIX}{name.upper()} cannot be set from the environment")


def settings_from_env(db_url: str, environ: Mapping[str, str] | None = None) -> Settings:
    """Settings for ``db_url`` with every ``SENGOKU_<FIELD>`` variable applied."""
    env = os.environ if environ is None else environ
    settings = Settings(db_url=db_url)
    for f in dataclasses.fields(Settings):
        key = PREFIX + f.name.upper()
        if f.name == "db_url" or key not in env:
            continue
        default = getattr(settings, f.name)
        if callable(default) or default is None:
            raise ConfigError(f"{key} cannot be set from the environment")
        setattr(settings, f.name, _convert(f.name, env[key], default))
    return settings
