"""A real Ray cluster of two nodes plays a lab run with the local pool's rows.

docs/LAB.md, "Running on a Ray cluster": a head started with ``ray start
--head`` and a worker with ``ray start --address=HEAD:PORT``, then
``bestiary simulate ... --backend ray --address HEAD:PORT --out FILE``; and
"Determinism": "a game's row depends only on the run's configuration and its
index — the same rows ... on Ray". Both nodes run here on one machine, each
with its own ``--temp-dir``, folder and ports, as on two; the client runs in a
folder of its own, so nothing reaches a worker through a shared working
directory: it imports bestiary as installed, and gets the card file with the jobs.

Every process a test starts is stopped by the fixture, also when a test fails
or is interrupted (Ctrl-C): ``ray stop`` is not used, because it stops every
Ray process of the machine, other test runs' included.
"""

from __future__ import annotations

import ctypes
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bestiary.engine.errors import BadInput
from bestiary.lab.cards import shipped
from bestiary.lab.runs import RunConfig, play_rows, read_run

BIN = Path(sys.executable).parent
RAY_CLI = BIN / "ray"
BESTIARY_CLI = BIN / "bestiary"
# Enough games (about 4 s of one core) that the worker node's first Ray worker
# has started (imported Python, Ray and bestiary) before the head has played them all.
GAMES = 200
RUN = ["meat", "--seats", "random,heuristic", "--rotate", "--seed", "7", "--games", str(GAMES)]
# A card file named as the worked example names one: relative to the client's folder.
RUN += ["--cards", "mine.toml", "--workers", "2", "--json"]


@dataclass(frozen=True)
class Cluster:
    address: str  # HEAD:PORT, what --address takes
    env: dict[str, str]  # what every node and client of it runs with
    temp_dirs: dict[str, Path]  # each node's --temp-dir: "head", "worker"


def _free_ports(n: int) -> list[int]:
    """``n`` distinct ports nothing listens on (held together, so no two are equal)."""
    with ExitStack() as stack:
        socks = [stack.enter_context(socket.socket()) for _ in range(n)]
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]


def _needs_a_cluster() -> None:
    if sys.platform != "linux" or not RAY_CLI.exists():
        pytest.skip("needs Linux and Ray (pip install 'bestiary[ray]')")


# Looked up before any fork: the forked child only calls it.
_PRCTL = ctypes.CDLL(None, use_errno=True).prctl if sys.platform == "linux" else None


def _die_with_the_tests() -> None:
    # If the test process is killed outright (SIGKILL: no fixture runs), each
    # `ray start --block` gets SIGTERM and stops its node, as the fixture does.
    if _PRCTL is not None:
        _PRCTL(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _group(pgid: int) -> list[int]:
    """The live (not zombie) processes of process group ``pgid``."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # it ended while we looked
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(stat.parent.name))
    return found


def _stop(nodes: list[subprocess.Popen[bytes]]) -> None:
    """Stop each node: SIGTERM to its `ray start --block` (it stops the node's
    GCS, raylet, agents and workers), then SIGKILL to whatever of its process
    group is left after 15 s."""
    for p in reversed(nodes):  # the worker first
        if p.poll() is None:
            p.terminate()
    deadline = time.monotonic() + 15
    for p in nodes:
        while time.monotonic() < deadline and (p.poll() is None or _group(p.pid)):
            time.sleep(0.1)
        for pid in _group(p.pid):
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if p.poll() is None:
            p.kill()
        p.wait()


def _wait_for(node: subprocess.Popen[bytes], log: Path, text: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while text not in log.read_text(errors="replace"):
        if node.poll() is not None or time.monotonic() > deadline:
            pytest.fail(
                f"`ray start` did not print {text!r}; its output:\n{log.read_text()[-3000:]}"
            )
        time.sleep(0.2)


def _alive_nodes(address: str, env: dict[str, str]) -> int:
    """How many nodes `ray status` lists as active."""
    out = subprocess.run(
        [str(RAY_CLI), "status", f"--address={address}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    active = out.split("Active:", 1)[-1].split("Pending:", 1)[0]
    return sum(1 for line in active.splitlines() if " node_" in line)


def _wait_for_port(port: int, head: subprocess.Popen[bytes], log: Path) -> None:
    """Until the head's GCS answers on ``port`` (its first server, up long before
    the head's other processes): a worker may start joining then."""
    deadline = time.monotonic() + 90
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        if head.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"the head never opened port {port}; its output:\n{log.read_text()}")
        time.sleep(0.2)


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Cluster]:
    _needs_a_cluster()
    # A short folder: Ray's socket paths under it must fit in 107 bytes.
    base = Path(tempfile.mkdtemp(prefix="bestiary-ray-"))
    token = base / "auth_token"
    token.write_text(secrets.token_hex(32))  # the cluster's token, copied to every machine
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env |= {
        "RAY_USAGE_STATS_ENABLED": "0",
        # Token authentication, as the docs ask for a cluster on a network.
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN_PATH": str(token),
        "TMPDIR": str(base),  # where the workers write the run's card files
    }
    gcs, *ports = _free_ports(7)
    address = f"127.0.0.1:{gcs}"
    nodes: list[subprocess.Popen[bytes]] = []

    def start(name: str, *args: str) -> Path:
        temp = base / name
        temp.mkdir()
        agent, metrics, runtime_env = ports[:3]
        del ports[:3]
        command = [
            *(str(RAY_CLI), "start", "--block", *args, "--num-cpus=1"),
            *("--node-ip-address=127.0.0.1", f"--temp-dir={temp}", "--disable-usage-stats"),
            "--object-store-memory=100000000",
            # The lab's client takes no worker output (log_to_driver=False):
            # no log monitor, one Python process less on each node.
            "--include-log-monitor=false",
            # Two nodes on one machine: each port with a fixed default gets
            # its own (on two machines the defaults do).
            f"--dashboard-agent-listen-port={agent}",
            f"--metrics-export-port={metrics}",
            f"--runtime-env-agent-port={runtime_env}",
        ]
        log = base / f"{name}.log"
        with log.open("wb") as out:
            nodes.append(
                subprocess.Popen(
                    command,
                    cwd=temp,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # Ctrl-C here reaches the fixture, not the nodes
                    preexec_fn=_die_with_the_tests,
                )
            )
        return log

    try:
        head_log = start("head", "--head", f"--port={gcs}", "--include-dashboard=false")
        _wait_for_port(gcs, nodes[0], head_log)
        worker_log = start("worker", f"--address={address}")
        _wait_for(nodes[0], head_log, "Ray runtime started", timeout=90)
        _wait_for(nodes[1], worker_log, "Ray runtime started", timeout=90)
        deadline = time.monotonic() + 60
        while _alive_nodes(address, env) < 2:
            if time.monotonic() > deadline:
                pytest.fail("the worker node never joined the head")
            time.sleep(0.5)
        yield Cluster(address, env, {"head": base / "head", "worker": base / "worker"})
    finally:
        _stop(nodes)
        shutil.rmtree(base, ignore_errors=True)


def _simulate(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(BESTIARY_CLI), "simulate", *args],
        env=env,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _end(run: subprocess.Popen[str]) -> None:
    """Stop a `bestiary simulate` still running (a failed or interrupted test):
    SIGTERM, which it handles as Ctrl-C (its pool stops), then SIGKILL."""
    if run.poll() is None:
        run.terminate()
        try:
            run.wait(timeout=10)
        except subprocess.TimeoutExpired:
            run.kill()
            run.wait()


def _finish(run: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = run.communicate(timeout=180)
    finally:
        _end(run)
    return run.returncode, out, err


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the runs are made in, with their card file (a copy of the shipped one)."""
    folder = tmp_path_factory.mktemp("client")
    shutil.copy(shipped("meat"), folder / "mine.toml")
    return folder


@pytest.fixture(scope="module")
def local_run(client: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """The run with the local backend, started first: it plays while the
    cluster starts (the test waits for it)."""
    _needs_a_cluster()
    path = client / "local.parquet"
    run = _simulate([*RUN, "--out", str(path)], dict(os.environ), client)
    try:
        yield path, run
    finally:
        _end(run)


def _tasks_run(temp_dir: Path) -> int:
    """The jobs (chunks of games) a node ran: a Ray worker marks the start of every task in its
    log (``:task_name:NAME``, what Ray reads to send a task's output to its client)."""
    logs = temp_dir.glob("session_latest/logs/worker-*.out")
    return sum(p.read_text(errors="replace").count(":task_name:_play\n") for p in logs)


@pytest.mark.slow
def test_a_two_node_cluster_plays_the_local_pools_rows(
    local_run: tuple[Path, subprocess.Popen[str]], ray_cluster: Cluster, client: Path
) -> None:
    """Rows identical to the local backend's, and both nodes played games, with
    the run's own card file (the workers run in other folders: Ray sends them it).

    And a client that has not opted in to the cluster's token authentication
    (Ray never turns it on for an explicit --address) is refused with one line
    that says what to set, not "unexpected ConnectionError ... this is a bug".
    One test, so that a parallel test run starts one cluster, not one a worker."""
    local_path, local = local_run
    on_cluster = _simulate(
        [*RUN, "--out", "ray.parquet", "--backend", "ray", "--address", ray_cluster.address],
        ray_cluster.env,
        client,
    )  # fmt: skip
    no_token = {k: v for k, v in ray_cluster.env.items() if k != "RAY_AUTH_MODE"}
    no_token["RAY_gcs_server_port_wait_time_s"] = "1"  # one connect try, not ~20 s of them
    refused = _simulate(
        [*RUN, "--out", "refused.parquet", "--backend", "ray", "--address", ray_cluster.address],
        no_token,
        client,
    )  # fmt: skip

    code, _, err = _finish(local)
    assert code == 0, err
    code, out, err = _finish(on_cluster)
    assert code == 0, err
    result = json.loads(out)
    assert (result["played"], result["total"], result["failed"]) == (GAMES, GAMES, 0)
    a, b = read_run(local_path), read_run(client / "ray.parquet")
    assert b.to_pylist() == a.to_pylist()
    assert b.schema.metadata == a.schema.metadata  # the same run configuration
    jobs = {node: _tasks_run(temp) for node, temp in ray_cluster.temp_dirs.items()}
    assert jobs["head"] >= 1 and jobs["worker"] >= 1, jobs

    code, _, err = _finish(refused)
    assert code == 2, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: cannot join the Ray cluster at {ray_cluster.address}: ")
    assert "RAY_AUTH_MODE=token" in last and "auth_token" in last
    assert not (client / "refused.parquet").exists()


class _FakeRay:
    """Just enough of Ray for ``_ray``: a cluster of ``cpus`` CPUs, counting the
    jobs in flight. Its tasks return no rows, or with ``elsewhere`` play the job
    in that folder, as a worker in another folder (or on another machine) does."""

    exceptions = SimpleNamespace()

    def __init__(
        self, cpus: int, error: Exception | None = None, elsewhere: Path | None = None
    ) -> None:
        self.cpus, self.error, self.elsewhere = cpus, error, elsewhere
        self.most_in_flight = 0
        self.task: Any = None

    def is_initialized(self) -> bool:
        return False

    def init(self, **_: Any) -> None:
        if self.error:
            raise self.error

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": float(self.cpus)}

    def remote(self, task: Any) -> Any:
        self.task = task
        return SimpleNamespace(remote=lambda job: job)

    def wait(self, pending: list[Any], num_returns: int) -> tuple[list[Any], list[Any]]:
        self.most_in_flight = max(self.most_in_flight, len(pending))
        return pending[:num_returns], pending[num_returns:]

    def get(self, job: Any) -> Any:
        if self.elsewhere is None:
            return []
        here = Path.cwd()
        os.chdir(self.elsewhere)
        try:
            return self.task(job)
        finally:
            os.chdir(here)

    def shutdown(self) -> None:
        pass


def _rows(batches: Iterator[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return sorted((r for batch in batches for r in batch), key=lambda r: int(r["index"]))


def test_a_worker_elsewhere_plays_with_the_runs_card_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/LAB.md's worked example names its card file relative to the client's
    folder (`--cards kat.toml`); a Ray worker runs in another folder, often on
    another machine, and must still play with that file: the same rows."""
    client, worker = tmp_path / "client", tmp_path / "worker"
    client.mkdir()
    worker.mkdir()
    shutil.copy(shipped("meat"), client / "kat.toml")
    monkeypatch.chdir(client)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where workers write the files
    monkeypatch.setitem(sys.modules, "ray", _FakeRay(cpus=1, elsewhere=worker))
    config = RunConfig("meat", ("random", "random"), seed=3, options={"cards": "kat.toml"})
    via_ray = _rows(play_rows(config, range(3), backend="ray", address="head:6379"))
    local = _rows(play_rows(config, range(3)))
    assert [r["error"] for r in via_ray] == [None, None, None]
    assert via_ray == local


def test_a_cluster_gets_jobs_for_all_its_cpus_not_this_machines_workers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/LAB.md: a run "scales with the cores of a Ray cluster": the jobs in
    flight follow the cluster's CPUs (4 a CPU), not the client's --workers."""
    fake = _FakeRay(cpus=64)
    monkeypatch.setitem(sys.modules, "ray", fake)
    config = RunConfig("meat", ("random", "random"))
    list(play_rows(config, range(1000), workers=2, backend="ray", address="head:6379", chunk=1))
    assert fake.most_in_flight == 64 * 4


def test_an_unreachable_cluster_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """No cluster at the address: say what to check, not Ray's traceback."""
    fake = _FakeRay(1, ConnectionError("Failed to connect to Ray cluster at head:6379"))
    monkeypatch.setitem(sys.modules, "ray", fake)
    rows = play_rows(RunConfig("meat", ("random", "random")), range(2), backend="ray",
                     address="head:6379")  # fmt: skip
    with pytest.raises(BadInput, match=r"cannot join the Ray cluster at head:6379: is it running"):
        list(rows)
