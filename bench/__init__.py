"""Benchmarks: each figure beside a baseline measured on the same machine in the same run.

``python -m bench`` (or ``make bench``) runs them all and writes bench/results.md and
bench/results.json; ``python -m bench engine`` (ws, idle, boards) runs one. ``python -m
bench.soak`` (an hour of play by default) runs alone and replaces only its section of
bench/results.md. Not tests: nothing here asserts a time.
"""
