"""docs/http-api.md's "From Node" example, run as written (node from the repo root) against a gateway."""

from __future__ import annotations

import json
import re
import subprocess

from conftest import REPO, doc
from gateway_harness import running_gateway

README = doc("http-api.md")


def test_readme_node_client_example_runs_as_written() -> None:
    """Against a gateway with the token `gpp serve` generates: the client finds it on its own."""
    (block,) = [b for b in re.findall(r"```js\n(.*?)```", README, re.S) if "GatewayClient" in b]
    with running_gateway(REPO / "plugins" / "registry.toml", as_served=True) as gw:
        done = subprocess.run(
            ["node", "--input-type=module"],
            input=block.replace("8787", str(gw.port)),
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=60,
        )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    first, subtracted, *streamed = done.stdout.splitlines()
    assert (first, subtracted) == ("DUPLICATE_TABLE_NAME", "19")
    items = [json.loads(line) for line in streamed]
    assert [item["kind"] for item in items] == ["progress"] * 3 + ["result"]
    assert [item["params"]["done"] for item in items[:3]] == [1, 2, 3]
    assert items[3] == {"kind": "result", "result": 3}
