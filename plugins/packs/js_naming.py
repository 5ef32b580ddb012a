"""How JavaScript ORMs name a table or collection they are not given a name for: Sequelize's
plurals (the `inflection` package) and `underscored`, Mongoose's plurals, TypeORM's snake_case.
Pure functions of a name; `js_tables` applies them."""

from __future__ import annotations

import functools
import re

_INFLECTION_UNCOUNTABLE = frozenset(
    {
        "accommodation", "adulthood", "advertising", "advice", "aggression", "aid", "air",
        "aircraft", "alcohol", "anger", "applause", "arithmetic", "assistance", "athletics",
        "bacon", "baggage", "beef", "biology", "blood", "botany", "bread", "butter", "carbon",
        "cardboard", "cash", "chalk", "chaos", "chess", "countryside", "crossroads", "dancing",
        "deer", "dignity", "dirt", "dust", "economics", "education", "electricity",
        "engineering", "enjoyment", "envy", "equipment", "ethics", "evidence", "evolution",
        "fame", "fiction", "flour", "flu", "food", "fuel", "fun", "furniture", "gallows",
        "garbage", "garlic", "genetics", "gold", "golf", "gossip", "grammar", "gratitude",
        "grief", "guilt", "gymnastics", "happiness", "hardware", "harm", "hate", "hatred",
        "health", "heat", "help", "homework", "honesty", "honey", "hospitality", "housework",
        "humour", "hunger", "hydrogen", "ice", "importance", "inflation", "information",
        "innocence", "iron", "irony", "jam", "jewelry", "judo", "karate", "knowledge", "lack",
        "laughter", "lava", "leather", "leisure", "lightning", "linguine", "linguini",
        "linguistics", "literature", "litter", "livestock", "logic", "loneliness", "luck",
        "luggage", "macaroni", "machinery", "magic", "management", "mankind", "marble",
        "mathematics", "mayonnaise", "measles", "methane", "milk", "minus", "money", "mud",
        "mumps", "music", "nature", "news", "nitrogen", "nonsense", "nurture", "nutrition",
        "obedience", "obesity", "oxygen", "pasta", "patience", "physics", "poetry", "pollution",
        "poverty", "pride", "psychology", "publicity", "punctuation", "quartz", "racism",
        "relaxation", "reliability", "research", "respect", "revenge", "rice", "rubbish", "rum",
        "safety", "scenery", "seafood", "seaside", "series", "shame", "sheep", "shopping",
        "sleep", "smoke", "smoking", "snow", "soap", "software", "soil", "spaghetti", "species",
        "steam", "stuff", "stupidity", "sunshine", "symmetry", "tennis", "thirst", "thunder",
        "timber", "traffic", "transportation", "trust", "underwear", "unemployment", "unity",
        "validity", "veal", "vegetarianism", "vegetation", "vengeance", "violence", "vitality",
        "warmth", "wealth", "weather", "welfare", "wheat", "wildlife", "wisdom", "yoga", "zinc",
        "zoology",
    }
)  # fmt: skip
"""`inflection` 1.12.0's uncountable words (checked against the whole lower-cased name, as it
does), read from its source."""

_I = re.IGNORECASE
_INFLECTION_1_12 = (
        ('^(m|wom)en$', None),
        ('(pe)ople$', None),
        ('(child)ren$', None),
        ('([ti])a$', None),
        ('((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)ses$', None),
        ('(hi|ti)ves$', None),
        ('(curve)s$', None),
        ('([lr])ves$', None),
        ('([^fo])ves$', None),
        ('([^aeiouy]|qu)ies$', None),
        ('(s)eries$', None),
        ('(m)ovies$', None),
        ('(x|ch|ss|sh)es$', None),
        ('([m|l])ice$', None),
        ('(bus)es$', None),
        ('(o)es$', None),
        ('(shoe)s$', None),
        ('(cris|ax|test)es$', None),
        ('(octop|vir)i$', None),
        ('(alias|canvas|status|campus)es$', None),
        ('^(summons)es$', None),
        ('^(ox)en', None),
        ('(matr)ices$', None),
        ('^feet$', None),
        ('^teeth$', None),
        ('^geese$', None),
        ('(quiz)zes$', None),
        ('^(whereas)es$', None),
        ('^(criteri)a$', None),
        ('^genera$', None),
        ('^(m|wom)an$', '$1en'),
        ('(pe)rson$', '$1ople'),
        ('(child)$', '$1ren'),
        ('^(ox)$', '$1en'),
        ('(ax|test)is$', '$1es'),
        ('(octop|vir)us$', '$1i'),
        ('(alias|status|canvas|campus)$', '$1es'),
        ('^(summons)$', '$1es'),
        ('(bu)s$', '$1ses'),
        ('(buffal|tomat|potat)o$', '$1oes'),
        ('([ti])um$', '$1a'),
        ('sis$', 'ses'),
        ('(?:([^f])fe|([lr])f)$', '$1$2ves'),
        ('(hi|ti)ve$', '$1ves'),
        ('([^aeiouy]|qu)y$', '$1ies'),
        ('(matr)ix$', '$1ices'),
        ('(vert|ind)ex$', '$1ices'),
        ('(x|ch|ss|sh)$', '$1es'),
        ('([m|l])ouse$', '$1ice'),
        ('^foot$', 'feet'),
        ('^tooth$', 'teeth'),
        ('^goose$', 'geese'),
        ('(quiz)$', '$1zes'),
        ('^(whereas)$', '$1es'),
        ('^(criteri)on$', '$1a'),
        ('^genus$', 'genera'),
        ('s$', 's'),
        ('$', 's'),
)  # fmt: skip
"""`inflection` 1.12.0's plural rules, in its order (a rule without a replacement: the word is
already plural and stays): what Sequelize before 6.6.3 applies."""
_INFLECTION_1_13_CHANGES = {
    "(octop|vir)i$": "(octop|vir)uses$",
    "^(summons)es$": "^(summons|bonus)es$",
    "(octop|vir)us$": "(octop|vir)us$",  # now `$1uses`
    "^(summons)$": "^(summons|bonus)$",
}
_INFLECTION_1_13_REPLACEMENTS = {"(octop|vir)us$": "$1uses"}
_INFLECTION_1_13_ADDED = {  # a new rule, placed before the rule named here
    "(hi|ti)ves$": (("(database)s$", None), ("(drive)s$", None)),
    "(ax|test)is$": (("(drive)$", "$1s"),),
}


def _inflection_1_13() -> tuple[tuple[str, str | None], ...]:
    """1.13's rules: 1.12's with the changes of 1.13.1 (read from both packages' sources):
    `octopus`/`virus` → `-uses`, `bonus` → `bonuses`, `database`s and `drive`s kept as plurals."""
    rules: list[tuple[str, str | None]] = []
    for pattern, replacement in _INFLECTION_1_12:
        rules.extend(_INFLECTION_1_13_ADDED.get(pattern, ()))
        pattern_13 = _INFLECTION_1_13_CHANGES.get(pattern, pattern)
        rules.append((pattern_13, _INFLECTION_1_13_REPLACEMENTS.get(pattern, replacement)))
    return tuple(rules)


INFLECTION_RULES: tuple[tuple[tuple[re.Pattern[str], str | None], ...], ...] = tuple(
    tuple((re.compile(pattern, _I), replacement) for pattern, replacement in rules)
    for rules in (_INFLECTION_1_12, _inflection_1_13())
)
"""`inflection`'s plural rules by its version: [0] 1.12.0, [1] 1.13 (Sequelize 6.6.3 on)."""
INFLECTION_UNCOUNTABLE = (_INFLECTION_UNCOUNTABLE, _INFLECTION_UNCOUNTABLE - {"grammar"})
"""Its uncountable words by version: 1.12.0 holds `grammar`, 1.13 does not."""


def _expand(match: re.Match[str], template: str) -> str:
    """`$1`-style expansion (`\\1` too) where an unmatched group is empty (JavaScript's
    `replace`)."""
    return re.sub(r"[$\\](\d)", lambda g: match.group(int(g.group(1))) or "", template)


_MONGOOSE_UNCOUNTABLE = frozenset(
    {
        "advice", "energy", "excretion", "digestion", "cooperation", "health", "justice",
        "labour", "machinery", "equipment", "information", "pollution", "sewage", "paper",
        "money", "species", "series", "rain", "rice", "fish", "sheep", "moose", "deer",
        "news", "expertise", "status", "media",
    }
)  # fmt: skip
_MONGOOSE_5 = (
    (r"(m)an$", r"\1en"), (r"(pe)rson$", r"\1ople"), (r"(child)$", r"\1ren"),
    (r"^(ox)$", r"\1en"), (r"(ax|test)is$", r"\1es"), (r"(octop|vir)us$", r"\1i"),
    (r"(alias|status)$", r"\1es"), (r"(bu)s$", r"\1ses"),
    (r"(buffal|tomat|potat)o$", r"\1oes"), (r"([ti])um$", r"\1a"), (r"sis$", "ses"),
    (r"(?:([^f])fe|([lr])f)$", r"\1\2ves"), (r"(hive)$", r"\1s"),
    (r"([^aeiouy]|qu)y$", r"\1ies"), (r"(x|ch|ss|sh)$", r"\1es"),
    (r"(matr|vert|ind)ix|ex$", r"\1ices"), (r"([m|l])ouse$", r"\1ice"),
    (r"(kn|w|l)ife$", r"\1ives"), (r"(quiz)$", r"\1zes"), (r"s$", "s"),
    (r"([^a-z])$", r"\1"), (r"$", "s"),
)  # fmt: skip
"""Mongoose's plural rules before 6.0 (`mongoose-legacy-pluralize`, and 4.x's own)."""


def _mongoose_rules(version: int) -> tuple[tuple[str, str], ...]:
    """The rules of `MONGOOSE_VERSIONS[version]` on: 6.0 adds `^goose$` → `geese` (before `s$`),
    7.0 `human$` → `humans` (first), 9.0 `(m|wom)an$`, `(octop|cact|foc|fung|nucle)us$` → `-i`
    and `virus` → `viruses` (each read from Mongoose's history and checked by running 4.13,
    5.13, 6.13, 7.8, 8.24 and 9.13)."""
    rules = list(_MONGOOSE_5)
    if version >= 1:
        rules.insert(rules.index((r"s$", "s")), (r"^goose$", "geese"))
    if version >= 2:
        rules.insert(0, (r"human$", "humans"))
    if version >= 3:
        changed = {
            r"(m)an$": (r"(m|wom)an$", r"\1en"),
            r"(octop|vir)us$": (r"(octop|cact|foc|fung|nucle)us$", r"\1i"),
            r"(alias|status)$": (r"(alias|status|virus)$", r"\1es"),
        }
        rules = [changed.get(pattern, (pattern, replacement)) for pattern, replacement in rules]
    return tuple(rules)


MONGOOSE_VERSIONS: tuple[tuple[int, ...], ...] = ((), (6,), (7,), (9,))
"""Where Mongoose's plural rules changed: each entry is the first version of a rule set."""
_MONGOOSE_RULES: tuple[tuple[tuple[re.Pattern[str], str], ...], ...] = tuple(
    tuple((re.compile(pattern, _I), replacement) for pattern, replacement in _mongoose_rules(era))
    for era in range(len(MONGOOSE_VERSIONS))
)


def pluralize_mongoose(name: str, version: int = -1) -> str:
    """Mongoose's default collection name with the rules of `MONGOOSE_VERSIONS[version]` on
    (the newest by default): the model name lower-cased, then the first of its rules that
    matches (its own short list, not `inflection`'s), unless uncountable."""
    word = name.lower()
    if word in _MONGOOSE_UNCOUNTABLE:
        return word
    for pattern, replacement in _MONGOOSE_RULES[version]:
        match = pattern.search(word)
        if match is not None:
            return word[: match.start()] + _expand(match, replacement) + word[match.end() :]
    return word  # pragma: no cover - the last rule matches every word


def pluralize_inflection(word: str, version: int = -1) -> str:
    """Sequelize's `Utils.pluralize` (`inflection.pluralize`) with `inflection` of the version
    `INFLECTION_RULES[version]` holds (the newest by default): an uncountable name stays; else
    the first rule that matches decides — none (an already-plural word stays), or its
    replacement of every match (JavaScript's global `replace`)."""
    if word.lower() in INFLECTION_UNCOUNTABLE[version]:
        return word
    for pattern, replacement in INFLECTION_RULES[version]:
        if pattern.search(word) is not None:
            if replacement is None:
                return word
            return pattern.sub(functools.partial(_expand, template=replacement), word)
    return word  # pragma: no cover - the last rule matches every word


def underscore(name: str) -> str:
    """`inflection.underscore`, as Sequelize's `underscored` applies it to a table name: `_`
    before every capital, one leading `_` dropped, lower-cased (`APIKeys` → `a_p_i_keys`, as
    Sequelize 4.44, 5.22 and 6.37 named it when run); `::` becomes `/`."""
    return "/".join(
        re.sub(r"^_", "", re.sub(r"([A-Z])", r"_\1", part)) for part in name.split("::")
    ).lower()


TYPEORM_VERSIONS: tuple[tuple[int, ...], ...] = ((), (0, 2), (0, 2, 35), (0, 2, 38))
"""Where TypeORM's `snakeCase` changed (read from its history, checked by running 0.1.20, 0.2.0,
0.2.35, 0.2.36, 0.2.38, 0.2.39, 0.2.45 and 0.3.20): each entry is the first version of a rule."""


def snake_case(name: str, version: int = -1) -> str:
    """TypeORM's `snakeCase` (its `DefaultNamingStrategy.tableName` for a class, and its
    `joinTableName`) as of `TYPEORM_VERSIONS[version]` (the newest by default):

    - before 0.2: `_` before every capital (`APIKey` → `a_p_i_key`);
    - 0.2.0: `(?:([a-z])([A-Z]))|(?:((?!^)[A-Z])([a-z]))` → `$1_$3$2$4` (`My_Model` → `my__model`);
    - 0.2.35: `ABc` → `a_bc`, then `aB` → `a_b` (`Item3D` → `item3d`);
    - 0.2.38: a digit before a capital splits too (`Item3D` → `item3_d`)."""
    era = range(len(TYPEORM_VERSIONS))[version]
    if era == 0:
        underscored = re.sub(r"(?:^|\.?)([A-Z])", lambda m: "_" + m.group(1).lower(), name)
        return re.sub(r"^_", "", underscored)
    if era == 1:
        pattern = r"(?:([a-z])([A-Z]))|(?:((?!^)[A-Z])([a-z]))"
        return re.sub(pattern, functools.partial(_expand, template="$1_$3$2$4"), name).lower()
    name = re.sub(r"([A-Z])([A-Z])([a-z])", r"\1_\2\3", name)
    before = r"([a-z])([A-Z])" if era == 2 else r"([a-z0-9])([A-Z])"
    return re.sub(before, r"\1_\2", name).lower()
