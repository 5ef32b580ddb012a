"""The gate-forge HTTP gateway: config, session pool, routes, security, metrics, CLI."""

from .main import create_app

__all__ = ["create_app"]
