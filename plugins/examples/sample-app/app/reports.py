"""Read-only reporting queries, written against SQLAlchemy Core before the ORM models existed.

Its `users` table repeats the one `models.py` maps: pack-sqlalchemy reports both definitions.
"""

from sqlalchemy import Column, Integer, MetaData, String, Table, select

metadata = MetaData()

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("email", String(255)),
)


def user_emails():
    return select(users.c.email).order_by(users.c.id)
