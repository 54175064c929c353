"""The deployment files, checked without a Docker engine or a cluster.

- deploy/k8s: every object against the published Kubernetes JSON schemas (kubernetes-validate,
  strict: an unknown or misspelt field fails), and how the objects fit together.
- docker-compose.yml: against the published Compose Specification JSON schema, fetched from
  PyPI (the docker-compose 1.29.2 wheel carries it) into a cache, never copied into the repo.
- deploy/redis.conf: loaded by a real redis-server.
- Dockerfile: its shape, its HEALTHCHECK command run against a real node, and a wheel built
  from exactly what it copies.

Each schema check is also shown to fail on deliberately broken copies, so a validator that
accepts anything cannot pass for one that works."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import redis
import yaml
from kubernetes_validate import utils as k8s

from engine.compiled import MODULES, SOURCE_SUFFIX, built_from
from server.config import Settings
from tests.conftest import ROOT, wait_for
from tests.server.client import Node

K8S = ROOT / "deploy" / "k8s"
#: The oldest Kubernetes still commonly run, and a recent one the package ships.
K8S_VERSIONS = ("1.30", "1.35")
#: Not Kubernetes objects: kustomize's own file.
NOT_OBJECTS = {"kustomization.yaml"}
#: Kept out of the kustomization on purpose: an example to edit first.
EXAMPLES = {"ingress.yaml"}

COMPOSE_WHEEL = "docker_compose-1.29.2-py2.py3-none-any.whl"
COMPOSE_WHEEL_SHA256 = "8d5589373b35c8d3b1c8c1182c6e4a4ff14bffa3dd0b605fcd08f73c94cef809"
COMPOSE_SCHEMA = "compose/config/compose_spec.json"

Doc = dict[str, Any]


# ----- Kubernetes --------------------------------------------------------------------------

def manifest_files() -> list[Path]:
    return sorted(p for p in K8S.glob("*.yaml") if p.name not in NOT_OBJECTS)


def load_all(path: Path) -> list[Doc]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


@pytest.fixture(scope="module")
def objects() -> dict[str, Doc]:
    """Every object by kind (one of each)."""
    found: dict[str, Doc] = {}
    for path in manifest_files():
        for obj in load_all(path):
            assert obj["kind"] not in found, f"two {obj['kind']} objects"
            found[obj["kind"]] = obj
    return found


def k8s_error(obj: Doc, version: str) -> str | None:
    """Why ``obj`` is not a valid object of its kind, or None when it is."""
    try:
        k8s.validate(obj, version, strict=True)
    except k8s.ValidationError as e:
        return f"{'.'.join(map(str, e.path))}: {e.message}"
    return None


@pytest.mark.parametrize("version", K8S_VERSIONS)
@pytest.mark.parametrize("path", manifest_files(), ids=lambda p: p.name)
def test_each_manifest_validates_against_the_kubernetes_schema(path: Path, version: str) -> None:
    docs = load_all(path)
    assert docs, f"{path.name} holds no object"
    for obj in docs:
        assert k8s_error(obj, version) is None, (path.name, k8s_error(obj, version))


def container(objects: dict[str, Doc]) -> Doc:
    [c] = objects["Deployment"]["spec"]["template"]["spec"]["containers"]
    return c


def _dig(obj: Doc, *path: str | int) -> Any:
    for step in path:
        obj = obj[step]
    return obj


#: Broken copies that the validator must refuse: a wrong type, a misspelt field, a missing
#: required field, in several kinds.
K8S_BREAKAGES: list[tuple[str, str, Callable[[Doc], None]]] = [
    ("Deployment", "replicas as text",
     lambda o: o["spec"].__setitem__("replicas", "two")),
    ("Deployment", "misspelt probe field",
     lambda o: _dig(o, "spec", "template", "spec", "containers", 0).__setitem__(
         "livenesProbe", {"httpGet": {"path": "/healthz", "port": 8000}})),
    ("Deployment", "probe without a port",
     lambda o: _dig(o, "spec", "template", "spec", "containers", 0, "readinessProbe",
                    "httpGet").pop("port")),
    ("Deployment", "container without a name",
     lambda o: _dig(o, "spec", "template", "spec", "containers", 0).pop("name")),
    ("Service", "port as text",
     lambda o: o["spec"]["ports"][0].__setitem__("port", "eighty")),
    ("HorizontalPodAutoscaler", "no maximum",
     lambda o: o["spec"].pop("maxReplicas")),
    ("PodDisruptionBudget", "misspelt field",
     lambda o: o["spec"].__setitem__("minAvailible", 1)),
    ("Secret", "a value that is not text",
     lambda o: o["stringData"].__setitem__("SAMEDEAL_DAILY_SECRET", 5)),
    ("ConfigMap", "a list as a value",
     lambda o: o["data"].__setitem__("SAMEDEAL_CACHE_SIZE", [1])),
]


@pytest.mark.parametrize("kind, why, breaks", K8S_BREAKAGES, ids=[b[1] for b in K8S_BREAKAGES])
def test_a_broken_manifest_fails_validation(objects: dict[str, Doc], kind: str, why: str,
                                            breaks: Callable[[Doc], None]) -> None:
    broken = copy.deepcopy(objects[kind])
    breaks(broken)
    assert k8s_error(broken, K8S_VERSIONS[-1]) is not None, f"{kind} with {why} passed"


def test_the_kustomization_applies_every_manifest_but_the_examples() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    listed = set(kustomization["resources"])
    assert listed == {p.name for p in manifest_files()} - EXAMPLES
    for path in manifest_files():
        for obj in load_all(path):
            assert obj["metadata"].get("namespace", obj["metadata"]["name"]) == \
                kustomization["namespace"], path.name


def test_the_deployment_probes_readiness_and_liveness(objects: dict[str, Doc]) -> None:
    c = container(objects)
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports == {"http": 8000}
    assert c["readinessProbe"]["httpGet"] == {"path": "/readyz", "port": "http"}
    assert c["livenessProbe"]["httpGet"] == {"path": "/healthz", "port": "http"}
    assert c["startupProbe"]["httpGet"]["path"] == "/healthz"


def test_the_deployment_runs_replicas_non_root_and_drains(objects: dict[str, Doc]) -> None:
    d = objects["Deployment"]
    pod = d["spec"]["template"]["spec"]
    c = container(objects)
    assert d["spec"]["replicas"] >= 2
    assert d["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    assert c["securityContext"]["readOnlyRootFilesystem"] is True
    assert c["securityContext"]["allowPrivilegeEscalation"] is False
    assert {"cpu", "memory"} <= set(c["resources"]["requests"])
    assert {"cpu", "memory"} <= set(c["resources"]["limits"])
    # the preStop pause, then the node's own drain (up to 10 s), within the grace period
    command = c["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    assert pod["terminationGracePeriodSeconds"] >= int(command[1]) + 10 + 10
    assert c["image"] == "samedeal:latest"


def test_the_deployment_reads_the_secret_and_the_config(objects: dict[str, Doc]) -> None:
    c = container(objects)
    sources = {next(iter(s)): s[next(iter(s))]["name"] for s in c["envFrom"]}
    assert sources == {"configMapRef": objects["ConfigMap"]["metadata"]["name"],
                       "secretRef": objects["Secret"]["metadata"]["name"]}
    assert set(objects["Secret"]["stringData"]) == {"SAMEDEAL_DAILY_SECRET",
                                                    "SAMEDEAL_REDIS_URL"}


def test_the_config_map_holds_settings_the_server_reads(objects: dict[str, Doc]) -> None:
    data = objects["ConfigMap"]["data"]
    names = {"SAMEDEAL_" + f.upper() for f in Settings.__dataclass_fields__}
    assert set(data) <= names, set(data) - names
    assert not set(data) & set(objects["Secret"]["stringData"]), "a secret in the ConfigMap"
    settings = Settings.from_env(data)  # each value parses as its setting's type
    for key, value in data.items():
        assert str(getattr(settings, key.removeprefix("SAMEDEAL_").lower())).lower() == \
            value.lower()


def selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return bool(selector) and selector.items() <= labels.items()


def test_the_service_the_hpa_and_the_pdb_point_at_the_deployment(
        objects: dict[str, Doc]) -> None:
    d = objects["Deployment"]
    pod_labels = d["spec"]["template"]["metadata"]["labels"]
    assert selects(d["spec"]["selector"]["matchLabels"], pod_labels)

    svc = objects["Service"]["spec"]
    assert selects(svc["selector"], pod_labels)
    assert svc["type"] == "ClusterIP" and svc.get("sessionAffinity", "None") == "None"
    [port] = svc["ports"]
    assert (port["port"], port["targetPort"]) == (80, "http")

    hpa = objects["HorizontalPodAutoscaler"]
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": d["apiVersion"],
                                             "kind": "Deployment",
                                             "name": d["metadata"]["name"]}
    assert hpa["spec"]["minReplicas"] >= 2
    [metric] = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu"

    pdb = objects["PodDisruptionBudget"]
    assert pdb["apiVersion"] == "policy/v1"
    assert pdb["spec"]["minAvailable"] == 1
    assert selects(pdb["spec"]["selector"]["matchLabels"], pod_labels)

    ingress = objects["Ingress"]
    [rule] = ingress["spec"]["rules"]
    backend = rule["http"]["paths"][0]["backend"]["service"]
    assert backend == {"name": objects["Service"]["metadata"]["name"],
                       "port": {"name": port["name"]}}
    timeout = ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/proxy-read-timeout"]
    assert int(timeout) >= 600, "players' sockets sit idle for minutes"


# ----- docker-compose.yml ------------------------------------------------------------------

def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "samedeal"
    try:
        base.mkdir(parents=True, exist_ok=True)
        return base
    except OSError:
        return tmp_path_factory.mktemp("cache")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="session")
def compose_schema(tmp_path_factory: pytest.TempPathFactory) -> Doc:
    """The Compose Specification's JSON schema as the docker-compose 1.29.2 wheel on PyPI
    carries it: downloaded once (pip, no install) and checked against its known digest."""
    wheel = cache_dir(tmp_path_factory) / COMPOSE_WHEEL
    if not wheel.exists() or sha256(wheel) != COMPOSE_WHEEL_SHA256:
        fetch = tmp_path_factory.mktemp("compose-wheel")
        run = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
             "--disable-pip-version-check", "-q", "-d", str(fetch), "docker-compose==1.29.2"],
            capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, f"could not fetch the Compose schema's wheel:\n{run.stderr}"
        got = fetch / COMPOSE_WHEEL
        assert sha256(got) == COMPOSE_WHEEL_SHA256, "the docker-compose wheel is not the known one"
        part = wheel.with_name(f"{wheel.name}.{os.getpid()}.part")
        shutil.move(got, part)
        os.replace(part, wheel)  # whole or absent, for runs in parallel
    with zipfile.ZipFile(wheel) as z:
        return json.loads(z.read(COMPOSE_SCHEMA))


def compose_errors(schema: Doc, doc: Doc) -> list[str]:
    validator = jsonschema.Draft201909Validator(schema)  # the draft the schema names
    return [f"{'.'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(doc)]


@pytest.fixture(scope="module")
def compose() -> Doc:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_compose_schema_is_a_schema(compose_schema: Doc) -> None:
    jsonschema.Draft201909Validator.check_schema(compose_schema)
    assert compose_schema["title"] == "Compose Specification"


def test_compose_validates_against_the_compose_specification(compose_schema: Doc,
                                                             compose: Doc) -> None:
    assert compose_errors(compose_schema, compose) == []


COMPOSE_BREAKAGES: list[tuple[str, Callable[[Doc], None]]] = [
    ("misspelt top-level key", lambda c: c.__setitem__("servics", c["services"])),
    ("misspelt service key", lambda c: c["services"]["node1"].__setitem__("stop_grace", "30s")),
    ("unknown depends_on condition",
     lambda c: c["services"]["nginx"]["depends_on"]["node1"].__setitem__(
         "condition", "service_ready")),
    ("ports as one string", lambda c: c["services"]["nginx"].__setitem__("ports", "8080:80")),
    ("healthcheck retries as text",
     lambda c: c["services"]["redis"]["healthcheck"].__setitem__("retries", "ten")),
    ("a service name with a space",
     lambda c: c["services"].__setitem__("node 3", c["services"]["node1"])),
]


@pytest.mark.parametrize("breaks", [b for _, b in COMPOSE_BREAKAGES],
                         ids=[why for why, _ in COMPOSE_BREAKAGES])
def test_a_broken_compose_file_fails_validation(compose_schema: Doc, compose: Doc,
                                                breaks: Callable[[Doc], None]) -> None:
    broken = copy.deepcopy(compose)
    breaks(broken)
    assert compose_errors(compose_schema, broken) != []


def test_compose_has_the_production_shape(compose: Doc) -> None:
    assert "version" not in compose  # obsolete in the Compose Specification
    services = compose["services"]
    assert set(services) == {"redis", "node1", "node2", "nginx"}

    r = services["redis"]
    assert r["image"].startswith("redis:7")
    assert r["command"] == ["redis-server", "/usr/local/etc/redis/redis.conf"]
    assert "./deploy/redis.conf:/usr/local/etc/redis/redis.conf:ro" in r["volumes"]
    [data] = [v for v in r["volumes"] if v.endswith(":/data")]
    assert data.split(":")[0] in compose["volumes"]  # a named volume, kept across restarts
    assert "redis-cli" in r["healthcheck"]["test"] and "ping" in r["healthcheck"]["test"]

    for name in ("node1", "node2"):
        n = services[name]
        assert n["build"] == "."
        assert n["environment"]["SAMEDEAL_REDIS_URL"] == "redis://redis:6379/0"
        # required: compose refuses to start without it (the deals depend on it for good)
        assert re.fullmatch(r"\$\{SAMEDEAL_DAILY_SECRET:\?.+\}",
                            n["environment"]["SAMEDEAL_DAILY_SECRET"])
        assert n["depends_on"]["redis"]["condition"] == "service_healthy"
        assert n["stop_grace_period"] == "30s"
        assert "ports" not in n  # reached through nginx only

    x = services["nginx"]
    assert x["image"] == "nginx:1.27-alpine"
    assert x["ports"] == ["8080:80"]
    assert x["volumes"] == ["./deploy/nginx.conf:/etc/nginx/nginx.conf:ro"]
    assert set(x["depends_on"]) == {"node1", "node2"}


def test_compose_mounts_files_that_exist_and_nginx_upstreams_the_nodes(compose: Doc) -> None:
    for name, service in compose["services"].items():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("./"):
                assert (ROOT / source).is_file(), f"{name} mounts {source}, which is missing"
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "least_conn" in nginx
    for name in ("node1", "node2"):
        assert f"server {name}:8000" in nginx


def test_nginx_compresses_text_and_says_it_varies() -> None:
    """What tests/server/test_web_files.py sees through nginx, in the file's own words: gzip
    for the text types the nodes send plain, Vary, and no directive that would strip the
    nodes' ETags or Cache-Control."""
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    directives = dict(re.findall(r"^\s*(\w+)\s+([^;#]*);", nginx, re.M))
    assert directives["gzip"] == "on" and directives["gzip_vary"] == "on"
    types = re.search(r"gzip_types([^;]*);", nginx)
    assert types is not None
    for t in ("text/css", "text/javascript", "application/javascript", "application/json"):
        assert t in types.group(1).split(), t
    for stripped in ("proxy_hide_header", "expires", "add_header Cache-Control"):
        assert stripped not in nginx, stripped


# ----- deploy/redis.conf -------------------------------------------------------------------

@pytest.fixture
def redis_exe() -> str:
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.fail("redis-server is not installed: run the README's test command (make test)")
    return exe


def start_redis(exe: str, conf: Path, work: Path) -> subprocess.Popen[bytes]:
    """redis-server on ``conf`` in ``work`` (as /data in the image), on a Unix socket only;
    its log in work/redis.log."""
    with open(work / "redis.log", "wb") as log:
        return subprocess.Popen([exe, str(conf), "--port", "0",
                                 "--unixsocket", str(work / "r.sock")],
                                cwd=work, stdout=log, stderr=subprocess.STDOUT)


@pytest.fixture
def conf_redis(redis_exe: str, tmp_path: Path) -> Iterator[redis.Redis]:
    proc = start_redis(redis_exe, ROOT / "deploy" / "redis.conf", tmp_path)
    client = redis.Redis(unix_socket_path=str(tmp_path / "r.sock"))

    def up() -> bool:
        if proc.poll() is not None:
            log = (tmp_path / "redis.log").read_text()
            raise RuntimeError(f"redis-server refused deploy/redis.conf:\n{log}")
        return bool(client.ping())

    wait_for(lambda: (tmp_path / "r.sock").exists() and up(), "redis-server on deploy/redis.conf")
    yield client
    client.shutdown(nosave=True)
    proc.wait(10)


def test_redis_conf_keeps_every_acknowledged_write(conf_redis: redis.Redis,
                                                   tmp_path: Path) -> None:
    config = conf_redis.config_get("*")
    assert config["appendonly"] == "yes"
    assert config["appendfsync"] == "always"
    assert config["save"]  # RDB snapshots too, for backups
    assert config["maxmemory-policy"] == "noeviction"
    assert config["requirepass"] == ""  # no password in the file: docs/operations.md
    conf_redis.set("sd:probe", "1")
    assert (tmp_path / "appendonlydir").is_dir()  # the log is where the volume is


def test_redis_refuses_a_broken_conf(redis_exe: str, tmp_path: Path) -> None:
    """The check above is real: redis-server reads the file and rejects a bad value."""
    broken = tmp_path / "broken.conf"
    text = (ROOT / "deploy" / "redis.conf").read_text()
    broken.write_text(text.replace("appendfsync always", "appendfsync sometimes"))
    proc = start_redis(redis_exe, broken, tmp_path)
    assert proc.wait(30) != 0
    assert "appendfsync" in (tmp_path / "redis.log").read_text()


# ----- Dockerfile --------------------------------------------------------------------------

def dockerfile() -> list[str]:
    """Its instructions, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def instruction(name: str) -> list[str]:
    return [line.split(None, 1)[1] for line in dockerfile() if line.split()[0] == name]


def test_the_dockerfile_has_the_production_shape() -> None:
    assert instruction("FROM")[0].startswith("python:3.11-slim")
    assert instruction("FROM")[-1].startswith("python:3.11-slim")
    [user] = instruction("USER")
    assert user.split(":")[0] not in ("0", "root") and user.split(":")[0].isdigit()
    assert instruction("EXPOSE") == ["8000"]
    assert instruction("STOPSIGNAL") == ["SIGTERM"]
    [cmd] = instruction("CMD")
    assert json.loads(cmd) == ["samedeal", "serve", "--host", "0.0.0.0", "--port", "8000"]
    [healthcheck] = instruction("HEALTHCHECK")
    assert "/healthz" in healthcheck


def healthcheck_command(port: int) -> list[str]:
    [healthcheck] = instruction("HEALTHCHECK")
    exec_form = json.loads(healthcheck.split("CMD", 1)[1])
    assert exec_form[0] == "python"
    return [sys.executable, *[a.replace(":8000/", f":{port}/") for a in exec_form[1:]]]


def test_the_healthcheck_passes_on_a_live_node_and_fails_without_one(node: Node) -> None:
    port = int(node.url.rsplit(":", 1)[1])
    assert subprocess.run(healthcheck_command(port), timeout=30).returncode == 0
    with socket.socket() as nothing:  # bound, never listening: connections are refused
        nothing.bind(("127.0.0.1", 0))
        assert subprocess.run(healthcheck_command(nothing.getsockname()[1]),
                              capture_output=True, timeout=30).returncode != 0


def test_a_wheel_builds_from_exactly_what_the_dockerfile_copies(tmp_path: Path) -> None:
    """The build stage's COPY lines bring everything the wheel needs: the packages, the web
    client's files, the ``samedeal`` command and the engine's compiled modules."""
    context = tmp_path / "context"
    context.mkdir()
    for line in instruction("COPY"):
        *sources, _ = line.split()
        assert not any(s.startswith("--") for s in sources), line
        for source in sources:
            if (ROOT / source).is_dir():
                shutil.copytree(ROOT / source, context / source,
                                ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so",
                                                             "*.so.source"))
            else:
                shutil.copy(ROOT / source, context / source)
    # Unoptimised C (setup.py leaves the -O level to CFLAGS when it names one): what is
    # tested is that the modules build and load from these files, in half the time.
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                          "--disable-pip-version-check", "-w", str(tmp_path / "wheels"),
                          str(context)], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "CFLAGS": "-O0"})
    assert run.returncode == 0, run.stderr
    [wheel] = (tmp_path / "wheels").glob("samedeal-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"engine/cli.py", "server/app.py", "server/cli.py", "clients/web/index.html"} <= names
    # The build stage has a C compiler: the engine's inner loop is in the wheel compiled,
    # with the record of the source each module was built from (engine/compiled.py).
    # Installed, each loads compiled: its record is of the sources the wheel holds (the
    # C types' .pxd files among them).
    installed = tmp_path / "installed"
    zipfile.ZipFile(wheel).extractall(installed)
    for module in MODULES:
        path = module.replace(".", "/")
        built = [n for n in names if n.startswith(path + ".cpython-") and n.endswith(".so")]
        assert len(built) == 1 and built[0] + SOURCE_SUFFIX in names, (module, built)
        assert built_from(installed / built[0], installed / (path + ".py"), module), module
    web = {p.relative_to(ROOT).as_posix() for p in (ROOT / "clients" / "web").rglob("*")
           if p.is_file()}
    assert web <= names, web - names
    [entry_points] = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "samedeal = engine.cli:main" in text and "serve = server.cli:add_commands" in text
