"""`packs.plugin_distributions`: a folder that is its own distribution, providing an entry-point
group the app loads from elsewhere, is left out with a finding at each loader; nothing else is."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "plugins"))

from packs.plugin_distributions import Distribution, plugin_folders, under

_EXTRA = Distribution("plugins/extra/setup.py", "shop-extra", frozenset({"shop.plugins"}))
_LONE = Distribution("plugins/lone/pyproject.toml", "", frozenset({"other.group"}))
_ROOT = Distribution("setup.py", "shop", frozenset({"shop.plugins"}))


def test_a_loaded_group_leaves_its_providers_out_with_a_finding_at_the_loader() -> None:
    left, findings = plugin_folders(
        [_EXTRA, _LONE, _ROOT], [("shop/hooks.py", "shop.plugins", 7)], lambda _: True, "tables"
    )
    assert left == frozenset({"plugins/extra"})
    [(path, line, detail)] = findings
    assert (path, line) == ("shop/hooks.py", 7)
    assert "`shop.plugins`" in detail and "`shop-extra` (plugins/extra/setup.py)" in detail
    assert "tables" in detail


def test_a_distribution_loading_its_own_group_a_group_nobody_loads_or_a_folder_without_items_stay() -> (
    None
):
    loads = [("plugins/extra/core.py", "shop.plugins", 3), ("shop/app.py", "unknown.group", 1)]
    assert plugin_folders([_EXTRA, _LONE], loads, lambda _: True, "routes") == (frozenset(), [])
    elsewhere = [("shop/app.py", "shop.plugins", 2)]
    assert plugin_folders([_EXTRA], elsewhere, lambda _: False, "routes") == (frozenset(), [])


def test_the_first_marker_of_a_folder_names_it_and_the_repository_root_is_never_left_out() -> None:
    second = Distribution("plugins/extra/setup.cfg", "other-name", frozenset({"shop.plugins"}))
    _, [(_, _, detail)] = plugin_folders(
        [second, _EXTRA, _ROOT], [("app.py", "shop.plugins", 1)], lambda _: True, "tables"
    )
    assert "`other-name` (plugins/extra/setup.cfg)" in detail and "`shop`" not in detail


def test_under_is_a_folder_prefix_not_a_string_prefix() -> None:
    folders = frozenset({"plugins/extra"})
    assert under("plugins/extra/models.py", folders)
    assert not under("plugins/extra_more/models.py", folders)
    assert not under("plugins/extra", folders)
