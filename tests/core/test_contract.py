"""Both languages against the one contract, gpp/core/contract/gpp3.json.

Python keeps its tables in code (read on every frame, they cost nothing to look up); the Node
SDK and client build theirs from committed copies of the JSON. So the tests here name every
place where Python disagrees with the JSON, where a Node copy differs from it, and where Node's
checks judge a payload differently from Python's: the same cases, generated from the JSON's
schemas, run through both, and each verdict (problem, field, expected, got) must match.
"""

from __future__ import annotations

import inspect
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, node_module

from app.problems import http_status
from app.routes.endpoints import DISCOVER_REQUEST
from gpp.core import Phase, canonical_json, codes, envelope, request_budget, schema
from gpp.core.catalog import CATALOG, SESSION_FATAL

CONTRACT_PATH = REPO / "gpp" / "core" / "contract" / "gpp3.json"
CONTRACT: dict[str, Any] = json.loads(CONTRACT_PATH.read_text("utf-8"))
GATEWAY_PATH = REPO / "app" / "contract" / "gateway.json"
GATEWAY: dict[str, Any] = json.loads(GATEWAY_PATH.read_text("utf-8"))
"""The gateway's own contract: the HTTP facts (the discover body, each error's status)."""
COPIES = [REPO / "plugins" / "sdk" / "node" / "gpp3.json", REPO / "plugins" / "client" / "node" / "gpp3.json"]  # fmt: skip

Case = tuple[Any, list[str | int], bool]
"""A value, the field a check must name when it refuses it, and whether it is valid."""


# ------------------------------------------------------------------------ the tables, Python


def python_divergences(contract: dict[str, Any]) -> list[str]:
    """Every way the Python tables differ from `contract`, one sentence each."""
    out: list[str] = []

    def differ(what: str, python: Any, json_value: Any) -> None:
        if python != json_value:
            out.append(f"{what}: Python has {python!r}, gpp3.json has {json_value!r}")

    differ("protocolVersion", envelope.PROTOCOL_VERSION, contract["protocolVersion"])
    differ("envelope keys", list(envelope.ENVELOPE_KEYS), [f["key"] for f in contract["envelope"]])
    differ(
        "envelope expected",
        [(f.key, f.expected) for f in envelope.ENVELOPE],
        [(f["key"], f["expected"]) for f in contract["envelope"]],
    )
    digest_pattern = next(f["pattern"] for f in contract["envelope"] if f["key"] == "digest")
    differ("digest form", envelope._DIGEST.pattern, digest_pattern)
    limits = contract["limits"]
    differ("maxSafeInteger", canonical_json.MAX_SAFE_INTEGER, limits["maxSafeInteger"])
    differ("maxDepth", canonical_json.MAX_DEPTH, limits["maxDepth"])
    differ("maxPaths", schema.MAX_PATHS, limits["maxPaths"])
    differ("requestIdMaxChars", schema.MAX_REQUEST_ID, limits["requestIdMaxChars"])
    differ("reasons", list(schema.REASONS), contract["types"]["Reason"]["enum"])
    differ("phases", [p.value for p in Phase], contract["phases"])

    rows = {row["type"]: row for row in contract["catalog"]}
    differ("catalog types, in order", list(CATALOG), list(rows))
    for name, rule in CATALOG.items():
        row = rows.get(name)
        if row is None:
            continue
        differ(f"catalog {name}: sender", rule.sender and rule.sender.value, row["sender"])
        transitions = {a.value: b.value for a, b in rule.transitions.items()}
        differ(f"catalog {name}: transitions", transitions, row["transitions"])
        differ(f"catalog {name}: request", rule.request.value, row["request"])
    fatal = contract["sessionFatal"]
    differ("sessionFatal sender", SESSION_FATAL.sender, fatal["sender"])
    differ(
        "sessionFatal transitions",
        {a.value: b.value for a, b in SESSION_FATAL.transitions.items()},
        {p: fatal["leadsTo"] for p in contract["phases"] if p != fatal["leadsTo"]},
    )

    for row in contract["errors"]:
        cls = getattr(codes, row["class"], None)
        if not (inspect.isclass(cls) and issubclass(cls, codes.ProtocolError)):
            out.append(f"errors: gpp.core.codes has no ProtocolError class {row['class']}")
            continue
        differ(f"{row['class']}.code", cls.code, row["code"])
        differ(f"{row['class']}.title", cls.title, row["title"])
        parent = cls.__mro__[1].__name__ if row["extends"] else None
        differ(f"{row['class']} extends", parent, row["extends"])
    python_classes = {
        name
        for name, cls in vars(codes).items()
        if inspect.isclass(cls) and issubclass(cls, codes.ProtocolError)
    }
    differ("error classes", sorted(python_classes), sorted(r["class"] for r in contract["errors"]))
    direct = {r["code"]: r["class"] for r in contract["errors"] if r["extends"] == "ProtocolError"}
    differ("ERROR_CLASSES", {k: c.__name__ for k, c in codes.ERROR_CLASSES.items()}, direct)

    budget = contract["environment"]["requestBudget"]
    differ("requestBudget variable", request_budget.REQUEST_BUDGET_VARIABLE, budget["variable"])

    for rule in contract["pathRules"]:
        differ(f"path rule {rule['example']!r}", schema.path_problem(rule["example"]), rule["problem"])  # fmt: skip
    return out


def gateway_status(gateway: dict[str, Any], contract: dict[str, Any], name: str) -> int:
    """The status the gateway's contract gives a class: its own, else its nearest parent's."""
    parents = {row["class"]: row["extends"] for row in contract["errors"]}
    while name not in gateway["httpStatus"]:
        name = parents[name]
    return int(gateway["httpStatus"][name])


def gateway_divergences(gateway: dict[str, Any], contract: dict[str, Any]) -> list[str]:
    """Every class the gateway answers with another status than its contract says."""
    out = []
    for row in contract["errors"]:
        cls = getattr(codes, row["class"])
        want = gateway_status(gateway, contract, row["class"])
        if (got := http_status(cls("x"))) != want:
            out.append(f"{row['class']} HTTP status: Python has {got}, gateway.json has {want}")
    return out


def test_python_tables_agree_with_the_contract() -> None:
    assert python_divergences(CONTRACT) == []
    assert gateway_divergences(GATEWAY, CONTRACT) == []


def test_a_divergence_is_named() -> None:
    """The check above can fail, and says where: a contract with one code changed."""
    changed = json.loads(json.dumps(CONTRACT))
    changed["errors"][-1]["title"] = "Exit"
    changed["catalog"][0]["sender"] = "host"
    changed["limits"]["maxPaths"] = 5
    assert python_divergences(changed) == [
        "maxPaths: Python has 10000, gpp3.json has 5",
        "catalog hello: sender: Python has 'plugin', gpp3.json has 'host'",
        "ExitStatusError.title: Python has 'Plugin exit status', gpp3.json has 'Exit'",
    ]
    gateway = json.loads(json.dumps(GATEWAY))
    gateway["httpStatus"]["ExitStatusError"] = 500
    assert gateway_divergences(gateway, CONTRACT) == [
        "ExitStatusError HTTP status: Python has 502, gateway.json has 500"
    ]


@pytest.mark.parametrize("copy", COPIES, ids=lambda p: str(p.relative_to(REPO)))
def test_node_packages_ship_an_equal_copy(copy: Path) -> None:
    """Each Node package is published on its own, so each holds its own copy of the JSON."""
    assert copy.read_bytes() == CONTRACT_PATH.read_bytes(), "make contract"


def test_the_node_client_ships_the_gateways_contract() -> None:
    copy = REPO / "plugins" / "client" / "node" / "gateway.json"
    assert copy.read_bytes() == GATEWAY_PATH.read_bytes(), "make contract"
    package = json.loads((REPO / "plugins" / "client" / "node" / "package.json").read_bytes())
    assert {"gateway.json", "gpp3.json"} <= set(package["files"])


def test_the_contract_ships_in_the_python_package() -> None:
    pyproject = (REPO / "pyproject.toml").read_text("utf-8")
    assert re.search(r'(?m)^\[tool\.setuptools\.package-data\]\n"gpp\.core" = \[.*"contract/\*\.json"', pyproject)  # fmt: skip
    assert re.search(r'(?m)^"gpp\.gateway" = \["contract/\*\.json"\]', pyproject)


# ------------------------------------------------------------ what make contract generates

GENERATOR = REPO / "gpp" / "core" / "contract" / "generate.py"
GENERATED_FROM = [  # what the generator reads: the JSON and the files with generated regions
    "gpp/core/contract/gpp3.json",
    "app/contract/gateway.json",
    "plugins/client/node/errors.js",
    "plugins/client/node/index.d.ts",
    "plugins/sdk/node/index.d.ts",
    "plugins/sdk/node-compat/index.js",
    "plugins/sdk/node-compat/index.d.ts",
]


def scratch_tree(root: Path) -> None:
    """What the generator reads, copied under `root`."""
    for path in GENERATED_FROM:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / path, root / path)


def run_node(script: str, cwd: Path, *args: str) -> Any:
    """What a Node ES module script writes as JSON on stdout."""
    return json.loads(node_module(script, *args, cwd=cwd))


def run_generator(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(GENERATOR), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_what_make_contract_generates_is_what_is_committed(tmp_path: Path) -> None:
    """Generated, never copied by hand: the generator's output equals every committed file."""
    done = run_generator("--root", REPO, "--out", tmp_path)
    assert done.returncode == 0, done.stderr
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert {"gpp/core/contract_errors.py", *GENERATED_FROM[2:]} <= set(written)
    stale = [path for path in written if (tmp_path / path).read_bytes() != (REPO / path).read_bytes()]  # fmt: skip
    assert stale == [], "run make contract"
    assert (
        (tmp_path / "gpp/core/contract_errors.py")
        .read_text("utf-8")
        .startswith("# generated by make contract")
    )


TOO_BIG = {"code": "E_TOO_BIG", "class": "FrameTooLargeError", "extends": "ProtocolError", "title": "Frame too large"}  # fmt: skip

NODE_SCRATCH_CLIENT = """
import * as client from "./plugins/client/node/errors.js";
const cls = client.FrameTooLargeError;
process.stdout.write(JSON.stringify({ code: cls.code, httpStatus: cls.httpStatus, title: cls.title,
  parent: Object.getPrototypeOf(cls) === client.ProtocolError,
  byCode: client.ERROR_CLASSES.E_TOO_BIG === cls }));
"""


def test_a_new_code_is_one_edit_to_the_contract(tmp_path: Path) -> None:
    """In a scratch copy of the tree: one row added to the JSON (and, as it is not answered 502,
    its status to the gateway's), `make contract`, and the code is a Python class, a Node client
    export (with its code, status and title), and declared in both `.d.ts` files and the
    compatibility package's lists."""
    scratch_tree(tmp_path)
    changed = json.loads(json.dumps(CONTRACT))
    changed["errors"].append(TOO_BIG)
    (tmp_path / GENERATED_FROM[0]).write_text(json.dumps(changed, indent=2) + "\n", "utf-8")
    gateway = json.loads(json.dumps(GATEWAY))
    gateway["httpStatus"]["FrameTooLargeError"] = 413
    (tmp_path / GENERATED_FROM[1]).write_text(json.dumps(gateway, indent=2) + "\n", "utf-8")

    done = run_generator("--root", tmp_path)
    assert done.returncode == 0, done.stderr

    module = tmp_path / "gpp" / "core" / "contract_errors.py"
    namespace: dict[str, Any] = {}
    exec(compile(module.read_text("utf-8"), str(module), "exec"), namespace)
    cls = namespace["FrameTooLargeError"]
    assert (cls.code, cls.title, cls.__mro__[1]) == ("E_TOO_BIG", "Frame too large", codes.ProtocolError)  # fmt: skip
    assert namespace["ERROR_CLASSES"]["E_TOO_BIG"] is cls
    assert "FrameTooLargeError" in namespace["__all__"]

    for copy in ("plugins/sdk/node/gpp3.json", "plugins/client/node/gpp3.json"):
        assert (tmp_path / copy).read_bytes() == (tmp_path / GENERATED_FROM[0]).read_bytes()
    assert run_node(NODE_SCRATCH_CLIENT, tmp_path) == {"code": "E_TOO_BIG", "httpStatus": 413, "title": "Frame too large", "parent": True, "byCode": True}  # fmt: skip

    for types in ("plugins/client/node/index.d.ts", "plugins/sdk/node/index.d.ts"):
        union = re.search(r"export type ErrorCode =([^;]*);", (tmp_path / types).read_text("utf-8"))
        assert union is not None and '"E_TOO_BIG"' in union.group(1), types
    client_types = (tmp_path / "plugins/client/node/index.d.ts").read_text("utf-8")
    assert "export declare class FrameTooLargeError extends ProtocolError {}" in client_types
    for compat in ("plugins/sdk/node-compat/index.js", "plugins/sdk/node-compat/index.d.ts"):
        assert "  FrameTooLargeError,\n" in (tmp_path / compat).read_text("utf-8"), compat


SINCE = {"type": "string", "minLength": 1, "maxLength": 64}

PYTHON_SCRATCH_DISCOVER = """
import json
from app.routes.endpoints import DISCOVER_REQUEST
from gpp.core import schema
from gpp.core.catalog import CATALOG

def verdict(spec, value):
    try:
        spec.check(value)
    except schema.Violation as exc:
        return [exc.problem, exc.field, exc.expected, exc.got]
    return None

frame, body = json.loads(input())
print(json.dumps({"from": [schema.__file__],
    "frame": [verdict(CATALOG["discover"].payload, value) for value in frame],
    "body": [verdict(DISCOVER_REQUEST, value) for value in body]}))
"""

NODE_SCRATCH_DISCOVER = """
import { readFileSync } from "node:fs";
import { PAYLOADS, fromContract, Violation } from "./plugins/sdk/node/schema.js";
const gateway = JSON.parse(readFileSync("./app/contract/gateway.json", "utf8"));
const verdict = (spec, value) => {
  try { spec.check(value); } catch (e) {
    if (!(e instanceof Violation)) throw e;
    return [e.problem, e.field, e.expected, e.got];
  }
  return null;
};
const [frame, body] = JSON.parse(readFileSync(0, "utf8"));
const request = fromContract(gateway.discoverRequest);
process.stdout.write(JSON.stringify({ frame: frame.map((v) => verdict(PAYLOADS.discover, v)),
  body: body.map((v) => verdict(request, v)) }));
"""


def test_a_new_discover_field_is_one_edit_to_the_contract(tmp_path: Path) -> None:
    """In a scratch copy of the tree: an optional `since` added to the `discover` payload and
    to the gateway's body (the recipe's step 1), `make contract`, and nothing else: the Python
    frame check (the catalog's, which the connections run), the gateway's body check and the
    Node SDK's frame check all accept it and judge a bad one alike, naming the field."""
    scratch_tree(tmp_path)
    for package in ("gpp", "app"):
        shutil.copytree(REPO / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)  # fmt: skip
    for module in (REPO / "plugins/sdk/node").glob("*.js"):
        shutil.copy(module, tmp_path / "plugins/sdk/node" / module.name)
    changed = json.loads(json.dumps(CONTRACT))
    changed["payloads"]["discover"]["optional"] = {"since": SINCE}
    (tmp_path / GENERATED_FROM[0]).write_text(json.dumps(changed, indent=2) + "\n", "utf-8")
    gateway = json.loads(json.dumps(GATEWAY))
    gateway["discoverRequest"]["optional"]["since"] = SINCE
    (tmp_path / GENERATED_FROM[1]).write_text(json.dumps(gateway, indent=2) + "\n", "utf-8")
    done = run_generator("--root", tmp_path)
    assert done.returncode == 0, done.stderr

    frame = {"requestId": "r1", "paths": ["a.py"]}
    body = {"paths": ["a.py"]}
    cases = [
        [{**frame, "since": "2026-12-01"}, {**frame, "since": 7}, {**frame, "since": ""}, {**frame, "until": "x"}],
        [{**body, "since": "2026-12-01"}, {**body, "since": 7}, {**body, "since": ""}, {**body, "until": "x"}],
    ]  # fmt: skip
    wrong_type = ["has the wrong type", "since", "string of 1..64 chars", "integer 7"]
    wrong_value = ["has the wrong value", "since", "string of 1..64 chars", "string ''"]
    unknown = ["is not allowed", "until", "no such field", "string 'x'"]
    expected = [None, wrong_type, wrong_value, unknown]

    python = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n" + PYTHON_SCRATCH_DISCOVER],
        input=json.dumps(cases), capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert python.returncode == 0, python.stderr
    verdicts = json.loads(python.stdout)
    assert verdicts["from"][0] == str(tmp_path / "gpp/core/schema.py")  # the scratch tree's
    assert verdicts["frame"] == verdicts["body"] == expected

    node = json.loads(node_module(NODE_SCRATCH_DISCOVER, stdin=json.dumps(cases).encode(), cwd=tmp_path))  # fmt: skip
    assert node == {"frame": expected, "body": expected}

    # and in this tree, which has no such field, both refuse it: the scratch edit made the change
    assert python_verdict("discover", {**frame, "since": "2026-12-01"}) == ["is not allowed", "since", "no such field", "string '2026-12-01'"]  # fmt: skip


def test_the_generator_refuses_what_it_cannot_place(tmp_path: Path) -> None:
    """A region's markers gone, or a row before its parent: it says which, and writes nothing."""
    scratch_tree(tmp_path)
    types = tmp_path / "plugins/sdk/node/index.d.ts"
    types.write_text(
        types.read_text("utf-8").replace("// END generated (error-code)\n", ""), "utf-8"
    )
    done = run_generator("--root", tmp_path)
    assert done.returncode == 2
    assert "plugins/sdk/node/index.d.ts: needs one region" in done.stderr
    assert not (tmp_path / "gpp/core/contract_errors.py").exists()

    shutil.copy(REPO / "plugins/sdk/node/index.d.ts", types)
    changed = json.loads(json.dumps(CONTRACT))
    changed["errors"].insert(1, {**TOO_BIG, "extends": "SchemaError"})
    (tmp_path / GENERATED_FROM[0]).write_text(json.dumps(changed), "utf-8")
    done = run_generator("--root", tmp_path)
    assert done.returncode == 2
    assert "FrameTooLargeError extends SchemaError, not a row above" in done.stderr


# ------------------------------------------------------------ payload cases, from the schemas


def _resolve(spec: dict[str, Any]) -> dict[str, Any]:
    while "ref" in spec:
        spec = CONTRACT["types"][spec["ref"]]
    return spec


def _required(spec: dict[str, Any]) -> dict[str, Any]:
    fields = dict(spec.get("required", {}))
    if "extends" in spec:
        fields.update(CONTRACT["types"][spec["extends"]]["required"])
    return fields


def cases(spec: dict[str, Any]) -> tuple[Any, list[Case]]:
    """A valid value of `spec`, and values around it: valid ones and ones refused at a field."""
    spec = _resolve(spec)
    kind = spec["type"]
    if kind == "string":
        if "enum" in spec:
            here: list[str | int] = []
            return spec["enum"][0], [(e, here, True) for e in spec["enum"]] + [("nope", here, False), (5, here, False)]  # fmt: skip
        if "pattern" in spec:
            return spec["example"], [("!", [], False), (None, [], False)]
        if "maxLength" in spec:
            low, high = spec.get("minLength", 0), spec["maxLength"]
            return "r-1", [("x" * high, [], True), ("é" * high, [], True), ("x" * (high + 1), [], False), ("x" * (low - 1), [], low == 0), ([], [], False)]  # fmt: skip
        return "s", [("", [], True), (5, [], False), (True, [], False)]
    if kind == "scalar":
        edges = [("v", True), (True, True), (2**53 - 1, True), (-(2**53) + 1, True), (2**53, False), (1.5, False), (None, False), ([], False), ({}, False)]  # fmt: skip
        return 7, [(value, [], ok) for value, ok in edges]
    if kind == "integer":
        assert spec == {"type": "integer", "minimum": 1}, spec
        edges = [(2**53 - 1, True), (0, False), (-3, False), ("1", False), (1.0, False), (2**53, False), (True, False)]  # fmt: skip
        return 1, [(value, [], ok) for value, ok in edges]
    if kind == "path":
        return "src/a.py", [(".", [], True), ("../x", [], False), ("a//b", [], False), (5, [], False)]  # fmt: skip
    if kind == "map":
        valid, inner = cases(spec["values"])
        out: list[Case] = [({}, [], True), ([], [], False), ({"k": valid, "j": valid}, [], True)]
        out += [({"k": value}, ["k", *field], ok) for value, field, ok in inner]
        return {"k": valid}, out
    if kind == "array":
        item, inner = cases(spec["items"])
        if "contains" in spec:
            item = spec["contains"]
        low = spec.get("minItems", 0)
        out = [({}, [], False), ([], [], low == 0), ([item], [], True)]
        out += [([value], [0, *field], ok) for value, field, ok in inner if "contains" not in spec or not ok]  # fmt: skip
        if "maxItems" in spec:
            out += [([item] * spec["maxItems"], [], True), ([item] * (spec["maxItems"] + 1), [], False)]  # fmt: skip
        if "contains" in spec:
            out += [(["other"], [], False), ([item, "other"], [], True)]
        if spec.get("unique"):
            out += [([item, item], [], False)]
        return [item], out
    assert kind == "object", spec
    required, optional = _required(spec), spec.get("optional", {})
    valids = {key: cases(sub) for key, sub in {**required, **optional}.items()}
    valid = {key: valids[key][0] for key in required}
    out = [(valid, [], True), ([], [], False), ({**valid, "zz": 1}, ["zz"], False)]
    for key in required:
        out.append(({k: v for k, v in valid.items() if k != key}, [key], False))
    for key, (good, inner) in valids.items():
        if key in optional:
            out.append(({**valid, key: good}, [], True))
        out += [({**valid, key: value}, [key, *field], ok) for value, field, ok in inner]
    return valid, out


def payload_cases() -> Iterator[tuple[str, Any, str, bool]]:
    """(schema name, value, field to name, valid) for every payload and the discover body."""
    specs = {**CONTRACT["payloads"], "gateway.discoverRequest": GATEWAY["discoverRequest"]}
    for name, spec in specs.items():
        for value, segments, ok in cases(spec)[1]:
            field = ""
            for seg in segments:
                field += f"[{seg}]" if isinstance(seg, int) else (f".{seg}" if field else seg)
            yield name, value, field, ok


def python_check(name: str) -> schema.Spec:
    if name == "gateway.discoverRequest":
        return DISCOVER_REQUEST
    return CATALOG[name].payload


def python_verdict(name: str, value: Any) -> list[Any] | None:
    try:
        python_check(name).check(value)
    except schema.Violation as exc:
        return [exc.problem, exc.field, exc.expected, exc.got]
    return None


NODE_VERDICTS = """
import { parseStrict } from "./plugins/sdk/node/canonical.js";
import { CONTRACT } from "./plugins/sdk/node/contract.js";
import { fromContract, pathProblem, Violation } from "./plugins/sdk/node/schema.js";
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
const gateway = JSON.parse(readFileSync("./app/contract/gateway.json", "utf8"));
const checks = { gateway: { discoverRequest: fromContract(gateway.discoverRequest) } };
for (const [type, spec] of Object.entries(CONTRACT.payloads)) checks[type] = fromContract(spec);
for await (const line of createInterface({ input: process.stdin })) {
  const [name, value] = parseStrict(Buffer.from(line));
  const check = name === "path" ? null : name.split(".").reduce((o, k) => o[k], checks);
  let verdict = null;
  if (check === null) verdict = pathProblem(value);
  else try { check.check(value); } catch (e) {
    if (!(e instanceof Violation)) throw e;
    verdict = [e.problem, e.field, e.expected, e.got];
  }
  process.stdout.write(JSON.stringify(verdict) + "\\n");
}
"""


def node_verdicts(lines: list[Any]) -> list[Any]:
    stdin = "".join(json.dumps(line) + "\n" for line in lines).encode()
    return [json.loads(v) for v in node_module(NODE_VERDICTS, stdin=stdin).decode().splitlines()]


def test_python_payload_checks_follow_the_contract() -> None:
    wrong = []
    for name, value, field, ok in payload_cases():
        verdict = python_verdict(name, value)
        if ok != (verdict is None) or (verdict is not None and verdict[1] != field):
            wrong.append((name, json.dumps(value)[:80], field, ok, verdict))
    assert not wrong, wrong[:5]


def test_node_judges_every_case_as_python_does() -> None:
    all_cases = list(payload_cases())
    assert len(all_cases) > 200  # every payload, every field, nested ones too
    node = node_verdicts([[name, value] for name, value, _, _ in all_cases])
    assert len(node) == len(all_cases)
    wrong = [
        (name, json.dumps(value)[:80], python, theirs)
        for (name, value, _, _), theirs in zip(all_cases, node, strict=True)
        if (python := python_verdict(name, value)) != theirs
    ]
    assert not wrong, wrong[:5]


def test_node_path_rules_follow_the_contract() -> None:
    rules = CONTRACT["pathRules"]
    assert node_verdicts([["path", r["example"]] for r in rules]) == [r["problem"] for r in rules]


# ------------------------------------------------------------------ the request budget

BUDGET_VALUES = ["700", "1", "0700", str(2**53 - 1), str(2**53), "0", "", " 700", "700 ", "+7", "-7", "7.5", "7e2", "0x10", "١٢", "99999999999999999999"]  # fmt: skip

NODE_BUDGETS = """
import { requestBudgetMs } from "./plugins/sdk/node/index.js";
import { CONTRACT } from "./plugins/sdk/node/contract.js";
const name = CONTRACT.environment.requestBudget.variable;
const values = JSON.parse(process.argv[1]);
const read = values.map((v) => requestBudgetMs({ [name]: v }));
process.stdout.write(JSON.stringify([...read, requestBudgetMs({})]));
"""


def test_both_sdks_read_the_request_budget_alike() -> None:
    """The contract's variable, read by `gpp.sdk.request_budget_ms` and Node's `requestBudgetMs`:
    the same number or None for every value, odd ones included."""
    from gpp.sdk import request_budget_ms

    name = CONTRACT["environment"]["requestBudget"]["variable"]
    python = [request_budget_ms({name: v}) for v in BUDGET_VALUES] + [request_budget_ms({})]
    assert python[:4] == [700, 1, 700, 2**53 - 1] and set(python[4:]) == {None}
    assert run_node(NODE_BUDGETS, REPO, json.dumps(BUDGET_VALUES)) == python


# --------------------------------------------------------------- the Node client's classes

NODE_CLIENT = """
import * as client from "./plugins/client/node/index.js";
const classes = {};
for (const [name, value] of Object.entries(client)) {
  if (typeof value !== "function" || !(value === client.ProtocolError || value.prototype instanceof client.ProtocolError)) continue;
  const parent = Object.getPrototypeOf(value);
  classes[name] = { code: value.code, httpStatus: value.httpStatus, title: value.title,
    extends: value === client.ProtocolError ? null : parent.name, name: value.name };
}
const codes = Object.fromEntries(Object.entries(client.ERROR_CLASSES).map(([c, k]) => [c, k.name]));
process.stdout.write(JSON.stringify({ classes, codes }));
"""


def test_node_client_has_one_class_per_contract_row() -> None:
    node = run_node(NODE_CLIENT, REPO)
    rows = {
        row["class"]: {
            "code": row["code"],
            "httpStatus": gateway_status(GATEWAY, CONTRACT, row["class"]),
            "title": row["title"],
            "extends": row["extends"],
            "name": row["class"],
        }
        for row in CONTRACT["errors"]
    }
    assert node["classes"] == rows
    direct = {r["code"]: r["class"] for r in CONTRACT["errors"] if r["extends"] == "ProtocolError"}
    assert node["codes"] == direct


def test_node_client_types_declare_every_code_and_class() -> None:
    types = (REPO / "plugins" / "client" / "node" / "index.d.ts").read_text("utf-8")
    union = re.search(r"export type ErrorCode =([^;]*);", types)
    assert union is not None
    declared_codes = set(re.findall(r'"(E_[A-Z_]+)"', union.group(1)))
    assert declared_codes == {r["code"] for r in CONTRACT["errors"] if r["extends"]}
    declared = dict(re.findall(r"export declare class (\w+) extends (\w+)", types))
    for row in CONTRACT["errors"]:
        if row["extends"]:
            assert declared.get(row["class"]) == row["extends"], row["class"]


def test_every_code_named_in_the_sources_is_in_the_contract() -> None:
    """The Node SDK throws codes by name, not by class: a typo there is caught here."""
    sources = [*(REPO / "plugins" / "sdk" / "node").glob("*.js"), *(REPO / "gpp").rglob("*.py"),
               *(REPO / "app").rglob("*.py"), *(REPO / "plugins" / "client" / "node").glob("*.js")]  # fmt: skip
    named = {
        (code, path.relative_to(REPO).as_posix())
        for path in sources
        for code in re.findall(r"""["'](E_[A-Z_]+)["']""", path.read_text("utf-8"))
    }
    known = {row["code"] for row in CONTRACT["errors"]}
    assert len(named) > 10
    assert sorted(pair for pair in named if pair[0] not in known) == []
