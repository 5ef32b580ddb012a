"""The gate-forge HTTP gateway: config, plugin pools, routes, security, metrics, CLI."""

from .main import create_app

__all__ = ["create_app"]
