"""pack-http-routes on `re_path` regexes whose unnamed parts are quantified to allow none
(`[^/]*`, `\\d*`, `[ab]?`, `\\w*?`) outside a group: Django's `reverse()`
(`django.utils.regex_helper.normalize`) spells each as zero occurrences, and the routes are
named so (the expected names below are what Django 6.0.10's `normalize` gives for these
regexes). A class quantified by `+` or written once, a class Django itself misreads
(`[^]x]`) and `.*` (which matches any rest, `/` too: a catch-all) stay a finding where the
pattern is written."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.routes.django_linker import django_paths
from routes_harness import finding_places, names, scanned_both_ways

ZERO = {
    "manage.py": "import os\nos.environ.setdefault('DJANGO_SETTINGS_MODULE', 'thumbs.knobs')\n",
    "thumbs/__init__.py": "",
    "thumbs/knobs.py": "ROOT_URLCONF = 'thumbs.patterns'\n",
    "thumbs/render.py": (
        "def crop(request, *args): ...\n\ndef manual(request): ...\n\ndef sized(request): ...\n"
    ),
    "thumbs/patterns.py": (
        "from django.urls import re_path\n"
        "\n"
        "from thumbs import render as r\n"
        "\n"
        "urlpatterns = [\n"
        "    re_path(r'^crop/([^/]*)/(\\d*)/([a-z0-9]*)/[^/]*$', r.crop),\n"
        "    re_path(r'^manual/.*$', r.manual),\n"
        "    re_path(r'^sized/[a-z]+/$', r.sized),\n"
        "]\n"
    ),
}


@pytest.mark.parametrize(
    ("regex", "named"),
    [
        (r"^crop/([^/]*)/(\d*)/([a-z0-9]*)/[^/]*$", "crop/{_0}/{_1}/{_2}/"),
        (r"^b/\d?x/$", "b/x/"),
        (r"^e/(?P<n>\d+)/[0-9]?$", "e/{n}/"),
        (r"^g/\w*?/$", "g//"),
        (r"^h/[ab]?/(?P<k>[0-9]+)$", "h//{k}"),
    ],
)
def test_a_part_reverse_spells_as_nothing_is_left_out_of_the_name(regex: str, named: str) -> None:
    assert django_paths(regex, True) == (named,)


def test_a_class_reverse_cannot_spell_stays_unnamed() -> None:
    assert django_paths(r"^a/[a-z]+/$", True) is None
    assert django_paths(r"^c/[^]x]*/d/$", True) is None
    assert django_paths(r"^manual/.*$", True) is None


def test_the_urlconf_names_its_routes_as_reverse_does() -> None:
    assert names(ZERO) == {"ANY /crop/{_0}/{_1}/{_2}/"}
    assert sorted(finding_places(ZERO)["UNRESOLVED_ROUTE"]) == [
        "thumbs/patterns.py:7",
        "thumbs/patterns.py:8",
    ]


def test_the_regex_fixture_scans_the_same_with_and_without_the_pre_filter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents, _ = scanned_both_ways(tmp_path, ZERO, monkeypatch)
    assert documents[0] == documents[1]
    assert json.loads(documents[0])["resources"]
