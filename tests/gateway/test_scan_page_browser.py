"""`gpp scan --html`'s page in a real browser: Debian's Chromium, driven by Playwright, opens the
report of a repository that holds a file named like markup, filters it, toggles a kind, and
runs no script but the page's own."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Dialog, Page, sync_playwright

GPP = [sys.executable, "-m", "gpp.gateway"]
HOSTILE_FILE = "<img src=x onerror=window.pwned=1>.py"
HOSTILE_ROUTE = "/<script>window.pwned=2</script>"
APP = 'from fastapi import FastAPI\n\napp = FastAPI()\n\n\n@app.get("{route}")\ndef {name}(): ...\n'
MODELS = """from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str]
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The page of a repository with two routes, a table with PII, and a route in a file whose
    name, like the route's path, is markup that would run a script if it were not escaped."""
    folder = tmp_path_factory.mktemp("scan")
    folder.chmod(0o755)  # the sandboxed packs run as an unprivileged uid
    repo = folder / "repo"
    repo.mkdir()
    (repo / "users.py").write_text(APP.format(route="/users", name="users"))
    (repo / "orders.py").write_text(APP.format(route="/orders", name="orders"))
    (repo / HOSTILE_FILE).write_text(APP.format(route=HOSTILE_ROUTE, name="evil"))
    (repo / "models.py").write_text(MODELS)
    page = folder / "report.html"
    packs = "pack-http-routes,pack-sqlalchemy"
    done = subprocess.run(
        [*GPP, "scan", str(repo), "--packs", packs, "--html", str(page)],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return page


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.fail("no chromium on PATH: `make system-deps` installs it (Debian's chromium)")
    with sync_playwright() as playwright:
        # as root, Chromium refuses to start inside its own sandbox
        launched = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser, report: Path) -> Iterator[Page]:
    opened = browser.new_page()
    dialogs: list[str] = []

    def refuse(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    opened.on("dialog", refuse)
    opened.goto(report.as_uri())
    yield opened
    opened.close()
    assert dialogs == [], "the page opened a dialog: a script ran"


def visible_names(page: Page) -> list[str]:
    rows = page.locator("tr[data-kind]:visible td:first-child")
    return sorted(rows.all_inner_texts())


def test_the_filter_box_narrows_the_rows_to_those_it_matches(page: Page) -> None:
    everything = visible_names(page)
    assert everything == sorted(["GET /users", "GET /orders", f"GET {HOSTILE_ROUTE}", "users"])
    page.fill("#filter", "orders")
    assert visible_names(page) == ["GET /orders"]
    assert page.inner_text("#shown") == "1"
    page.fill("#filter", "sqlalchemy")  # a framework matches too
    assert visible_names(page) == ["users"]
    page.fill("#filter", "")
    assert visible_names(page) == everything


def test_a_kind_toggle_hides_that_kind_and_shows_it_again(page: Page) -> None:
    table_toggle = page.locator('input[data-toggle="table"]')
    table_toggle.uncheck()
    assert visible_names(page) == sorted(["GET /users", "GET /orders", f"GET {HOSTILE_ROUTE}"])
    assert page.locator('section[data-kind="table"]').is_hidden()
    table_toggle.check()
    assert "users" in visible_names(page)


def test_signals_are_shown_beside_their_resource(page: Page) -> None:
    row = page.locator('tr[data-kind="table"]')
    assert "pii=email" in row.inner_text()
    assert "auth=" in page.locator('tr[data-kind="route"]').first.inner_text()


def test_a_file_named_like_markup_is_shown_as_text_and_runs_nothing(page: Page) -> None:
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.locator("img, iframe, object, embed").count() == 0
    assert page.locator("script").count() == 1  # the page's own
    row = page.locator("tr[data-kind]", has_text=HOSTILE_ROUTE)
    assert f"{HOSTILE_FILE}:6" in row.inner_text()
    page.fill("#filter", "onerror")  # found by its path, as text
    assert visible_names(page) == [f"GET {HOSTILE_ROUTE}"]
    assert page.evaluate("typeof window.pwned") == "undefined"
