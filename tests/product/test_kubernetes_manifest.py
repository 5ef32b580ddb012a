"""The sidecar recipe (deploy/kubernetes): schema-valid for a fixed Kubernetes version, checked
offline; the gateway locked down as the image and compose run it; its exec probes run for real
against a live gateway; and the README's recipe matching the files it names."""

from __future__ import annotations

import copy
import re
import shlex
import socket
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml
from conftest import REPO, doc
from gateway_harness import Gateway, echo_plugin, fault_plugin, running_gateway, write_config

KUBERNETES_VERSION = "1.33.0"
MANIFEST = REPO / "deploy" / "kubernetes" / "engine-with-gateway.yaml"
DOCUMENTS: list[dict[str, Any]] = list(yaml.safe_load_all(MANIFEST.read_text()))
COMPOSE: dict[str, Any] = yaml.safe_load((REPO / "compose.yaml").read_text())
DOCKERFILE = (REPO / "docker" / "Dockerfile").read_text()
IMAGE_PYTHON = "/opt/gpp/venv/bin/python"
assert "COPY --from=build /opt/gpp/venv /opt/gpp/venv" in DOCKERFILE
README_SECTION = "## Run it beside your engine"  # in docs/operations.md


def _pod_spec() -> dict[str, Any]:
    (deployment,) = DOCUMENTS
    spec: dict[str, Any] = deployment["spec"]["template"]["spec"]
    return spec


def _container(name: str) -> dict[str, Any]:
    spec = _pod_spec()
    found: dict[str, Any]
    (found,) = [c for c in spec.get("initContainers", []) + spec["containers"] if c["name"] == name]
    return found


def _mounts(container: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {m["mountPath"]: m for m in container["volumeMounts"]}


def _volumes() -> dict[str, dict[str, Any]]:
    return {v["name"]: v for v in _pod_spec()["volumes"]}


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any connection attempt fails the test: the schemas must come from the package itself."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"validation tried to connect: {args}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_manifest_is_valid_for_the_pinned_kubernetes_version_offline(no_network: None) -> None:
    assert [d["kind"] for d in DOCUMENTS] == ["Deployment"]
    for document in DOCUMENTS:
        validated = kubernetes_validate.validate(document, KUBERNETES_VERSION, strict=True)
        assert validated == "1.33"


def test_the_strict_schema_rejects_a_misspelt_security_field(no_network: None) -> None:
    """The validation above means something: one typo in the gateway's security fields fails."""
    broken = copy.deepcopy(DOCUMENTS[0])
    gateway = broken["spec"]["template"]["spec"]["initContainers"][0]
    gateway["securityContext"]["readOnlyRootFilesytem"] = True
    with pytest.raises(kubernetes_validate.ValidationError, match="readOnlyRootFilesytem"):
        kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)


def test_gateway_is_a_locked_down_sidecar_of_the_image_compose_builds() -> None:
    gateway = _container("gateway")
    assert gateway["image"] == COMPOSE["services"]["gateway"]["image"]
    assert gateway["restartPolicy"] == "Always"  # a native sidecar: up before the engine starts
    image_user = re.findall(r"^USER (\d+):(\d+)$", DOCKERFILE, re.MULTILINE)[-1]
    security = gateway["securityContext"]
    assert (str(security["runAsUser"]), str(security["runAsGroup"])) == image_user
    assert security["runAsNonRoot"] is True
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security.get("privileged", False) is False
    assert security["capabilities"] == {"drop": ["ALL"]}
    assert "add" not in security["capabilities"]
    assert security["seccompProfile"] == {"type": "RuntimeDefault"}
    assert {"cpu", "memory"} <= set(gateway["resources"]["limits"])
    tmp = _mounts(gateway)["/tmp"]
    assert "emptyDir" in _volumes()[tmp["name"]]


def test_pod_gives_the_gateway_no_way_in_from_outside_and_no_api_credentials() -> None:
    spec = _pod_spec()
    assert spec["automountServiceAccountToken"] is False
    assert not spec.get("hostNetwork", False)
    assert not spec.get("hostPID", False)
    assert all(not c.get("ports") for c in spec["initContainers"] + spec["containers"])
    assert not [d for d in DOCUMENTS if d["kind"] in ("Service", "Ingress")]


def test_repository_is_shared_with_the_engine_and_read_only_for_the_gateway() -> None:
    registry = tomllib.loads((REPO / "docker" / "registry.toml").read_text())
    roots = {plugin["root"] for plugin in registry["plugin"]}
    assert roots == {"/repo"}
    gateway_env = {e["name"]: e for e in _container("gateway")["env"]}
    assert gateway_env["GPP_CONFIG"]["value"] == "/etc/gpp/registry.toml"  # the baked registry
    for_gateway = _mounts(_container("gateway"))["/repo"]
    for_engine = _mounts(_container("engine"))["/repo"]
    assert for_gateway["readOnly"] is True
    assert for_gateway["name"] == for_engine["name"]
    assert not for_engine.get("readOnly", False)  # the engine puts the repository there
    assert (
        _pod_spec()["securityContext"]["fsGroup"]
        == _container("gateway")["securityContext"]["runAsGroup"]
    )


def test_both_containers_take_the_token_from_one_secret_and_the_engine_calls_loopback() -> None:
    refs = []
    for name in ("gateway", "engine"):
        env = {e["name"]: e for e in _container(name)["env"]}
        assert "value" not in env["GPP_TOKEN"]
        refs.append(env["GPP_TOKEN"]["valueFrom"]["secretKeyRef"])
    assert refs[0] == refs[1]
    engine_env = {e["name"]: e for e in _container("engine")["env"]}
    compose_url = COMPOSE["services"]["integration-tests"]["environment"]["GPP_GATEWAY_URL"]
    assert engine_env["GPP_GATEWAY_URL"]["value"] == compose_url == "http://127.0.0.1:8787"


# ---- the probes, run for real ----------------------------------------------------------------


def _probe(kind: str) -> list[str]:
    probe = _container("gateway")[kind]
    assert "httpGet" not in probe  # the kubelet would call the pod IP with a refused Host header
    command: list[str] = probe["exec"]["command"]
    assert command[0] == IMAGE_PYTHON  # the runtime image's venv: no curl, no wget, no shell
    assert probe["timeoutSeconds"] > 2  # the probe's own urlopen timeout
    return command


def _run_probe(kind: str, gateway: Gateway) -> int:
    """The probe's command as the kubelet runs it, with this Python and the test gateway's port."""
    command = _probe(kind)
    script = command[-1]
    assert script.count("http://127.0.0.1:8787/") == 1
    local = [sys.executable, *command[1:-1], script.replace(":8787/", f":{gateway.port}/")]
    return subprocess.run(local, capture_output=True, timeout=30, check=False).returncode


def test_probes_are_exec_calls_to_loopback_healthz_and_readyz() -> None:
    assert "/healthz" in _probe("livenessProbe")[-1]
    assert "/healthz" in _probe("startupProbe")[-1]
    assert "/readyz" in _probe("readinessProbe")[-1]


def test_probes_pass_on_a_ready_gateway(tmp_path: Path) -> None:
    config = write_config(tmp_path, [echo_plugin(eager=True)], gateway={"token_file": "token"})
    (tmp_path / "token").write_text("s3cret\n")
    (tmp_path / "token").chmod(0o600)  # as the token check requires
    with running_gateway(config) as gateway:
        assert _run_probe("livenessProbe", gateway) == 0  # no token needed for the probes
        assert _run_probe("startupProbe", gateway) == 0
        assert _run_probe("readinessProbe", gateway) == 0  # the eager plugin is up


def test_readiness_probe_fails_while_an_eager_plugin_is_not_up(tmp_path: Path) -> None:
    never = fault_plugin("never_hello", eager=True, handshake_ms=200)
    with running_gateway(write_config(tmp_path, [never])) as gateway:
        assert _run_probe("livenessProbe", gateway) == 0
        assert _run_probe("readinessProbe", gateway) != 0


# ---- the README's recipe -----------------------------------------------------------------------


def _readme_section() -> str:
    readme = doc("operations.md")
    start = readme.index(README_SECTION)
    end = readme.find("\n## ", start + len(README_SECTION))
    return readme[start : end if end != -1 else None]


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", _readme_section(), re.DOTALL)


def test_readme_names_only_files_that_exist() -> None:
    named = set(re.findall(r"`([\w.-][\w./-]*\.(?:yaml|py|toml))`", _readme_section()))
    assert {"compose.yaml", "deploy/kubernetes/engine-with-gateway.yaml"} <= named
    version = KUBERNETES_VERSION.rsplit(".", 1)[0]
    assert f"against {version}" in _readme_section()
    assert f"against Kubernetes {version}" in MANIFEST.read_text()
    assert [path for path in named if not (REPO / path).is_file()] == []


def test_readme_commands_match_the_manifest() -> None:
    (commands,) = _blocks("sh")
    lines = [shlex.split(line) for line in commands.strip().splitlines()]
    create, apply = lines
    assert apply[:3] == ["kubectl", "apply", "-f"]
    assert REPO / apply[3] == MANIFEST
    assert create[:4] == ["kubectl", "create", "secret", "generic"]
    key = create[5].removeprefix("--from-literal=").split("=")[0]
    ref = {e["name"]: e for e in _container("gateway")["env"]}["GPP_TOKEN"]["valueFrom"]
    assert ref["secretKeyRef"] == {"name": create[4], "key": key}
    # the manifest's own header gives the same two commands
    header = [line.removeprefix("#").strip() for line in MANIFEST.read_text().splitlines()]
    assert commands.strip().splitlines() == [line for line in header if line.startswith("kubectl")]


def test_readme_compose_engine_joins_the_gateway_as_the_integration_tests_do() -> None:
    (snippet,) = _blocks("yaml")
    engine = yaml.safe_load(snippet)["services"]["engine"]
    tests = COMPOSE["services"]["integration-tests"]
    assert engine["network_mode"] == tests["network_mode"] == "service:gateway"
    assert engine["depends_on"] == tests["depends_on"]
    assert engine["environment"]["GPP_GATEWAY_URL"] == tests["environment"]["GPP_GATEWAY_URL"]
    assert engine["image"] == _container("engine")["image"]
