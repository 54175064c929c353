"""docs/operations.md keeps up with the code: every setting, every ``samedeal serve`` flag and
every metric is documented, with its environment variable and its default, so a new one
without documentation fails here."""

from __future__ import annotations

import argparse
import re
from dataclasses import fields
from pathlib import Path

import pytest
from prometheus_client.metrics_core import Metric

from server import cli
from server.config import Settings
from server.metrics import Metrics
from tests.conftest import ROOT

DOC = ROOT / "docs" / "operations.md"


def shown(value: object) -> str:
    """A default as the table writes it: `""` for empty text, `false` for a boolean."""
    if isinstance(value, bool):
        return str(value).lower()
    if value == "":
        return '""'
    return str(value)


def table(header: str) -> dict[str, list[str]]:
    """The rows of the Markdown table whose header row starts with ``header``, by first
    cell (backticks removed)."""
    lines = DOC.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows: dict[str, list[str]] = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows[cells[0].strip("`")] = cells
    return rows


def test_every_setting_is_in_the_table_with_its_env_var_and_default() -> None:
    rows = table("| setting | env var | default |")
    names = [f.name for f in fields(Settings)]
    assert set(rows) == set(names), "settings missing or stale: " + str(set(rows) ^ set(names))
    for f in fields(Settings):
        _, env, default, meaning = rows[f.name]
        assert env == f"`SAMEDEAL_{f.name.upper()}`", f.name
        assert default == f"`{shown(f.default)}`", f.name
        assert meaning, f"{f.name} says nothing"


def serve_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    cli.add_commands(parser.add_subparsers())
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices["serve"]


def flags(monkeypatch: pytest.MonkeyPatch) -> dict[str, tuple[object, str | None]]:
    """Each ``serve`` flag: its default, and its environment variable if it reads one (found
    by setting ``SAMEDEAL_<FLAG>`` and seeing the default change)."""
    options = [a for a in serve_parser()._actions if a.option_strings and a.dest != "help"]
    for a in options:
        monkeypatch.delenv(f"SAMEDEAL_{a.dest.upper()}", raising=False)
    defaults = {a.dest: a.default for a in serve_parser()._actions}
    out: dict[str, tuple[object, str | None]] = {}
    for a in options:
        env = f"SAMEDEAL_{a.dest.upper()}"
        with monkeypatch.context() as m:
            m.setenv(env, "12345")
            changed = next(b for b in serve_parser()._actions if b.dest == a.dest).default
        out[a.option_strings[0]] = (defaults[a.dest],
                                    env if changed != defaults[a.dest] else None)
    return out


def test_every_serve_flag_is_in_the_table_with_its_env_var_and_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rows = table("| flag | env var | default |")
    found = flags(monkeypatch)
    assert {"--host", "--port", "--redis-url", "--workers", "--log-level"} <= set(found)
    assert set(rows) == set(found), "flags missing or stale: " + str(set(rows) ^ set(found))
    for flag, (default, env) in found.items():
        _, doc_env, doc_default, meaning = rows[flag]
        assert doc_env == (f"`{env}`" if env else "—"), flag
        assert doc_default == f"`{shown(default)}`", flag
        assert meaning, f"{flag} says nothing"


def exposed_name(family: Metric) -> str:
    """The name a scrape shows: prometheus_client adds ``_total`` to counters."""
    return family.name + "_total" if family.type == "counter" else family.name


def test_every_metric_is_described() -> None:
    rows = table("| metric | type | what it counts |")
    documented = {re.sub(r"\{.*\}", "", name): cells for name, cells in rows.items()}
    families = list(Metrics().registry.collect())
    assert families
    for family in families:
        name = exposed_name(family)
        assert name in documented, f"{name} is not in docs/operations.md"
        assert documented[name][1] == family.type, name
    assert set(documented) == {exposed_name(f) for f in families}, "a metric that is gone"


def test_the_doc_covers_what_an_operator_needs() -> None:
    text = DOC.read_text()
    for needed in ("docker compose up", "http://localhost:8080", "kubectl apply -k deploy/k8s",
                   "appendfsync always", "everysec", "noeviction", "requirepass", "rediss://",
                   "EVALSHA", "hash tag", "1012", '{"type": "reconnect"}', "least_conn",
                   "--workers", "/readyz", "/healthz", "BGSAVE"):
        assert needed in text, needed
    layout = (ROOT / "server" / "store" / "__init__.py").read_text()
    for key in re.findall(r'"(sd:[a-z]+:[a-z]+)"', layout):
        assert f"`{key}`" in text, f"the global key {key} is not explained"


def test_every_file_the_doc_names_exists() -> None:
    for path in set(re.findall(r"`((?:deploy|docs)/[\w./-]+|Dockerfile|docker-compose\.yml)`",
                               DOC.read_text())):
        assert (ROOT / path).exists(), path
    assert Path(ROOT / "deploy" / "k8s").is_dir()
