"""The shipped deployment files (Docker is not available here, so nothing is built or run):
docker-compose.yml wires N server processes, PostgreSQL, Redis and HAProxy with the config in
docs/deploy; that config passes ``haproxy -c`` with the compose file's environment; the
Dockerfile builds the native core and runs ``sengoku serve`` as a user other than root."""

from __future__ import annotations

import ipaddress
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import yaml
from scaleout_cluster import HAPROXY_CFG, haproxy_binary

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def _config_servers() -> list[str]:
    """The variables of the balancer config's server lines, in order."""
    return re.findall(r'^\s*server\s+\S+\s+"\$\{(\w+)\}"', HAPROXY_CFG.read_text(), re.M)


def test_compose_runs_the_servers_on_postgresql_and_redis_behind_the_shipped_haproxy() -> None:
    services = _compose()["services"]
    apps = {name: s for name, s in services.items() if s.get("build") == "."}
    assert len(apps) >= 2, f"several server processes: {sorted(services)}"
    assert {"db", "redis", "haproxy"} <= set(services), sorted(services)
    assert services["db"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    haproxy = services["haproxy"]
    # the config it runs is the one in docs/deploy, mounted where the image reads it
    source, target, *_ = haproxy["volumes"][0].split(":")
    assert (ROOT / source).resolve() == HAPROXY_CFG.resolve()
    assert target == "/usr/local/etc/haproxy/haproxy.cfg"
    # every server line of the config names one app process on its port
    env = haproxy["environment"]
    names = _config_servers()
    assert len(names) == len(apps), (names, sorted(apps))
    assert sorted(env[n] for n in names) == sorted(f"{app}:8000" for app in apps)
    proxy = haproxy["networks"]["sengoku"]["ipv4_address"]
    subnet = _compose()["networks"]["sengoku"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(proxy) in ipaddress.ip_network(subnet)
    for name, app in apps.items():
        command = app["command"]
        db = command[command.index("--db") + 1]
        assert db.startswith("postgresql+psycopg://") and "@db/" in db, (name, db)
        assert command[command.index("--pubsub") + 1] == "redis://redis:6379/0", name
        # the processes believe X-Forwarded-For from HAProxy's address only
        assert app["environment"]["SENGOKU_TRUSTED_PROXIES"] == proxy, name
        assert app["depends_on"]["db"]["condition"] == "service_healthy", name
        assert haproxy["depends_on"][name]["condition"] == "service_healthy", name
    # Redis carries hidden events: never published on the host
    assert "ports" not in services["redis"]


def test_the_haproxy_config_is_valid_with_the_compose_environment() -> None:
    env = {k: str(v) for k, v in _compose()["services"]["haproxy"]["environment"].items()}
    # this machine's file descriptor limit is below what maxconn 20000 asks for
    env["SENGOKU_MAXCONN"] = "2000"
    checked = subprocess.run(
        [haproxy_binary(), "-c", "-f", str(HAPROXY_CFG)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # without its servers' addresses it refuses to start (nothing silently defaults)
    empty = {k: v for k, v in os.environ.items() if not k.startswith("SENGOKU_NODE")}
    refused = subprocess.run(
        [haproxy_binary(), "-c", "-f", str(HAPROXY_CFG)],
        env=empty,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode != 0, refused.stdout + refused.stderr


def test_the_dockerfile_builds_the_native_core_and_serves_as_a_user() -> None:
    lines = [
        line.strip()
        for line in DOCKERFILE.read_text().replace("\\\n", " ").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]
    froms = [line.split()[1] for line in lines if line.startswith("FROM ")]
    assert froms and all(f == "python:3.11-slim" for f in froms), froms
    text = "\n".join(lines)
    assert "g++" in text and "import sengoku.games.gungi._gungi_native" in text
    last_stage = lines[max(i for i, line in enumerate(lines) if line.startswith("FROM ")) :]
    users = [line.split()[1] for line in last_stage if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0"), users
    entry = next(line for line in last_stage if line.startswith("ENTRYPOINT "))
    assert '"sengoku", "serve"' in entry and '"--port", "8000"' in entry, entry
    assert last_stage.index(f"USER {users[-1]}") < last_stage.index(entry)
    assert "EXPOSE 8000" in last_stage
