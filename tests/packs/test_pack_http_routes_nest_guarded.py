"""pack-http-routes: NestJS controllers of a module the application imports only under a
condition (`nest_imports`, `nest_guarded`): `ConditionalModule.registerWhen` of
`@nestjs/config` (a predicate over `process.env`, or a variable's name), a list spread in by a
ternary, a list a function of the file returns after an early `return []` (the module
`require`d inside it too). The configuration's defaults decide each condition as they decide a
route's `if`: a module they leave out serves nothing and a finding at the condition names it
and the variable; a condition they cannot decide keeps the routes, flagged; a module imported
any other way too is served. Our own fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest
from routes_harness import document, scanned_both_ways

_MAIN = (
    "import { NestFactory } from '@nestjs/core';\n"
    "import { KioskModule } from './kiosk.module';\n"
    "async function start() {\n"
    "  const app = await NestFactory.create(KioskModule);\n"
    "  await app.listen(3000);\n"
    "}\n"
    "start();\n"
)
_ROOT = (
    "import { Module } from '@nestjs/common';\n"
    "import { ConditionalModule } from '@nestjs/config';\n"
    "import { BeaconModule } from './beacon/beacon.module';\n"
    "import { LedgerModule } from './ledger/ledger.module';\n"
    "import { TillController } from './till.controller';\n"
    "HEAD"
    "@Module({\n"
    "  imports: [\n"
    "    LedgerModule,\n"
    "IMPORTS"
    "  ],\n"
    "  controllers: [TillController],\n"
    "})\n"
    "export class KioskModule {}\n"
)


def _feature(name: str, cls: str) -> dict[str, str]:
    """A feature module `<Cls>Module` declaring `<Cls>Controller`, serving `GET /<name>`."""
    return {
        f"src/{name}/{name}.module.ts": (
            "import { Module } from '@nestjs/common';\n"
            f"import {{ {cls}Controller }} from './{name}.controller';\n"
            f"@Module({{ controllers: [{cls}Controller] }})\n"
            f"export class {cls}Module {{}}\n"
        ),
        f"src/{name}/{name}.controller.ts": (
            "import { Controller, Get } from '@nestjs/common';\n"
            f"@Controller('{name}')\n"
            f"export class {cls}Controller {{\n"
            "  @Get() list() { return []; }\n"
            "}\n"
        ),
    }


def _kiosk(imports: str, head: str = "", **more: str) -> dict[str, str]:
    files = {
        "package.json": '{"name": "kiosk", "dependencies": {"@nestjs/core": "^10.0.0"}}',
        "src/main.ts": _MAIN,
        "src/kiosk.module.ts": _ROOT.replace("IMPORTS", imports).replace("HEAD", head),
        "src/till.controller.ts": (
            "import { Controller, Get } from '@nestjs/common';\n"
            "@Controller('till')\n"
            "export class TillController {\n"
            "  @Get() open() { return 1; }\n"
            "}\n"
        ),
        **_feature("beacon", "Beacon"),
        **_feature("ledger", "Ledger"),
        **_feature("archive", "Archive"),
    }
    files.update(more)
    return files


def _names(files: dict[str, str]) -> set[str]:
    return {str(r["name"]) for r in document(files)["resources"]}


def _findings(files: dict[str, str], code: str) -> list[tuple[str, int, str]]:
    return [
        (str(p["path"]), int(p["line"]), str(f["detail"]))
        for f in document(files)["findings"]
        if f["code"] == code
        for p in f["locations"][:1]
    ]


_WHEN_LISTED = (
    "    ConditionalModule.registerWhen(BeaconModule, (env) => {\n"
    "      return Boolean(env.KIOSK_FEATURES?.split(',')?.includes('beacon'));\n"
    "    }),\n"
)


def test_a_module_registered_when_an_unset_variable_lists_it_serves_nothing() -> None:
    files = _kiosk(_WHEN_LISTED)
    names = _names(files)
    assert "GET /beacon" not in names
    assert {"GET /till", "GET /ledger", "GET /archive"} <= names  # archive: imported by none
    [(file, line, message)] = [
        f for f in _findings(files, "UNRESOLVED_ROUTE") if "BeaconModule" in f[2]
    ]
    assert (file, line) == ("src/kiosk.module.ts", 9)
    assert "process.env.KIOSK_FEATURES unset" in message
    assert "not listed" in message


def test_a_predicate_over_a_variable_a_sample_file_sets_is_undecided_and_kept() -> None:
    files = _kiosk(_WHEN_LISTED, **{".env.example": "KIOSK_FEATURES=beacon,till\n"})
    found = {str(r["name"]): r for r in document(files)["resources"]}
    assert {"GET /till", "GET /ledger", "GET /beacon"} <= set(found)
    assert found["GET /beacon"]["attrs"].get("prefixUnresolved")
    assert not found["GET /ledger"]["attrs"].get("prefixUnresolved")
    assert any("BeaconModule" in m for _, _, m in _findings(files, "UNRESOLVED_PREFIX"))


def test_a_predicate_comparing_a_variable_reads_it_as_an_if_test_does() -> None:
    when = "    ConditionalModule.registerWhen(BeaconModule, (e) => e.BEACON === 'on'),\n"
    assert "GET /beacon" not in _names(_kiosk(when))
    sampled = _kiosk(when, **{".env.example": "BEACON=on\n"})
    assert "GET /beacon" in _names(sampled)


@pytest.mark.parametrize(
    ("sample", "served"), [("", True), ("BEACON_OFF=false\n", False), ("BEACON_OFF=1\n", True)]
)
def test_a_variable_name_condition_is_nests_not_false_test(sample: str, served: bool) -> None:
    """`registerWhen(M, 'X')`: Nest imports M unless X is `'false'` (an unset X imports it)."""
    more = {".env.example": sample} if sample else {}
    files = _kiosk("    ConditionalModule.registerWhen(BeaconModule, 'BEACON_OFF'),\n", **more)
    assert ("GET /beacon" in _names(files)) is served


_OPTIONAL = (
    "import { settings } from './settings';\n"
    "const optionalModules = () => {\n"
    "  if (!settings.archive.enabled) {\n"
    "    return [];\n"
    "  }\n"
    "  const { ArchiveModule } = require('./archive/archive.module');\n"
    "  return [ArchiveModule];\n"
    "};\n"
)
_SETTINGS = "export const settings = { archive: { enabled: process.env.ARCHIVE_ON === 'true' } };\n"


def test_a_module_a_function_returns_after_an_early_return_is_decided() -> None:
    files = _kiosk("    ...optionalModules(),\n", _OPTIONAL, **{"src/settings.ts": _SETTINGS})
    assert "GET /archive" not in _names(files)
    [(file, line, message)] = [
        f for f in _findings(files, "UNRESOLVED_ROUTE") if "ArchiveModule" in f[2]
    ]
    assert (file, line) == ("src/kiosk.module.ts", 8)  # the `if`
    assert "ARCHIVE_ON" in message
    on = _kiosk(
        "    ...optionalModules(),\n",
        _OPTIONAL,
        **{"src/settings.ts": _SETTINGS, ".env.example": "ARCHIVE_ON=true\n"},
    )
    found = {str(r["name"]): r for r in document(on)["resources"]}
    assert "ARCHIVE_ON" in str(found["GET /archive"]["attrs"].get("configDefault"))


def test_a_function_declaration_guarding_with_else_branches() -> None:
    head = (
        "import { ArchiveModule } from './archive/archive.module';\n"
        "function extras() {\n"
        "  if (process.env.ARCHIVE_ON === 'yes') return [ArchiveModule];\n"
        "  else return [];\n"
        "}\n"
    )
    assert "GET /archive" not in _names(_kiosk("    ...extras(),\n", head))


@pytest.mark.parametrize(
    ("entry", "served"),
    [
        ("    ...(process.env.BEACON === 'true' ? [BeaconModule] : []),\n", False),
        ("    ...(process.env.BEACON !== 'true' ? [BeaconModule] : []),\n", True),
        ("    ...(process.env.BEACON ? [] : [BeaconModule]),\n", True),
        ("    ...(process.env.NODE_ENV === 'development' ? [BeaconModule] : []),\n", False),
        ("    ...(process.env.NODE_ENV !== 'test' ? [BeaconModule] : []),\n", True),
        ("    process.env.BEACON ? BeaconModule.forRoot() : LedgerModule,\n", False),
    ],
)
def test_a_list_spread_in_by_a_ternary_is_decided(entry: str, served: bool) -> None:
    files = _kiosk(entry)
    assert ("GET /beacon" in _names(files)) is served
    assert "GET /ledger" in _names(files)
    if not served:
        assert any("BeaconModule" in m for _, _, m in _findings(files, "UNRESOLVED_ROUTE"))


def test_a_configuration_object_with_a_default_decides_a_ternary() -> None:
    head = "const cfg = { beacon: process.env.BEACON || 'on' };\n"
    files = _kiosk("    ...(cfg.beacon ? [BeaconModule] : []),\n", head)
    assert "GET /beacon" in _names(files)


def test_an_undecided_condition_keeps_the_routes_and_says_so() -> None:
    head = "import { existsSync } from 'fs';\n"
    files = _kiosk("    ...(existsSync('/etc/beacon') ? [BeaconModule] : []),\n", head)
    found = {str(r["name"]): r for r in document(files)["resources"]}
    assert found["GET /beacon"]["attrs"].get("prefixUnresolved")
    assert any("existsSync" in m for _, _, m in _findings(files, "UNRESOLVED_PREFIX"))


def test_a_module_imported_another_way_too_is_served() -> None:
    guarded = "    ...(process.env.BEACON === 'true' ? [BeaconModule] : []),\n"
    twice = _kiosk(guarded + "    BeaconModule,\n")
    assert "GET /beacon" in _names(twice)
    elsewhere = _kiosk(
        guarded,
        **{
            "src/ledger/ledger.module.ts": (
                "import { Module } from '@nestjs/common';\n"
                "import { BeaconModule } from '../beacon/beacon.module';\n"
                "import { LedgerController } from './ledger.controller';\n"
                "@Module({ imports: [BeaconModule], controllers: [LedgerController] })\n"
                "export class LedgerModule {}\n"
            )
        },
    )
    assert "GET /beacon" in _names(elsewhere)
    pushed = _kiosk(
        "    ...extra,\n",
        "const extra: unknown[] = [];\n"
        "if (process.env.BEACON === 'true') extra.push(BeaconModule);\n",
    )
    assert "GET /beacon" in _names(pushed)  # a list filled by `push`: not read, kept


def test_a_controller_also_declared_by_a_module_imported_plainly_is_served() -> None:
    files = _kiosk(
        "    ...(process.env.BEACON === 'true' ? [BeaconModule] : []),\n",
        **{
            "src/ledger/ledger.module.ts": (
                "import { Module } from '@nestjs/common';\n"
                "import { BeaconController } from '../beacon/beacon.controller';\n"
                "import { LedgerController } from './ledger.controller';\n"
                "@Module({ controllers: [LedgerController, BeaconController] })\n"
                "export class LedgerModule {}\n"
            )
        },
    )
    assert "GET /beacon" in _names(files)


def test_the_prefilter_changes_nothing_on_guarded_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _kiosk(_WHEN_LISTED + "    ...optionalModules(),\n", _OPTIONAL)
    files["src/settings.ts"] = _SETTINGS
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert "/beacon" not in documents[0] and "/archive" not in documents[0]
    assert "/ledger" in documents[0]


def _beacon_importing(*names: str) -> dict[str, str]:
    """BeaconModule importing (and re-exporting) the given feature modules (written as
    `_feature` makes them)."""
    lines = "".join(
        f"import {{ {n}Module }} from '../{n.lower()}/{n.lower()}.module';\n" for n in names
    )
    listed = ", ".join(f"{n}Module" for n in names)
    return {
        "src/beacon/beacon.module.ts": (
            "import { Module } from '@nestjs/common';\n"
            f"{lines}"
            "import { BeaconController } from './beacon.controller';\n"
            f"@Module({{ imports: [{listed}], controllers: [BeaconController], exports: [{listed}] }})\n"
            "export class BeaconModule {}\n"
        ),
    }


def test_a_module_only_a_left_out_module_imports_is_left_out_too() -> None:
    guarded = "    ...(process.env.BEACON === 'true' ? [BeaconModule] : []),\n"
    files = _kiosk(guarded, **_feature("relay", "Relay"), **_beacon_importing("Relay"))
    names = _names(files)
    assert "GET /beacon" not in names and "GET /relay" not in names
    assert "GET /ledger" in names
    [(file, line, message)] = [
        f for f in _findings(files, "UNRESOLVED_ROUTE") if "BeaconModule" in f[2]
    ]
    assert (file, line) == ("src/kiosk.module.ts", 9)
    assert "modules only it imports" in message


def test_a_module_a_served_module_imports_too_is_served() -> None:
    guarded = "    ...(process.env.BEACON === 'true' ? [BeaconModule] : []),\n"
    files = _kiosk(
        guarded,
        **_feature("relay", "Relay"),
        **_beacon_importing("Relay"),
        **{
            "src/ledger/ledger.module.ts": (
                "import { Module } from '@nestjs/common';\n"
                "import { RelayModule } from '../relay/relay.module';\n"
                "import { LedgerController } from './ledger.controller';\n"
                "@Module({ imports: [RelayModule], controllers: [LedgerController] })\n"
                "export class LedgerModule {}\n"
            )
        },
    )
    names = _names(files)
    assert "GET /beacon" not in names
    assert "GET /relay" in names


def test_a_list_two_modules_spread_in_keeps_both_importers() -> None:
    """One list spread into a left-out module's imports and a served one's: imported."""
    shared = "import { RelayModule } from '../relay/relay.module';\nexport const SHARED = [RelayModule];\n"
    beacon = (
        "import { Module } from '@nestjs/common';\n"
        "import { RelayModule } from '../relay/relay.module';\n"
        "import { BeaconController } from './beacon.controller';\n"
        "const SHARED = [RelayModule];\n"
        "@Module({ imports: [...SHARED], controllers: [BeaconController] })\n"
        "export class BeaconModule {}\n"
        "@Module({ imports: [...SHARED] })\n"
        "export class BeaconCoreModule {}\n"
    )
    files = _kiosk(
        "    ...(process.env.BEACON === 'true' ? [BeaconModule] : []),\n    BeaconCoreModule,\n",
        "import { BeaconCoreModule } from './beacon/beacon.module';\n",
        **_feature("relay", "Relay"),
        **{"src/beacon/beacon.module.ts": beacon, "src/shared.ts": shared},
    )
    names = _names(files)
    assert "GET /beacon" not in names
    assert "GET /relay" in names


def test_modules_importing_each_other_beneath_a_left_out_one_are_left_out() -> None:
    """A cycle (`forwardRef`) below a left-out module is not reached from the application
    either: both its modules serve nothing."""
    relay = (
        "import { Module, forwardRef } from '@nestjs/common';\n"
        "import { BeaconModule } from '../beacon/beacon.module';\n"
        "import { RelayController } from './relay.controller';\n"
        "@Module({ imports: [forwardRef(() => BeaconModule)], controllers: [RelayController] })\n"
        "export class RelayModule {}\n"
    )
    guarded = "    ...(process.env.BEACON === 'true' ? [BeaconModule] : []),\n"
    files = {
        **_kiosk(guarded),
        **_feature("relay", "Relay"),
        **_beacon_importing("Relay"),
        "src/relay/relay.module.ts": relay,
    }
    names = _names(files)
    assert "GET /beacon" not in names and "GET /relay" not in names
    assert "GET /ledger" in names


def test_a_plain_file_importing_the_module_keeps_it_through_the_prefilter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A list kept in a file that names no framework (`export const EXTRA = [BeaconModule]`)
    imports the module in a way not read: it is served, whether that file is parsed or not."""
    files = _kiosk(
        "    ...(process.env.BEACON === 'true' ? [BeaconModule] : []),\n    ...EXTRA,\n",
        "import { EXTRA } from './extra';\n",
        **{
            "src/extra.ts": (
                "import { BeaconModule } from './beacon/beacon.module';\n"
                "export const EXTRA = [BeaconModule];\n"
            )
        },
    )
    documents, _ = scanned_both_ways(tmp_path, files, monkeypatch)
    assert documents[0] == documents[1]
    assert "/beacon" in documents[0]
