"""How JavaScript ORMs name a table or collection they are not given a name for: Sequelize's
plurals (the `inflection` package) and `underscored`, Mongoose's plurals, TypeORM's snake_case.
Pure functions of a name; `js_tables` applies them."""

from __future__ import annotations

import re

_INFLECTION_UNCOUNTABLE = frozenset(
    {
        "accommodation", "adulthood", "advertising", "advice", "aggression", "aid", "air",
        "aircraft", "alcohol", "anger", "applause", "arithmetic", "assistance", "athletics",
        "bacon", "baggage", "beef", "biology", "blood", "botany", "bread", "butter",
        "carbon", "cardboard", "cash", "chalk", "chaos", "chess", "crossroads",
        "countryside", "dancing", "deer", "dignity", "dirt", "dust", "economics",
        "education", "electricity", "engineering", "enjoyment", "envy", "equipment",
        "ethics", "evidence", "evolution", "fame", "fiction", "flour", "flu", "food",
        "fuel", "fun", "furniture", "gallows", "garbage", "garlic", "genetics", "gold",
        "golf", "gossip", "grammar", "gratitude", "grief", "guilt", "gymnastics",
        "happiness", "hardware", "harm", "hate", "hatred", "health", "heat", "help",
        "homework", "honesty", "honey", "hospitality", "housework", "humour", "hunger",
        "hydrogen", "ice", "importance", "inflation", "information", "innocence", "iron",
        "irony", "jam", "jewelry", "judo", "karate", "knowledge", "lack", "laughter",
        "lava", "leather", "leisure", "lightning", "linguine", "linguini", "linguistics",
        "literature", "litter", "livestock", "logic", "loneliness", "luck", "luggage",
        "macaroni", "machinery", "magic", "mail", "management", "mankind", "marble",
        "mathematics", "mayonnaise", "measles", "meat", "metal", "methane", "milk", "minus",
        "money", "moose", "mud", "music", "mumps", "nature", "news", "nitrogen", "nonsense",
        "nurture", "nutrition", "obedience", "obesity", "oil", "oxygen", "paper", "passion",
        "pasta", "patience", "permission", "physics", "poetry", "pollution", "poverty",
        "power", "pride", "production", "progress", "pronunciation", "psychology",
        "publicity", "punctuation", "quality", "quantity", "quartz", "racism", "rain",
        "recreation", "relaxation", "reliability", "research", "respect", "revenge", "rice",
        "rubbish", "rum", "safety", "salad", "salt", "sand", "satire", "scenery", "seafood",
        "seaside", "series", "shame", "sheep", "shopping", "silence", "sleep", "slang",
        "smoke", "smoking", "snow", "soap", "software", "soil", "sorrow", "soup",
        "spaghetti", "speed", "species", "spelling", "steam", "stuff", "stupidity", "sugar",
        "sunshine", "symmetry", "tennis", "thirst", "thunder", "timber", "time", "toast",
        "tolerance", "trade", "traffic", "transportation", "travel", "trust",
        "understanding", "underwear", "unemployment", "unity", "usage", "validity", "veal",
        "vegetarianism", "vegetation", "vocabulary", "wealth", "weather", "whiskey", "wine",
        "wood", "wool", "work", "yoga", "zinc", "zoology",
    }
)  # fmt: skip
"""`inflection`'s uncountable words (checked against the whole lower-cased name, as it does)."""

_I = re.IGNORECASE
_INFLECTION_RULES: tuple[tuple[re.Pattern[str], str | None], ...] = tuple(
    (re.compile(pattern, _I), replacement)
    for pattern, replacement in (
        # already plural: left as it is
        (r"(m)en$", None), (r"(pe)ople$", None), (r"(child)ren$", None), (r"([ti])a$", None),
        (r"((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)ses$", None),
        (r"(hive)s$", None), (r"(tive)s$", None), (r"(curve)s$", None), (r"([lr])ves$", None),
        (r"([^fo])ves$", None), (r"([^aeiouy]|qu)ies$", None), (r"(s)eries$", None),
        (r"(m)ovies$", None), (r"(x|ch|ss|sh)es$", None), (r"([m|l])ice$", None),
        (r"(bus)es$", None), (r"(o)es$", None), (r"(shoe)s$", None),
        (r"(cris|ax|test)es$", None), (r"(octop|vir)i$", None),
        (r"(alias|canvas|status|campus)es$", None), (r"^(summons)es$", None),
        (r"^(ox)en", None), (r"(matr)ices$", None), (r"^feet$", None), (r"^teeth$", None),
        (r"^geese$", None), (r"(quiz)zes$", None),
        # singular to plural
        (r"^(m|wom)an$", r"\1en"), (r"(pe)rson$", r"\1ople"), (r"(child)$", r"\1ren"),
        (r"^(ox)$", r"\1en"), (r"(ax|test)is$", r"\1es"), (r"(octop|vir)us$", r"\1i"),
        (r"(alias|status|canvas|campus)$", r"\1es"), (r"^(summons)$", r"\1es"),
        (r"(bu)s$", r"\1ses"), (r"(buffal|tomat|potat)o$", r"\1oes"), (r"([ti])um$", r"\1a"),
        (r"sis$", "ses"), (r"(?:([^f])fe|([lr])f)$", r"\1\2ves"), (r"(hive)$", r"\1s"),
        (r"([^aeiouy]|qu)y$", r"\1ies"), (r"(x|ch|ss|sh)$", r"\1es"),
        (r"(matr|vert|ind)ix|ex$", r"\1ices"), (r"([m|l])ouse$", r"\1ice"),
        (r"^foot$", "feet"), (r"^tooth$", "teeth"), (r"^goose$", "geese"),
        (r"(quiz)$", r"\1zes"), (r"s$", "s"), (r"$", "s"),
    )
)  # fmt: skip


def _expand(match: re.Match[str], template: str) -> str:
    """`$1`-style expansion where an unmatched group is empty (JavaScript's `replace`)."""
    return re.sub(r"\\(\d)", lambda g: match.group(int(g.group(1))) or "", template)


_MONGOOSE_UNCOUNTABLE = frozenset(
    {
        "advice", "energy", "excretion", "digestion", "cooperation", "health", "justice",
        "labour", "machinery", "equipment", "information", "pollution", "sewage", "paper",
        "money", "species", "series", "rain", "rice", "fish", "sheep", "moose", "deer",
        "news", "expertise", "status", "media",
    }
)  # fmt: skip
_MONGOOSE_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, _I), replacement)
    for pattern, replacement in (
        (r"(m)an$", r"\1en"), (r"(pe)rson$", r"\1ople"), (r"(child)$", r"\1ren"),
        (r"^(ox)$", r"\1en"), (r"(ax|test)is$", r"\1es"), (r"(octop|vir)us$", r"\1i"),
        (r"(alias|status)$", r"\1es"), (r"(bu)s$", r"\1ses"),
        (r"(buffal|tomat|potat)o$", r"\1oes"), (r"([ti])um$", r"\1a"), (r"sis$", "ses"),
        (r"(?:([^f])fe|([lr])f)$", r"\1\2ves"), (r"(hive)$", r"\1s"),
        (r"([^aeiouy]|qu)y$", r"\1ies"), (r"(x|ch|ss|sh)$", r"\1es"),
        (r"(matr|vert|ind)ix|ex$", r"\1ices"), (r"([m|l])ouse$", r"\1ice"),
        (r"(kn|w|l)ife$", r"\1ives"), (r"(quiz)$", r"\1zes"), (r"s$", "s"),
        (r"([^a-z])$", r"\1"), (r"$", "s"),
    )
)  # fmt: skip


def pluralize_mongoose(name: str) -> str:
    """Mongoose's default collection name: the model name lower-cased, then the first of its
    rules that matches (its own short list, not `inflection`'s), unless uncountable."""
    word = name.lower()
    if word in _MONGOOSE_UNCOUNTABLE:
        return word
    for pattern, replacement in _MONGOOSE_RULES:
        match = pattern.search(word)
        if match is not None:
            return word[: match.start()] + _expand(match, replacement) + word[match.end() :]
    return word  # pragma: no cover - the last rule matches every word


def pluralize_inflection(word: str) -> str:
    """Sequelize's `Utils.pluralize` (the `inflection` package): an uncountable name stays;
    else the first rule that matches the name's end wins (an already-plural word stays)."""
    if word.lower() in _INFLECTION_UNCOUNTABLE:
        return word
    for pattern, replacement in _INFLECTION_RULES:
        match = pattern.search(word)
        if match is not None:
            if replacement is None:
                return word
            return word[: match.start()] + _expand(match, replacement) + word[match.end() :]
    return word  # pragma: no cover - the last rule matches every word


def underscore(name: str) -> str:
    """`inflection.underscore`, as Sequelize's `underscored` applies it to a table name."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    name = re.sub(r"([a-z\d])([A-Z])", r"\1_\2", name)
    return name.replace("-", "_").lower()


def snake_case(name: str) -> str:
    """TypeORM's `snakeCase` (its `DefaultNamingStrategy.tableName` for a class)."""
    name = re.sub(r"([A-Z])([A-Z])([a-z])", r"\1_\2\3", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()
