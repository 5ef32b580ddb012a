"""The image built and run for real (DESIGN §7): the wheel in a non-root image, the gateway under
compose with no network, the integration suite inside its namespace, SIGTERM ending it with 0.

Needs a Docker engine: `make test-container` starts one where none runs, and then this module
must not skip (GPP_REQUIRE_DOCKER). No registry need be reachable: the base image is built
locally from Debian's packages (docker/build-base-image.sh) and passed as the Dockerfile's
PYTHON_IMAGE and NODE_IMAGE build arguments."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
import yaml
from conftest import DEMO_REPO, REPO, run_ok


def _engine_reachable() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        info = subprocess.run(["docker", "info"], capture_output=True, timeout=30, check=False)
    except subprocess.TimeoutExpired:
        return False
    return info.returncode == 0


if not _engine_reachable():
    if os.environ.get("GPP_REQUIRE_DOCKER"):
        raise RuntimeError("GPP_REQUIRE_DOCKER is set, and no Docker engine is reachable")
    pytest.skip(
        "no Docker engine reachable (make test-container starts one)", allow_module_level=True
    )

SERVICES: dict[str, Any] = yaml.safe_load((REPO / "compose.yaml").read_text())["services"]
# Health is checked every 10 s (Dockerfile HEALTHCHECK); SIGTERM may take the gateway's grace
# (10 s) plus the plugins' shutdown (5 s): each wait below is bounded a little above its sum.
HEALTHY_WITHIN_S = 90
SIGTERM_EXIT_WITHIN_S = 30


def run(
    args: Sequence[str], timeout: float, *, check: bool = True, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """A docker command, its output kept for the failure message."""
    return run_ok(args, timeout=timeout, check=check, env={**os.environ, **(env or {})})


def _compose_command() -> list[str]:
    """Compose v2 (the docker CLI plugin) where installed, else Debian's docker-compose (v1)."""
    v2 = subprocess.run(["docker", "compose", "version"], capture_output=True, timeout=30)
    if v2.returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    pytest.fail("a Docker engine runs but neither `docker compose` nor `docker-compose` exists")


def _networks() -> set[str]:
    return set(run(["docker", "network", "ls", "--quiet", "--no-trunc"], 30).stdout.split())


@pytest.fixture(scope="module")
def images() -> None:
    """The runtime and test images under the names compose.yaml gives them. The legacy builder:
    BuildKit would fetch the `# syntax=` frontend from a registry. `--network host` lets pip reach
    PyPI from an engine that has no bridge network."""
    base = run([str(REPO / "docker" / "build-base-image.sh")], 1800).stdout.split()[-1]
    for service in ("gateway", "integration-tests"):
        spec = SERVICES[service]
        run(
            [
                "docker",
                "build",
                "--network",
                "host",
                "--build-arg",
                f"PYTHON_IMAGE={base}",
                "--build-arg",
                f"NODE_IMAGE={base}",
                "--file",
                spec["build"]["dockerfile"],
                "--target",
                spec["build"]["target"],
                "--tag",
                spec["image"],
                spec["build"]["context"],
            ],
            1800,
            env={"DOCKER_BUILDKIT": "0"},
        )
    # the images these names held before, if this build replaced them
    run(
        [
            "docker",
            "image",
            "prune",
            "--force",
            "--filter",
            "label=org.opencontainers.image.vendor=gate-forge",
        ],
        300,
    )


@dataclass(frozen=True)
class ComposeProject:
    command: list[str]  # compose with this project's name and file
    gateway: str  # the gateway container's id
    networks_before: set[str]

    def exec(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return run(["docker", "exec", self.gateway, *args], 60, check=check)

    def inspect(self) -> dict[str, Any]:
        found: list[dict[str, Any]] = json.loads(
            run(["docker", "inspect", self.gateway], 30).stdout
        )
        return found[0]


def _wait_healthy(project: ComposeProject) -> None:
    deadline = time.monotonic() + HEALTHY_WITHIN_S
    while time.monotonic() < deadline:
        state = project.inspect()["State"]
        if state["Status"] != "running" or state["Health"]["Status"] == "unhealthy":
            break
        if state["Health"]["Status"] == "healthy":
            return
        time.sleep(0.5)
    logs = run(["docker", "logs", project.gateway], 30, check=False)
    pytest.fail(f"gateway not healthy: {project.inspect()['State']}\n{logs.stdout}{logs.stderr}")


@contextmanager
def compose_up(name: str) -> Iterator[ComposeProject]:
    """The gateway service up and healthy; everything the project made removed on the way out."""
    command = [*_compose_command(), "--project-name", name, "--file", str(REPO / "compose.yaml")]
    env = {"REPO_TO_SCAN": str(DEMO_REPO)}
    networks_before = _networks()
    try:
        run([*command, "up", "--detach", "--no-build", "gateway"], 180, env=env)
        gateway = run([*command, "ps", "--quiet", "gateway"], 60, env=env).stdout.strip()
        project = ComposeProject(command, gateway, networks_before)
        _wait_healthy(project)
        yield project
    finally:
        run([*command, "down", "--remove-orphans", "--timeout", "20"], 120, env=env)
        left = run(
            [
                "docker",
                "ps",
                "--all",
                "--quiet",
                "--filter",
                f"label=com.docker.compose.project={name}",
            ],
            30,
        )
        assert left.stdout.strip() == "", f"compose down left containers: {left.stdout}"


@pytest.fixture(scope="module")
def gateway(images: None) -> Iterator[ComposeProject]:
    with compose_up(f"gftest{os.getpid()}") as project:
        yield project


def test_gateway_runs_with_the_isolation_compose_asks(gateway: ComposeProject) -> None:
    host = gateway.inspect()["HostConfig"]
    assert host["NetworkMode"] == "none"
    assert host["ReadonlyRootfs"] is True
    assert host["CapDrop"] == ["ALL"]
    assert "no-new-privileges:true" in host["SecurityOpt"]
    assert host["PidsLimit"] == SERVICES["gateway"]["pids_limit"]
    limit = SERVICES["gateway"]["mem_limit"]  # "2g": compose's bytes with a k, m or g suffix
    assert host["Memory"] == int(limit[:-1]) * 1024 ** "kmg".index(limit[-1].lower()) * 1024
    binds = {bind.split(":")[1]: bind for bind in host["Binds"]}
    assert binds["/repo"] == f"{DEMO_REPO}:/repo:ro"
    assert binds["/etc/gpp/registry.toml"].endswith(":ro")


def test_image_is_non_root_with_the_wheel_bubblewrap_and_node(gateway: ComposeProject) -> None:
    assert gateway.exec("id", "-u").stdout.strip() == "10001"
    where = gateway.exec(
        "python", "-c", "import gpp.plugin.jsonrpc, gpp.gateway.main; print(gpp.__file__)"
    )
    assert where.stdout.startswith("/opt/gpp/venv/lib/python3.11/site-packages/gpp/")  # not -e
    assert gateway.exec("bwrap", "--version").stdout.startswith("bubblewrap ")
    assert gateway.exec("node", "--version").stdout.startswith("v20.")
    assert gateway.exec("python", "-m", "pip", check=False).returncode != 0  # no installer left


TOKEN = """
import os
BEARER = "Bearer " + open(os.environ["GPP_STATE_DIR"] + "/token").read().strip()
"""
"""The token the gateway generated, as a process in its container finds it."""

DISCOVER = (
    TOKEN
    + """
import json, urllib.request
health = urllib.request.urlopen("http://127.0.0.1:8787/healthz", timeout=10)
request = urllib.request.Request("http://127.0.0.1:8787/plugins/reference-detector/discover",
    data=b'{"paths": ["."], "requestId": "container"}',
    headers={"Content-Type": "application/json", "Authorization": BEARER})
answer = urllib.request.urlopen(request, timeout=60)
print(json.dumps({"health": [health.status, json.load(health)],
                  "discover": [answer.status, json.load(answer)]}))
"""
)


def test_gateway_answers_health_and_a_discover(gateway: ComposeProject) -> None:
    answers = json.loads(gateway.exec("python", "-c", DISCOVER).stdout)
    assert answers["health"] == [200, {"status": "ok"}]
    status, document = answers["discover"]
    assert status == 200 and document["requestId"] == "container"
    assert document["findings"][0]["code"] == "DUPLICATE_TABLE_NAME"


EVERY_PLUGIN = (
    TOKEN
    + """
import json, sys, tomllib, urllib.request
registry = tomllib.load(open("/etc/gpp/registry.toml", "rb"))
answers = {}
for plugin in registry["plugin"]:
    if plugin.get("protocol", "gpp/3") != "gpp/3":
        continue
    request = urllib.request.Request(f"http://127.0.0.1:8787/plugins/{plugin['id']}/discover",
        data=b'{"paths": ["."]}',
        headers={"Content-Type": "application/json", "Authorization": BEARER})
    try:
        answer = urllib.request.urlopen(request, timeout=60)
        answers[plugin["id"]] = [answer.status, sorted(json.load(answer))]
    except urllib.error.HTTPError as error:
        answers[plugin["id"]] = [error.code, error.read().decode()]
print(json.dumps(answers))
"""
)


def test_every_baked_plugin_starts_and_answers_in_the_image(gateway: ComposeProject) -> None:
    """Each GPP/3 plugin of the baked registry finds its files and dependencies in the image."""
    answers = json.loads(gateway.exec("python", "-c", EVERY_PLUGIN).stdout)
    assert {"pack-sqlalchemy", "pack-django", "pack-http-routes"} <= set(answers)
    document = ["classificationSignals", "findings", "requestId", "resources", "unresolved"]
    assert answers == {plugin: [200, document] for plugin in answers}


def test_gateway_namespace_holds_only_loopback(gateway: ComposeProject) -> None:
    """Read from inside the namespace; nothing is sent anywhere to prove it."""
    devices = gateway.exec("cat", "/proc/net/dev").stdout.splitlines()[2:]
    assert [line.split(":")[0].strip() for line in devices] == ["lo"]
    assert gateway.exec("cat", "/proc/net/route").stdout.splitlines()[1:] == []
    ipv6 = gateway.exec("cat", "/proc/net/ipv6_route").stdout.splitlines()
    assert {line.split()[-1] for line in ipv6} <= {"lo"}


def test_integration_suite_passes_inside_the_gateway_namespace(gateway: ComposeProject) -> None:
    suite = run([*gateway.command, "run", "--rm", "-T", "integration-tests"], 600)
    tests = (REPO / "tests" / "gateway" / "test_live_gateway.py").read_text().count("\ndef test_")
    assert re.search(rf"\b{tests} passed\b", suite.stdout), suite.stdout
    assert not re.search(r"\b(failed|skipped|error)", suite.stdout.splitlines()[-1])


def test_compose_made_no_network(gateway: ComposeProject) -> None:
    assert _networks() == gateway.networks_before


def test_sigterm_ends_the_gateway_with_status_0(images: None) -> None:
    with compose_up(f"gfterm{os.getpid()}") as project:
        started = time.monotonic()
        run(["docker", "kill", "--signal", "TERM", project.gateway], 30)
        status = run(["docker", "wait", project.gateway], SIGTERM_EXIT_WITHIN_S).stdout.strip()
        print(f"gateway exited {status} {time.monotonic() - started:.2f} s after SIGTERM")
        state = project.inspect()["State"]
        logs = run(["docker", "logs", project.gateway], 30)
    assert status == "0" and not state["OOMKilled"]
    assert "Traceback" not in logs.stdout + logs.stderr
