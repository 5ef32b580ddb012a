"""`packs.js_made_models`: the Mongoose models a project makes through its own functions and
classes, linked from facts written out here (no parsing): names handed from calls to the
function that calls `model()`, and from subclasses to the base class whose constructor does;
a name nothing hands on is a finding at the `model()`."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "plugins"))

from packs.js_made_models import (
    CallSite,
    ClassFacts,
    Expanded,
    MadeFacts,
    MadeModel,
    ModelTemplate,
    expand,
    may_make,
    module_stem,
)

Target = tuple[str, str]
Names = Mapping[tuple[str, tuple[str, ...]], Target]
Origins = Mapping[tuple[str, tuple[str, ...]], str]


def linked(
    files: Sequence[tuple[str, MadeFacts]],
    names: Names | None = None,
    origins: Origins | None = None,
) -> tuple[Expanded, set[str]]:
    """`expand` with resolvers that know `names` ((file, dotted) → (file, name)), else take a
    name as the file's own: any function for a call, only a class the facts show for a base."""
    known = dict(names or {})
    classes = {(path, c.name) for path, facts in files for c in facts.classes}

    def callee(path: str, dotted: tuple[str, ...]) -> Target | None:
        return known.get((path, dotted), (path, ".".join(dotted)))

    def base_of(path: str, dotted: tuple[str, ...]) -> Target | None:
        target = callee(path, dotted)
        return target if target in classes else None

    relevant: set[str] = set()
    origin = dict(origins or {})
    found = expand(
        files, callee, base_of, relevant, lambda path, dotted: origin.get((path, dotted), "")
    )
    return found, relevant


def test_a_factory_makes_the_model_each_call_names() -> None:
    make = MadeFacts(templates=(ModelTemplate("makeModel", "param:0", False, 3),))
    app = MadeFacts(
        calls=(
            CallSite(("makeModel",), ("lit:Cat", ""), 5, ""),
            CallSite(("makeModel",), ("lit:Dog",), 6, ""),
            CallSite(("makeModel",), ("",), 7, ""),  # computed: hands nothing on
        )
    )
    names: Names = {("app.js", ("makeModel",)): ("lib/make.js", "makeModel")}
    found, relevant = linked([("lib/make.js", make), ("app.js", app)], names)
    assert found.models == [
        MadeModel("Cat", False, "app.js", 5, "Cat"),
        MadeModel("Dog", False, "app.js", 6, "Dog"),
    ]
    assert found.gaps == []
    assert {"makeModel", "make"} <= relevant  # the function, and its module's stem
    assert found.owners == {("lib/make.js", "makeModel")}


def test_a_name_is_handed_on_through_a_wrapper_function() -> None:
    """`collection(name, fields) { return makeModel(name, …) }`: the wrapper becomes a
    template of its own, and `collection('users')` names the model at that call."""
    make = MadeFacts(
        templates=(ModelTemplate("makeModel", "param:0", True, 2),),
        calls=(CallSite(("makeModel",), ("param:1",), 9, "collection"),),
    )
    app = MadeFacts(calls=(CallSite(("collection",), ("", "lit:users"), 4, ""),))
    names: Names = {("app.js", ("collection",)): ("make.js", "collection")}
    # `collection` is a function of make.js, declared by the template it gains
    found, relevant = linked([("make.js", make), ("app.js", app)], names)
    assert found.models == [MadeModel("users", True, "app.js", 4, "users")]
    assert "collection" in relevant
    assert found.gaps == []


BASE = MadeFacts(
    templates=(ModelTemplate("Base", "this:getName()", False, 4),),
    classes=(ClassFacts("Base", 1, None, (("getName", None, 8),)),),  # abstract: computes it
)


def test_each_subclass_of_a_template_class_makes_the_model_its_method_names() -> None:
    user = MadeFacts(classes=(ClassFacts("User", 2, ("Base",), (("getName", "user", 3),)),))
    admin = MadeFacts(classes=(ClassFacts("Admin", 2, ("User",)),))  # inherits User's name
    names: Names = {
        ("models/user.js", ("Base",)): ("models/base.js", "Base"),
        ("models/admin.js", ("User",)): ("models/user.js", "User"),
    }
    files = [("models/base.js", BASE), ("models/user.js", user), ("models/admin.js", admin)]
    found, _ = linked(files, names)
    assert found.models == [MadeModel("user", False, "models/user.js", 3, "User")]
    assert found.subclasses == {("models/user.js", "User"), ("models/admin.js", "Admin")}
    assert found.gaps == []


def test_a_name_set_on_this_by_the_constructor_is_followed_to_its_literal() -> None:
    base = MadeFacts(
        templates=(ModelTemplate("Base", "this:name", True, 6),),
        classes=(ClassFacts("Base", 1, None, (), (("name", "this:getName()"),)),),
    )
    cat = MadeFacts(classes=(ClassFacts("Cat", 3, ("Base",), (("getName", "cats", 4),)),))
    names: Names = {("cat.js", ("Base",)): ("base.js", "Base")}
    found, _ = linked([("base.js", base), ("cat.js", cat)], names)
    assert found.models == [MadeModel("cats", True, "cat.js", 4, "Cat")]


def test_a_subclass_that_computes_the_name_is_a_finding_at_its_method() -> None:
    computed = MadeFacts(classes=(ClassFacts("Log", 2, ("Base",), (("getName", None, 5),)),))
    names: Names = {("log.js", ("Base",)): ("base.js", "Base")}
    found, _ = linked([("base.js", BASE), ("log.js", computed)], names)
    assert found.models == []
    assert (
        "log.js",
        5,
        "Log gives the name of the Mongoose model Base makes (getName()) by an expression",
    ) in found.gaps


def test_a_template_nothing_names_is_a_finding_at_its_model_call() -> None:
    make = MadeFacts(templates=(ModelTemplate("makeModel", "param:1", False, 7),))
    found, _ = linked([("make.js", make)])
    assert found.models == []
    assert found.gaps == [
        (
            "make.js",
            7,
            "a Mongoose model() is named by parameter 2 of makeModel, which no call or "
            "subclass the reader follows gives as a string",
        )
    ]


def test_a_subclass_whose_base_module_is_not_found_is_a_finding_where_named_alike() -> None:
    orphan = MadeFacts(classes=(ClassFacts("Post", 3, ("Base",), (("getName", "posts", 4),)),))
    unrelated = MadeFacts(classes=(ClassFacts("Widget", 2, ("Base",)),))
    origins: Origins = {("post.js", ("Base",)): "base", ("widget.js", ("Base",)): "ui-kit"}
    files = [("models/base.js", BASE), ("post.js", orphan), ("widget.js", unrelated)]
    found, _ = linked(files, origins=origins)
    extends = [gap for gap in found.gaps if "whose module is not found" in gap[2]]
    assert extends == [
        (
            "post.js",
            3,
            "class Post extends Base, whose module is not found; Base of models/base.js makes "
            "Mongoose models by a name its subclasses give",
        )
    ]


@pytest.mark.parametrize(
    ("source", "may"),
    [
        (b"class User extends Base {}", True),
        (b"util.inherits(User, Base);", True),
        (b"User.prototype.getName = f;", True),
        (b"makeModel('Cat', fields);", True),
        (b"db(this.name, schema);", True),
        (b"const x = compute(a, b);\nmodule.exports = x;\n", False),
    ],
)
def test_may_make_reads_only_files_that_can_hold_such_facts(source: bytes, may: bool) -> None:
    assert may_make(source) is may


@pytest.mark.parametrize(
    ("path", "stem"),
    [
        ("models/user.js", "user"),
        ("models/user.model.ts", "user"),
        ("models/users/index.js", "users"),
        ("index.js", "index"),
    ],
)
def test_module_stem_is_how_an_import_names_the_module(path: str, stem: str) -> None:
    assert module_stem(path) == stem
