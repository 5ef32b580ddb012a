"""The implicit table names Flask-SQLAlchemy gives, by running it (no database is touched).

One fresh `SQLAlchemy` per class name (no clash between cases), then a few inheritance cases.
Run it with the interpreter of a venv holding the version to measure, never the gateway's:

    /work/truthenv/fsa2/bin/python flask_sqlalchemy_names.py names.json > fsa2.json

(`names.json`: a JSON list of class names). tests/packs/test_pack_sqlalchemy_versions.py holds
its output for 2.5.1 and 3.1.1; 2.1, 2.2 and 2.3.2 gave 2.5.1's names, 3.0.5 gave 3.1.1's.
"""

import importlib.metadata
import json
import sys
from typing import Any

from flask import Flask  # type: ignore[import-not-found]
from flask_sqlalchemy import SQLAlchemy  # type: ignore[import-not-found]

CASES = {
    "joined": "class BaseThing(db.Model):\n id=db.Column(db.Integer, primary_key=True)\n"
    " kind=db.Column(db.String)\n __mapper_args__={'polymorphic_on': kind}\n"
    "class SubThingHTML(BaseThing):\n"
    " id=db.Column(db.Integer, db.ForeignKey('base_thing.id'), primary_key=True)\n",
    "single": "class BaseThing(db.Model):\n id=db.Column(db.Integer, primary_key=True)\n"
    " kind=db.Column(db.String)\n __mapper_args__={'polymorphic_on': kind}\n"
    "class SubThingHTML(BaseThing):\n extra=db.Column(db.String)\n",
    "mixin_name": "class Mix:\n __tablename__='from_mixin'\n"
    "class WithMixinHTML(Mix, db.Model):\n id=db.Column(db.Integer, primary_key=True)\n",
    "abstract": "class AbsHTML(db.Model):\n __abstract__=True\n"
    " id=db.Column(db.Integer, primary_key=True)\n"
    "class ConcreteURL(AbsHTML):\n name=db.Column(db.String)\n",
    "named_parent_sub_pk": "class P(db.Model):\n __tablename__='pp'\n"
    " id=db.Column(db.Integer, primary_key=True)\n"
    "class ChildAPI(P):\n id=db.Column(db.Integer, db.ForeignKey('pp.id'), primary_key=True)\n",
}


def fresh() -> tuple[Any, Any]:
    app = Flask(__name__)
    app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite://"
    app.config["SQLALCHEMY_TRACK_MODIFICATIONS"] = False
    return app, SQLAlchemy(app)


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as listing:
        names = json.load(listing)
    tables: dict[str, str] = {}
    for name in names:
        app, db = fresh()
        with app.app_context():
            body = {"id": db.Column(db.Integer, primary_key=True), "__module__": __name__}
            try:
                tables[name] = type(name, (db.Model,), body).__table__.name
            except Exception as exc:
                tables[name] = f"ERROR {type(exc).__name__}"
    cases: dict[str, object] = {}
    for label, code in CASES.items():
        app, db = fresh()
        with app.app_context():
            try:
                exec(code, {"db": db, "__name__": "cases"})
                cases[label] = sorted(db.metadata.tables)
            except Exception as exc:
                cases[label] = f"ERROR {type(exc).__name__}: {exc}"
    print(
        json.dumps(
            {
                "version": importlib.metadata.version("flask-sqlalchemy"),
                "sqlalchemy": importlib.metadata.version("sqlalchemy"),
                "names": tables,
                "cases": cases,
            },
            ensure_ascii=False,
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
