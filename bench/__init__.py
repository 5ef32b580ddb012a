"""Benchmarks: `python -m bench` runs every group's `run(quick)` and prints one table.

Each group module (`bench/core.py`, `bench/gateway.py`, …) also runs alone as a script.
"""
