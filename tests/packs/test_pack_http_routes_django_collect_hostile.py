"""A hostile repository against `packs/routes/django_collect.py`, the interpreter that runs a
Django project's collector classes: a padded `%` or `str.format`, a string, list or dict grown
without end, recursion direct or through `__getattr__` or `__init__`, a huge literal. Each
stops the evaluation with the finding at the URLconf entry, never the pack: no input makes it
allocate without bound (E_EOF, the pack killed) or spin past `request_ms` (E_TIMEOUT)."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
from conftest import REPO

from gpp.host import PluginSession

sys.path.insert(0, str(REPO / "plugins"))

from routes_harness import document, write_files

PRLIMIT = shutil.which("prlimit") or "prlimit"
FORTY = "[" + ", ".join(["0"] * 40) + "]"
HOSTILE = {
    "percent-width": "        p = '%0999999999d' % 5\n",
    "format-spec": "        p = '{:>999999999}'.format('x')\n",
    "string-doubled": f"        p = 'ab'\n        for _ in {FORTY}:\n            p = p + p\n",
    "fstring-doubled": f"        p = 'ab'\n        for _ in {FORTY}:\n            p = f'{{p}}{{p}}'\n",
    "list-doubled": f"        xs = [1]\n        for _ in {FORTY}:\n            xs = xs + xs\n",
    "list-extended-by-itself": (
        f"        xs = [1]\n        for _ in {FORTY}:\n            xs.extend(xs)\n"
    ),
    "list-added-in-place": f"        xs = [1]\n        for _ in {FORTY}:\n            xs += xs\n",
    "replace-blowup": (
        f"        p = 'abcd'\n        for _ in {FORTY}:\n            p = p.replace('', p)\n"
    ),
    "joined": f"        p = 'ab'\n        for _ in {FORTY}:\n            p = p.join([p, p, p])\n",
    "while-appending": "        while True:\n            self.items.append(0)\n",
    "while-filling-a-dict": (
        "        d = {}\n        n = 0\n        while True:\n            d[n] = n\n"
        "            n = n + 1\n"
    ),
    "huge-literal": "        p = [" + ", ".join(["0"] * 100_000) + "]\n",
    "deep-recursion": "        forever()\n",
    "getattr-recursion": "        p = Ping().anything\n",
    "init-recursion": "        Loop()\n",
}
HELPERS = (
    "def forever():\n"
    "    return forever()\n"
    "\n"
    "class Ping:\n"
    "    def __getattr__(self, name):\n"
    "        return getattr(Pong(), name)\n"
    "\n"
    "class Pong:\n"
    "    def __getattr__(self, name):\n"
    "        return getattr(Ping(), name)\n"
    "\n"
    "class Loop:\n"
    "    def __init__(self):\n"
    "        self.items = []\n"
    "        self.items.append(0)\n"
    "        Loop()\n"
    "\n"
)


def _urlconf(body: str) -> str:
    """A URLconf whose registry runs `body` in its build."""
    text = (
        "from django.urls import path\n"
        "\n"
        "from proj import views\n"
        "\n"
        f"{HELPERS}"
        "class Registry:\n"
        "    def __init__(self):\n"
        "        self.items = []\n"
        "\n"
        "    def build(self):\n"
        f"{body}"
        "        self.items.append(path('x/', views.v))\n"
        "        return self.items\n"
        "\n"
        "reg = Registry()\n"
        "urlpatterns = [path('ok/', views.v)]\n"
        "urlpatterns += reg.build()\n"
    )
    return text


def _entry_line(text: str) -> int:
    return text.splitlines().index("urlpatterns += reg.build()") + 1


def _repository(cases: dict[str, str]) -> dict[str, str]:
    """`proj.urls` includes one URLconf a case, `proj/h_<case>.py`."""
    names = {case: "h_" + case.replace("-", "_") for case in cases}
    includes = "".join(f"    path('{case}/', include('proj.{names[case]}')),\n" for case in cases)
    return {
        "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'proj.settings')\n",
        "proj/__init__.py": "",
        "proj/settings.py": "ROOT_URLCONF = 'proj.urls'\nINSTALLED_APPS = ['proj']\n",
        "proj/views.py": "def v(request):\n    return None\n",
        "proj/urls.py": (
            "from django.urls import include, path\n\nurlpatterns = [\n" + includes + "]\n"
        ),
        **{f"proj/{names[case]}.py": _urlconf(body) for case, body in cases.items()},
    }


def _finding_at(found: dict[str, object], place: str) -> list[str]:
    """The details of the findings listing `place` (`file:line`)."""
    findings = found["findings"]
    assert isinstance(findings, list)
    return [
        str(f["detail"])
        for f in findings
        if any(f"{p['path']}:{p['line']}" == place for p in f["locations"])
    ]


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_hostile_build_is_a_finding_at_its_urlconf(case: str) -> None:
    files = _repository({case: HOSTILE[case]})
    file = f"proj/h_{case.replace('-', '_')}.py"
    found = document(files)
    details = _finding_at(found, f"{file}:{_entry_line(files[file])}")
    assert details, found["findings"]
    assert any("adds URL patterns a call computes" in d for d in details), details
    names = {str(r["name"]) for r in found["resources"]}
    assert f"ANY /{case}/ok/" in names  # the rest of the URLconf is still read
    assert f"ANY /{case}/x/" not in names  # the build stopped, nothing of it listed


def test_the_caps_are_said_in_the_finding() -> None:
    files = _repository({"percent-width": HOSTILE["percent-width"]})
    file = "proj/h_percent_width.py"
    (detail,) = _finding_at(document(files), f"{file}:{_entry_line(files[file])}")
    assert "asks for more than the pack holds: a % format with a width or precision" in detail


def test_a_build_within_the_caps_still_runs() -> None:
    body = (
        "        p = 'a'\n"
        "        for _ in [0, 0, 0]:\n"
        "            p = p + p\n"
        "        self.items.append(path('%s/' % p, views.v))\n"
        "        self.items.append(path('{}-{name}/'.format(p, name='n'), views.v))\n"
    )
    names = {str(r["name"]) for r in document(_repository({"fine": body}))["resources"]}
    assert {"ANY /fine/aaaaaaaa/", "ANY /fine/aaaaaaaa-n/", "ANY /fine/x/"} <= names


def test_the_pack_answers_every_hostile_build_under_a_memory_limit(tmp_path: Path) -> None:
    """Through the host, in a pack process limited to 1.5 GB of address space: a document
    (neither E_EOF nor E_TIMEOUT), a finding at every hostile URLconf's entry."""
    files = _repository(HOSTILE)
    write_files(tmp_path, files)
    command = [sys.executable, str(REPO / "plugins" / "pack_http_routes.py")]
    session = PluginSession([PRLIMIT, "--as=1500000000", *command], "pack-http-routes", "1.0.0",
                            cwd=str(tmp_path))  # fmt: skip

    async def discover() -> dict[str, object]:
        async with session:
            return await session.discover(["."], request_id="r")

    found = asyncio.run(discover())
    places = {f"proj/h_{case.replace('-', '_')}.py": case for case in HOSTILE}
    missing = [
        case
        for file, case in places.items()
        if not _finding_at(found, f"{file}:{_entry_line(files[file])}")
    ]
    assert missing == []


def test_a_path_helper_doubling_a_name_under_many_tests_is_read_in_bounded_time() -> None:
    """`py_branches` inlined what each name was assigned: `p = p + p` under forty `if`s made
    a tree of 2**40 nodes to read (the pack spun past `request_ms`). Past 512 nodes the name
    is not inlined; the route is still the one the flags' defaults pick."""
    flags = "".join(f"FLAG{i} = os.environ.get('F{i}', '') == '1'\n" for i in range(40))
    tests = "".join(f"    if FLAG{i}:\n        p = p + p\n" for i in range(40))
    files = {
        "app.py": (
            "import os\n\nfrom fastapi import FastAPI\n\napp = FastAPI()\n"
            f"{flags}"
            f"\ndef prefix(rule):\n    p = '/a'\n{tests}    return p + rule\n"
            "\n@app.get(prefix('/x'))\ndef doubled():\n    pass\n"
        )
    }
    assert {str(r["name"]) for r in document(files)["resources"]} == {"GET /a/x"}
