"""pack-js-tables names a Mongoose collection, a Sequelize table or a TypeORM table by the rules of
the versions the repository's `package.json` declares. The names are what each library gave when
run (bench/real_repos/derive/js_orm_names.js; TypeORM's `DefaultNamingStrategy` called), not read
from its code: Mongoose 4.13, 5.13, 6.13, 7.8, 8.24, 9.13, Sequelize 4.44, 5.22, 6.37 and
TypeORM 0.1.20, 0.2.0, 0.2.35 (0.2.36 alike), 0.2.38 (0.2.39, 0.2.45, 0.3.20 alike)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

import pack_js_tables
from packs.js_naming import pluralize_inflection, pluralize_mongoose, snake_case, underscore
from packs.js_tables import SEQUELIZE_VERSIONS

MONGOOSE_ERA = (0, 0, 1, 2, 2, 3)  # of mongoose 4, 5, 6, 7, 8, 9 (`MONGOOSE_VERSIONS`)
SEQUELIZE_INFLECTION = (0, 0, 1)  # of sequelize 4.44, 5.22, 6.37: inflection 1.12, 1.12, 1.13

# (model, its collection under mongoose 4, 5, 6, 7, 8, 9, its table under sequelize 4, 5, 6)
RUN: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ('User', ('users', 'users', 'users', 'users', 'users', 'users'), ('Users', 'Users', 'Users')),
    ('Person', ('people', 'people', 'people', 'people', 'people', 'people'), ('People', 'People', 'People')),
    ('Child', ('children', 'children', 'children', 'children', 'children', 'children'), ('Children', 'Children', 'Children')),
    ('Mouse', ('mice', 'mice', 'mice', 'mice', 'mice', 'mice'), ('Mice', 'Mice', 'Mice')),
    ('Box', ('boxes', 'boxes', 'boxes', 'boxes', 'boxes', 'boxes'), ('Boxes', 'Boxes', 'Boxes')),
    ('Status', ('status', 'status', 'status', 'status', 'status', 'status'), ('Statuses', 'Statuses', 'Statuses')),
    ('Alias', ('aliases', 'aliases', 'aliases', 'aliases', 'aliases', 'aliases'), ('Aliases', 'Aliases', 'Aliases')),
    ('Category', ('categories', 'categories', 'categories', 'categories', 'categories', 'categories'), ('Categories', 'Categories', 'Categories')),
    ('Analysis', ('analyses', 'analyses', 'analyses', 'analyses', 'analyses', 'analyses'), ('Analyses', 'Analyses', 'Analyses')),
    ('Octopus', ('octopi', 'octopi', 'octopi', 'octopi', 'octopi', 'octopi'), ('Octopi', 'Octopi', 'Octopuses')),
    ('Virus', ('viri', 'viri', 'viri', 'viri', 'viri', 'viruses'), ('Viri', 'Viri', 'Viruses')),
    ('Cactus', ('cactus', 'cactus', 'cactus', 'cactus', 'cactus', 'cacti'), ('Cactus', 'Cactus', 'Cactus')),
    ('Focus', ('focus', 'focus', 'focus', 'focus', 'focus', 'foci'), ('Focus', 'Focus', 'Focus')),
    ('Fungus', ('fungus', 'fungus', 'fungus', 'fungus', 'fungus', 'fungi'), ('Fungus', 'Fungus', 'Fungus')),
    ('Nucleus', ('nucleus', 'nucleus', 'nucleus', 'nucleus', 'nucleus', 'nuclei'), ('Nucleus', 'Nucleus', 'Nucleus')),
    ('Bonus', ('bonus', 'bonus', 'bonus', 'bonus', 'bonus', 'bonus'), ('Bonus', 'Bonus', 'Bonuses')),
    ('Grammar', ('grammars', 'grammars', 'grammars', 'grammars', 'grammars', 'grammars'), ('Grammar', 'Grammar', 'Grammars')),
    ('Database', ('databases', 'databases', 'databases', 'databases', 'databases', 'databases'), ('Databases', 'Databases', 'Databases')),
    ('Drive', ('drives', 'drives', 'drives', 'drives', 'drives', 'drives'), ('Drives', 'Drives', 'Drives')),
    ('Sheep', ('sheep', 'sheep', 'sheep', 'sheep', 'sheep', 'sheep'), ('Sheep', 'Sheep', 'Sheep')),
    ('Fish', ('fish', 'fish', 'fish', 'fish', 'fish', 'fish'), ('Fishes', 'Fishes', 'Fishes')),
    ('Media', ('media', 'media', 'media', 'media', 'media', 'media'), ('Media', 'Media', 'Media')),
    ('Datum', ('data', 'data', 'data', 'data', 'data', 'data'), ('Data', 'Data', 'Data')),
    ('Index', ('indexes', 'indexes', 'indexes', 'indexes', 'indexes', 'indexes'), ('Indices', 'Indices', 'Indices')),
    ('Matrix', ('matrixes', 'matrixes', 'matrixes', 'matrixes', 'matrixes', 'matrixes'), ('Matrices', 'Matrices', 'Matrices')),
    ('Vertex', ('vertexes', 'vertexes', 'vertexes', 'vertexes', 'vertexes', 'vertexes'), ('Vertices', 'Vertices', 'Vertices')),
    ('Knife', ('knives', 'knives', 'knives', 'knives', 'knives', 'knives'), ('Knives', 'Knives', 'Knives')),
    ('Wife', ('wives', 'wives', 'wives', 'wives', 'wives', 'wives'), ('Wives', 'Wives', 'Wives')),
    ('Life', ('lives', 'lives', 'lives', 'lives', 'lives', 'lives'), ('Lives', 'Lives', 'Lives')),
    ('Leaf', ('leafs', 'leafs', 'leafs', 'leafs', 'leafs', 'leafs'), ('Leafs', 'Leafs', 'Leafs')),
    ('Wolf', ('wolves', 'wolves', 'wolves', 'wolves', 'wolves', 'wolves'), ('Wolves', 'Wolves', 'Wolves')),
    ('Half', ('halves', 'halves', 'halves', 'halves', 'halves', 'halves'), ('Halves', 'Halves', 'Halves')),
    ('Quiz', ('quizzes', 'quizzes', 'quizzes', 'quizzes', 'quizzes', 'quizzes'), ('Quizzes', 'Quizzes', 'Quizzes')),
    ('Bus', ('buses', 'buses', 'buses', 'buses', 'buses', 'buses'), ('Buses', 'Buses', 'Buses')),
    ('Tomato', ('tomatoes', 'tomatoes', 'tomatoes', 'tomatoes', 'tomatoes', 'tomatoes'), ('Tomatoes', 'Tomatoes', 'Tomatoes')),
    ('Hero', ('heros', 'heros', 'heros', 'heros', 'heros', 'heros'), ('Heros', 'Heros', 'Heros')),
    ('Man', ('men', 'men', 'men', 'men', 'men', 'men'), ('Men', 'Men', 'Men')),
    ('Woman', ('women', 'women', 'women', 'women', 'women', 'women'), ('Women', 'Women', 'Women')),
    ('Human', ('humen', 'humen', 'humen', 'humans', 'humans', 'humans'), ('Humans', 'Humans', 'Humans')),
    ('Superhuman', ('superhumen', 'superhumen', 'superhumen', 'superhumans', 'superhumans', 'superhumans'), ('Superhumans', 'Superhumans', 'Superhumans')),
    ('Shoe', ('shoes', 'shoes', 'shoes', 'shoes', 'shoes', 'shoes'), ('Shoes', 'Shoes', 'Shoes')),
    ('Movie', ('movies', 'movies', 'movies', 'movies', 'movies', 'movies'), ('Movies', 'Movies', 'Movies')),
    ('News', ('news', 'news', 'news', 'news', 'news', 'news'), ('News', 'News', 'News')),
    ('Equipment', ('equipment', 'equipment', 'equipment', 'equipment', 'equipment', 'equipment'), ('Equipment', 'Equipment', 'Equipment')),
    ('Information', ('information', 'information', 'information', 'information', 'information', 'information'), ('Information', 'Information', 'Information')),
    ('UserProfile', ('userprofiles', 'userprofiles', 'userprofiles', 'userprofiles', 'userprofiles', 'userprofiles'), ('UserProfiles', 'UserProfiles', 'UserProfiles')),
    ('APIKey', ('apikeys', 'apikeys', 'apikeys', 'apikeys', 'apikeys', 'apikeys'), ('APIKeys', 'APIKeys', 'APIKeys')),
    ('HTMLPage', ('htmlpages', 'htmlpages', 'htmlpages', 'htmlpages', 'htmlpages', 'htmlpages'), ('HTMLPages', 'HTMLPages', 'HTMLPages')),
    ('UserV2', ('userv2', 'userv2', 'userv2', 'userv2', 'userv2', 'userv2'), ('UserV2s', 'UserV2s', 'UserV2s')),
    ('Address', ('addresses', 'addresses', 'addresses', 'addresses', 'addresses', 'addresses'), ('Addresses', 'Addresses', 'Addresses')),
    ('Campus', ('campus', 'campus', 'campus', 'campus', 'campus', 'campus'), ('Campuses', 'Campuses', 'Campuses')),
    ('Canvas', ('canvas', 'canvas', 'canvas', 'canvas', 'canvas', 'canvas'), ('Canvases', 'Canvases', 'Canvases')),
    ('Thesis', ('theses', 'theses', 'theses', 'theses', 'theses', 'theses'), ('Theses', 'Theses', 'Theses')),
    ('Axis', ('axes', 'axes', 'axes', 'axes', 'axes', 'axes'), ('Axes', 'Axes', 'Axes')),
    ('Testis', ('testes', 'testes', 'testes', 'testes', 'testes', 'testes'), ('Testes', 'Testes', 'Testes')),
    ('Ox', ('oxen', 'oxen', 'oxen', 'oxen', 'oxen', 'oxen'), ('Oxen', 'Oxen', 'Oxen')),
    ('Foot', ('foots', 'foots', 'foots', 'foots', 'foots', 'foots'), ('feet', 'feet', 'feet')),
    ('Tooth', ('tooths', 'tooths', 'tooths', 'tooths', 'tooths', 'tooths'), ('teeth', 'teeth', 'teeth')),
    ('Goose', ('gooses', 'gooses', 'geese', 'geese', 'geese', 'geese'), ('geese', 'geese', 'geese')),
    ('Mongoose', ('mongooses', 'mongooses', 'mongooses', 'mongooses', 'mongooses', 'mongooses'), ('Mongooses', 'Mongooses', 'Mongooses')),
    ('Series', ('series', 'series', 'series', 'series', 'series', 'series'), ('Series', 'Series', 'Series')),
    ('Species', ('species', 'species', 'species', 'species', 'species', 'species'), ('Species', 'Species', 'Species')),
    ('Crisis', ('crises', 'crises', 'crises', 'crises', 'crises', 'crises'), ('Crises', 'Crises', 'Crises')),
    ('Hive', ('hives', 'hives', 'hives', 'hives', 'hives', 'hives'), ('Hives', 'Hives', 'Hives')),
    ('Archive', ('archives', 'archives', 'archives', 'archives', 'archives', 'archives'), ('Archives', 'Archives', 'Archives')),
    ('Move', ('moves', 'moves', 'moves', 'moves', 'moves', 'moves'), ('Moves', 'Moves', 'Moves')),
    ('Staff', ('staffs', 'staffs', 'staffs', 'staffs', 'staffs', 'staffs'), ('Staffs', 'Staffs', 'Staffs')),
    ('Chief', ('chiefs', 'chiefs', 'chiefs', 'chiefs', 'chiefs', 'chiefs'), ('Chiefs', 'Chiefs', 'Chiefs')),
    ('Roof', ('roofs', 'roofs', 'roofs', 'roofs', 'roofs', 'roofs'), ('Roofs', 'Roofs', 'Roofs')),
    ('Safe', ('saves', 'saves', 'saves', 'saves', 'saves', 'saves'), ('Saves', 'Saves', 'Saves')),
    ('Cafe', ('caves', 'caves', 'caves', 'caves', 'caves', 'caves'), ('Caves', 'Caves', 'Caves')),
    ('Data', ('datas', 'datas', 'datas', 'datas', 'datas', 'datas'), ('Data', 'Data', 'Data')),
    ('People', ('peoples', 'peoples', 'peoples', 'peoples', 'peoples', 'peoples'), ('People', 'People', 'People')),
    ('Men', ('mens', 'mens', 'mens', 'mens', 'mens', 'mens'), ('Men', 'Men', 'Men')),
    ('Children', ('childrens', 'childrens', 'childrens', 'childrens', 'childrens', 'childrens'), ('Children', 'Children', 'Children')),
    ('Rice', ('rice', 'rice', 'rice', 'rice', 'rice', 'rice'), ('Rice', 'Rice', 'Rice')),
    ('Money', ('money', 'money', 'money', 'money', 'money', 'money'), ('Money', 'Money', 'Money')),
    ('Deer', ('deer', 'deer', 'deer', 'deer', 'deer', 'deer'), ('Deer', 'Deer', 'Deer')),
    ('Energy', ('energy', 'energy', 'energy', 'energy', 'energy', 'energy'), ('Energies', 'Energies', 'Energies')),
    ('Justice', ('justice', 'justice', 'justice', 'justice', 'justice', 'justice'), ('Justices', 'Justices', 'Justices')),
    ('Expertise', ('expertise', 'expertise', 'expertise', 'expertise', 'expertise', 'expertise'), ('Expertises', 'Expertises', 'Expertises')),
    ('Mice', ('mices', 'mices', 'mices', 'mices', 'mices', 'mices'), ('Mice', 'Mice', 'Mice')),
    ('Criteria', ('criterias', 'criterias', 'criterias', 'criterias', 'criterias', 'criterias'), ('Criteria', 'Criteria', 'Criteria')),
    ('Criterion', ('criterions', 'criterions', 'criterions', 'criterions', 'criterions', 'criterions'), ('Criteria', 'Criteria', 'Criteria')),
    ('Genus', ('genus', 'genus', 'genus', 'genus', 'genus', 'genus'), ('genera', 'genera', 'genera')),
    ('Whereas', ('whereas', 'whereas', 'whereas', 'whereas', 'whereas', 'whereas'), ('Whereases', 'Whereases', 'Whereases')),
    ('Phenomenon', ('phenomenons', 'phenomenons', 'phenomenons', 'phenomenons', 'phenomenons', 'phenomenons'), ('Phenomenons', 'Phenomenons', 'Phenomenons')),
    ('Radius', ('radius', 'radius', 'radius', 'radius', 'radius', 'radius'), ('Radius', 'Radius', 'Radius')),
    ('Zombie', ('zombies', 'zombies', 'zombies', 'zombies', 'zombies', 'zombies'), ('Zombies', 'Zombies', 'Zombies')),
    ('Cookie', ('cookies', 'cookies', 'cookies', 'cookies', 'cookies', 'cookies'), ('Cookies', 'Cookies', 'Cookies')),
    ('Todo', ('todos', 'todos', 'todos', 'todos', 'todos', 'todos'), ('Todos', 'Todos', 'Todos')),
    ('Photo', ('photos', 'photos', 'photos', 'photos', 'photos', 'photos'), ('Photos', 'Photos', 'Photos')),
    ('Piano', ('pianos', 'pianos', 'pianos', 'pianos', 'pianos', 'pianos'), ('Pianos', 'Pianos', 'Pianos')),
    ('Echo', ('echos', 'echos', 'echos', 'echos', 'echos', 'echos'), ('Echos', 'Echos', 'Echos')),
    ('A', ('as', 'as', 'as', 'as', 'as', 'as'), ('As', 'As', 'As')),
    ('S', ('s', 's', 's', 's', 's', 's'), ('s', 's', 's')),
    ('Log_Entry', ('log_entries', 'log_entries', 'log_entries', 'log_entries', 'log_entries', 'log_entries'), ('Log_Entries', 'Log_Entries', 'Log_Entries')),
    ('x', ('xes', 'xes', 'xes', 'xes', 'xes', 'xes'), ('xes', 'xes', 'xes')),
    ('MyURL', ('myurls', 'myurls', 'myurls', 'myurls', 'myurls', 'myurls'), ('MyURLs', 'MyURLs', 'MyURLs')),
    ('Schema', ('schemas', 'schemas', 'schemas', 'schemas', 'schemas', 'schemas'), ('Schemas', 'Schemas', 'Schemas')),
    ('Summons', ('summons', 'summons', 'summons', 'summons', 'summons', 'summons'), ('Summonses', 'Summonses', 'Summonses')),
    ('Curve', ('curves', 'curves', 'curves', 'curves', 'curves', 'curves'), ('Curves', 'Curves', 'Curves')),
    ('Glove', ('gloves', 'gloves', 'gloves', 'gloves', 'gloves', 'gloves'), ('Gloves', 'Gloves', 'Gloves')),
    ('Sales', ('sales', 'sales', 'sales', 'sales', 'sales', 'sales'), ('Sales', 'Sales', 'Sales')),
    ('Aircraft', ('aircrafts', 'aircrafts', 'aircrafts', 'aircrafts', 'aircrafts', 'aircrafts'), ('Aircraft', 'Aircraft', 'Aircraft')),
    ('Police', ('polices', 'polices', 'polices', 'polices', 'polices', 'polices'), ('Police', 'Police', 'Police')),
)  # fmt: skip


@pytest.mark.parametrize(("model", "collections", "tables"), RUN, ids=[r[0] for r in RUN])
def test_each_version_names_as_its_library_did_when_run(
    model: str, collections: tuple[str, ...], tables: tuple[str, ...]
) -> None:
    assert tuple(pluralize_mongoose(model, era) for era in MONGOOSE_ERA) == collections
    assert tuple(pluralize_inflection(model, era) for era in SEQUELIZE_INFLECTION) == tables


# (model, option set, its table under sequelize 4.44, 5.22, 6.37)
RUN_OPTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ('User', 'underscored', ('Users', 'users', 'users')),
    ('User', 'underscoredAll', ('users', 'Users', 'Users')),
    ('UserProfile', 'underscored', ('UserProfiles', 'user_profiles', 'user_profiles')),
    ('UserProfile', 'underscoredAll', ('user_profiles', 'UserProfiles', 'UserProfiles')),
    ('APIKey', 'underscored', ('APIKeys', 'a_p_i_keys', 'a_p_i_keys')),
    ('APIKey', 'underscoredAll', ('a_p_i_keys', 'APIKeys', 'APIKeys')),
    ('Octopus', 'underscored', ('Octopi', 'octopi', 'octopuses')),
    ('Octopus', 'underscoredAll', ('octopi', 'Octopi', 'Octopuses')),
    ('Person', 'underscored', ('People', 'people', 'people')),
    ('Person', 'underscoredAll', ('people', 'People', 'People')),
)  # fmt: skip


@pytest.mark.parametrize(("model", "option", "tables"), RUN_OPTIONS)
def test_sequelize_4_underscores_tables_by_underscored_all_later_ones_by_underscored(
    model: str, option: str, tables: tuple[str, ...]
) -> None:
    by_4 = option == "underscoredAll"  # Sequelize 4's table option; 5 and 6 read `underscored`
    plurals = [pluralize_inflection(model, era) for era in SEQUELIZE_INFLECTION]
    expected = (
        underscore(plurals[0]) if by_4 else plurals[0],
        plurals[1] if by_4 else underscore(plurals[1]),
        plurals[2] if by_4 else underscore(plurals[2]),
    )
    assert expected == tables


MODELS = """\
const mongoose = require('mongoose');
const { Sequelize, DataTypes } = require('sequelize');

const sequelize = new Sequelize('db', 'u', 'p', { dialect: 'postgres' });
const Human = mongoose.model('Human', new mongoose.Schema({ name: String }));
const Note = mongoose.model('Note', new mongoose.Schema({ text: String }));
const Octopus = sequelize.define('Octopus', { arms: DataTypes.INTEGER });
const LineItem = sequelize.define('LineItem', { qty: DataTypes.INTEGER }, { underscoredAll: true });
const Invoice = sequelize.define('Invoice', { total: DataTypes.INTEGER }, { underscored: true });
"""
"""Names the versions disagree on (`Human`, `Octopus`, `LineItem`, `Invoice`) and one they do
not (`Note`)."""


def _scan(root: Path) -> dict[str, Any]:
    filtered = pack_js_tables.make_scanner()
    everything = pack_js_tables.make_scanner(parse_all=True)
    filtered.root = everything.root = str(root)
    document = filtered.discover(["."])
    assert document == everything.discover(["."])
    return document


def _repo(tmp_path: Path, dependencies: dict[str, str] | None) -> dict[str, Any]:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "models.js").write_text(MODELS, encoding="utf-8")
    if dependencies is not None:
        manifest = {"name": "shop", "dependencies": dependencies}
        (tmp_path / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    return _scan(tmp_path)


def _names(document: dict[str, Any]) -> list[str]:
    return [r["name"] for r in document["resources"]]


def _flagged(document: dict[str, Any]) -> list[int]:
    return [
        place["line"]
        for finding in document["findings"]
        if finding["code"] == "VERSION_DEPENDENT_NAME"
        for place in finding["locations"]
    ]


@pytest.mark.parametrize(
    ("dependencies", "names"),
    [
        ({"mongoose": "^5.13.0", "sequelize": "^4.44.0"},
         ["humen", "notes", "Octopi", "line_items", "Invoices"]),
        ({"mongoose": "~6.13.0", "sequelize": "5.22.5"},
         ["humen", "notes", "Octopi", "LineItems", "invoices"]),
        ({"mongoose": "^8.0.0", "sequelize": ">=6.6.3 <7"},
         ["humans", "notes", "Octopuses", "LineItems", "invoices"]),
    ],
    ids=["mongoose 5, sequelize 4", "mongoose 6, sequelize 5", "mongoose 8, sequelize 6.6.3+"],
)  # fmt: skip
def test_declared_versions_choose_the_rules(
    tmp_path: Path, dependencies: dict[str, str], names: list[str]
) -> None:
    document = _repo(tmp_path, dependencies)
    assert _names(document) == names
    assert _flagged(document) == []


def test_where_the_declared_ranges_admit_several_rules_the_newest_is_listed_and_said(
    tmp_path: Path,
) -> None:
    document = _repo(tmp_path, {"mongoose": ">=5", "sequelize": "^6.0.0"})
    assert _names(document) == ["humans", "notes", "Octopuses", "LineItems", "invoices"]
    assert _flagged(document) == [5, 7]  # Human (5 and 6 say humen), Octopus (6 before 6.6.3)
    details = {f["locations"][0]["line"]: f["detail"] for f in document["findings"]}
    assert "`humen` before 7.0; `humans` from 7.0" in details[5]
    assert "package.json:1 (>=5)" in details[5]
    assert "`Octopi` before 6.6.3; `Octopuses` from 6.6.3" in details[7]


def test_without_a_manifest_every_version_is_admitted(tmp_path: Path) -> None:
    document = _repo(tmp_path, None)
    assert _names(document) == ["humans", "notes", "Octopuses", "LineItems", "invoices"]
    assert _flagged(document) == [5, 7, 8, 9]
    assert "declares no version of sequelize" in " ".join(f["detail"] for f in document["findings"])


def test_sequelize_versions_are_where_the_runs_changed() -> None:
    assert SEQUELIZE_VERSIONS == ((), (5,), (6, 6, 3))


# (class, its table under TypeORM 0.1.20, 0.2.0, 0.2.35, 0.2.38: one per `TYPEORM_VERSIONS` era)
RUN_TYPEORM: tuple[tuple[str, tuple[str, ...]], ...] = (
    ('HTMLParser', ('h_t_m_l_parser', 'html_parser', 'html_parser', 'html_parser')),
    ('EditableHTML', ('editable_h_t_m_l', 'editable_html', 'editable_html', 'editable_html')),
    ('ABTest', ('a_b_test', 'ab_test', 'ab_test', 'ab_test')),
    ('UserV2', ('user_v2', 'user_v2', 'user_v2', 'user_v2')),
    ('OAuth2Client', ('o_auth2_client', 'o_auth2_client', 'o_auth2client', 'o_auth2_client')),
    ('APIKey', ('a_p_i_key', 'api_key', 'api_key', 'api_key')),
    ('IOError', ('i_o_error', 'io_error', 'io_error', 'io_error')),
    ('HTTP2Server', ('h_t_t_p2_server', 'http2_server', 'http2server', 'http2_server')),
    ('Item3D', ('item3_d', 'item3d', 'item3d', 'item3_d')),
    ('UserID', ('user_i_d', 'user_id', 'user_id', 'user_id')),
    ('My_Model', ('my__model', 'my__model', 'my_model', 'my_model')),
    ('X', ('x', 'x', 'x', 'x')),
    ('Log_Entry', ('log__entry', 'log__entry', 'log_entry', 'log_entry')),
    ('MyURL', ('my_u_r_l', 'my_url', 'my_url', 'my_url')),
    ('UserProfile', ('user_profile', 'user_profile', 'user_profile', 'user_profile')),
    ('Person', ('person', 'person', 'person', 'person')),
    ('Datum', ('datum', 'datum', 'datum', 'datum')),
    ('HTMLPage', ('h_t_m_l_page', 'html_page', 'html_page', 'html_page')),
)  # fmt: skip


@pytest.mark.parametrize(("entity", "tables"), RUN_TYPEORM, ids=[r[0] for r in RUN_TYPEORM])
def test_typeorm_snake_case_by_version(entity: str, tables: tuple[str, ...]) -> None:
    assert tuple(snake_case(entity, era) for era in range(4)) == tables


ENTITIES = """\
import { Entity, PrimaryGeneratedColumn, ManyToMany, JoinTable } from "typeorm";

@Entity()
export class Tag2Label {
  @PrimaryGeneratedColumn()
  id: number;
}

@Entity()
export class HTMLPage {
  @PrimaryGeneratedColumn()
  id: number;

  @ManyToMany(() => Tag2Label)
  @JoinTable()
  relatedTag2Labels: Tag2Label[];
}
"""
"""Two entities and their junction, each named by the default strategy, which changed."""


@pytest.mark.parametrize(
    ("typeorm", "names"),
    [
        ("0.1.20", ["tag2_label", "h_t_m_l_page", "h_t_m_l_page_related_tag2_labels_tag2_label"]),
        ("0.2.30", ["tag2_label", "html_page", "html_page_related_tag2_labels_tag2_label"]),
        ("0.2.36", ["tag2label", "html_page", "html_page_related_tag2labels_tag2label"]),
        ("^0.3.20", ["tag2_label", "html_page", "html_page_related_tag2_labels_tag2_label"]),
    ],
)  # fmt: skip
def test_typeorm_entities_and_junctions_by_the_declared_version(
    tmp_path: Path, typeorm: str, names: list[str]
) -> None:
    """The junction is `snakeCase(owner table + member + target table)` of the same version (as
    TypeORM's `joinTableName` gave them when run)."""
    (tmp_path / "page.entity.ts").write_text(ENTITIES, encoding="utf-8")
    (tmp_path / "package.json").write_text(json.dumps({"dependencies": {"typeorm": typeorm}}))
    document = _scan(tmp_path)
    assert _names(document) == names
    assert _flagged(document) == []


def test_typeorm_range_across_a_change_lists_the_newest_and_says_so(tmp_path: Path) -> None:
    (tmp_path / "page.entity.ts").write_text(ENTITIES, encoding="utf-8")
    (tmp_path / "package.json").write_text(json.dumps({"dependencies": {"typeorm": "^0.2.30"}}))
    document = _scan(tmp_path)
    assert _names(document) == [
        "tag2_label", "html_page", "html_page_related_tag2_labels_tag2_label"
    ]  # fmt: skip
    assert _flagged(document) == [3, 15]  # Tag2Label (0.2.35–0.2.37: tag2label), the junction


def test_editing_package_json_changes_the_next_document(tmp_path: Path) -> None:
    """`package.json` is memoized per file like source is: a changed range is read again by the
    same scanner (its pre-filter on), and the names follow it."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "models.js").write_text(MODELS, encoding="utf-8")
    manifest = tmp_path / "package.json"
    manifest.write_text(json.dumps({"dependencies": {"mongoose": "5.13.2"}}), encoding="utf-8")
    scanner = pack_js_tables.make_scanner()
    scanner.root = str(tmp_path)
    assert _names(scanner.discover(["."]))[0] == "humen"
    manifest.write_text(json.dumps({"dependencies": {"mongoose": "8.13.2"}}), encoding="utf-8")
    os.utime(manifest, ns=(1, 1))  # same size: a stamp the memo cannot have seen
    assert _names(scanner.discover(["."]))[0] == "humans"
