"""The container promises, checked statically (no container engine runs here): if a later
change drops one, this fails."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import REPO

from app.config import ConfigFile

COMPOSE = yaml.safe_load((REPO / "compose.yaml").read_text())
DOCKERFILE = (REPO / "docker" / "Dockerfile").read_text()


def _stages() -> dict[str, list[str]]:
    """Dockerfile instructions by stage name (continuation lines joined)."""
    stages: dict[str, list[str]] = {}
    current: list[str] = []
    for line in DOCKERFILE.replace("\\\n", " ").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.upper().startswith("FROM "):
            name = line.split()[-1] if " AS " in line.upper() else f"stage{len(stages)}"
            current = stages.setdefault(name, [])
        current.append(line)
    return stages


@pytest.fixture
def gateway() -> dict[str, Any]:
    service: dict[str, Any] = COMPOSE["services"]["gateway"]
    return service


def test_gateway_service_has_no_network_and_no_privileges(gateway: dict[str, Any]) -> None:
    assert gateway["network_mode"] == "none"
    assert gateway["read_only"] is True
    assert gateway["cap_drop"] == ["ALL"]
    assert "no-new-privileges:true" in gateway["security_opt"]
    assert int(gateway["pids_limit"]) > 0
    assert re.fullmatch(r"\d+[kmg]", str(gateway["mem_limit"]))
    assert any(t.startswith("/tmp") for t in gateway["tmpfs"])
    assert not str(gateway.get("user", "0")).startswith(("0", "root"))
    assert "ports" not in gateway  # network_mode none: nothing to publish


def test_gateway_mounts_the_repository_and_registry_read_only(gateway: dict[str, Any]) -> None:
    mounts = {v.rsplit(":", 2)[1]: v for v in gateway["volumes"]}
    assert mounts["/repo"].endswith(":ro")
    assert mounts["/etc/gpp/registry.toml"].endswith(":ro")
    assert gateway["environment"]["GPP_CONFIG"] == "/etc/gpp/registry.toml"


def test_integration_tests_share_the_gateway_namespace() -> None:
    tests = COMPOSE["services"]["integration-tests"]
    assert tests["network_mode"] == "service:gateway"
    assert tests["environment"]["GPP_GATEWAY_URL"] == "http://127.0.0.1:8787"
    assert "tests/gateway/test_live_gateway.py" in tests["command"]
    assert (REPO / "tests" / "gateway" / "test_live_gateway.py").exists()
    assert tests["depends_on"]["gateway"]["condition"] == "service_healthy"


def test_dockerfile_is_multi_stage_pinned_and_non_root() -> None:
    stages = _stages()
    assert {"build", "test", "runtime"} <= set(stages)
    base = re.search(r"ARG PYTHON_IMAGE=(\S+)", DOCKERFILE)
    assert base and re.fullmatch(r"python:3\.11\.\d+-slim-\w+", base.group(1))
    runtime = stages["runtime"]
    users = [line.split()[1] for line in runtime if line.startswith("USER ")]
    assert users and not users[-1].startswith(("0", "root"))
    assert any(line == "STOPSIGNAL SIGTERM" for line in runtime)
    health = [line for line in runtime if line.startswith("HEALTHCHECK")]
    assert health and "curl" not in health[0] and "wget" not in health[0]
    assert any(line.startswith("ENTRYPOINT") and "tini" in line for line in runtime)


def test_runtime_stage_keeps_no_compilers_or_package_managers() -> None:
    runtime = " ".join(_stages()["runtime"])
    for removed in (
        "site-packages/pip*",
        "/usr/bin/apt*",
        "/usr/bin/dpkg*",
        "/opt/gpp/venv/bin/pip*",
    ):
        assert removed in runtime
    assert "apt-get install" not in runtime and "gcc" not in runtime
    assert "COPY --from=node /usr/local/bin/node" in runtime  # the Node runtime, no npm
    assert "COPY --from=build /opt/gpp/venv" in runtime  # the wheel's venv, locked deps
    assert "-c requirements.lock" in DOCKERFILE and "--wheel" in DOCKERFILE


def test_baked_registry_is_valid_and_says_inherit_explicitly() -> None:
    raw = tomllib.loads((REPO / "docker" / "registry.toml").read_text())
    config = ConfigFile.model_validate(raw)  # roots are container paths: validate, not resolve
    assert config.defaults.sandbox.network == "inherit"
    assert config.defaults.sandbox.cgroup == "optional"  # no cgroup can be made in there
    assert {p.root for p in config.plugin} == {"/repo"}
    for plugin in config.plugin:
        for word in plugin.command[1:]:
            relative = Path(word).relative_to("/opt/gpp")
            assert (REPO / relative).exists(), f"{word} is not copied from the repo"


def test_runtime_carries_bubblewrap_and_the_context_leaves_out_local_trees() -> None:
    stages = _stages()
    assert "bubblewrap" in " ".join(stages["system"]) and "tini" in " ".join(stages["system"])
    assert stages["runtime"][0] == "FROM system AS runtime"
    ignored = (REPO / ".dockerignore").read_text().splitlines()
    assert {".venv", "**/node_modules", ".git"} <= set(ignored)


def test_the_generated_token_lives_on_a_volume_the_tests_read_as_its_owner(
    gateway: dict[str, Any],
) -> None:
    """The root is read-only: `gpp serve` keeps the token it generates on a volume
    (GPP_STATE_DIR), which the integration tests mount read-only and read as its owner (with
    no capability, even root could not read a 0600 file of another uid)."""
    tests = COMPOSE["services"]["integration-tests"]
    assert "gpp-state:/var/lib/gpp" in gateway["volumes"]
    assert "gpp-state:/var/lib/gpp:ro" in tests["volumes"]
    assert gateway["environment"]["GPP_STATE_DIR"] == tests["environment"]["GPP_STATE_DIR"]
    assert tests["user"] == gateway["user"]
    assert "gpp-state" in COMPOSE["volumes"]
    runtime = " ".join(_stages()["runtime"])
    assert "install -d -o 10001 -g 10001 -m 0700 /var/lib/gpp" in runtime
    assert "GPP_STATE_DIR=/var/lib/gpp" in runtime
