"""HTTP latency and throughput of the production server, beside its own constant-JSON ceiling.

    .venv/bin/python bench/bench_http.py --sections 10000      # the issue's size (~2 min build)
    .venv/bin/python bench/bench_http.py --sections 1000       # a quick run

Builds the repository's sample course and a generated course (bench/generate_course.py) into
temporary indexes, starts ``lessonsearch serve`` (gunicorn, its default workers and threads)
on a free loopback port for each, and measures with 1 and with 4 client threads, each on its
own keep-alive ``http.client`` connection:

- ``/api/search`` over a stream of distinct queries (no cache can help);
- ``/api/terms/<name>`` over the glossary's terms;
- ``/healthz``, a tiny constant JSON answer from the same app and server: the ceiling that
  routing, WSGI, gunicorn and the loopback impose whatever the search costs.

Prints p50/p99 latency and requests/second for each, search over ceiling, the server's memory
(master + workers summed, then each process), and the issue's target: HTTP search p50 within
3 × (in-process FTS5 p50 over the same queries, bench/fts5_baseline.py + constant-JSON p50).
Every scenario is bounded by a request count and a time cap; all traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_search import distinct_queries, percentile, timed  # noqa: E402
from fts5_baseline import Fts5Baseline  # noqa: E402
from generate_course import generate  # noqa: E402

from lessonsearch.build import build_index  # noqa: E402
from lessonsearch.course import read_course  # noqa: E402
from lessonsearch.searcher import Searcher  # noqa: E402

HOST = "127.0.0.1"
MAX_REQUESTS = 5_000
SCENARIO_SECONDS = 120
REQUEST_SECONDS = 10
READY_SECONDS = 60
CLIENTS = (1, 4)
TARGET_FACTOR = 3
WARM_UP = 100


@dataclass(frozen=True, slots=True)
class Measured:
    latencies_ms: tuple[float, ...]
    seconds: float
    errors: int

    @property
    def p50(self) -> float:
        return statistics.median(self.latencies_ms) if self.latencies_ms else float("nan")

    @property
    def p99(self) -> float:
        return percentile(list(self.latencies_ms), 99) if self.latencies_ms else float("nan")

    @property
    def per_second(self) -> float:
        return len(self.latencies_ms) / self.seconds if self.seconds else float("nan")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


@contextmanager
def serving(index_dir: Path, log_path: Path, workers: int | None,
            threads: int | None) -> Iterator[tuple[int, int]]:
    """``lessonsearch serve`` on a free loopback port: yields (port, master pid); stops it."""
    port = free_port()
    extra = [*(["--workers", str(workers)] if workers else []),
             *(["--threads", str(threads)] if threads else [])]
    env = {k: v for k, v in os.environ.items() if k != "LESSONSEARCH_INDEX"}
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "lessonsearch.cli", "serve", "--index", str(index_dir),
             "--host", HOST, "--port", str(port), *extra],
            stdout=log, stderr=subprocess.STDOUT, env=env, cwd=log_path.parent,
        )
        try:
            wait_ready(port, process, log_path)
            yield port, process.pid
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_ready(port: int, process: subprocess.Popen, log_path: Path) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited:\n{log_path.read_text()}")
        try:
            status, _ = get(http.client.HTTPConnection(HOST, port, timeout=2), "/healthz")
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"the server did not answer within {READY_SECONDS} s")


def get(connection: http.client.HTTPConnection, path: str) -> tuple[int, bytes]:
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read()


def load(port: int, paths: list[str], clients: int) -> Measured:
    """GET every path once, spread over ``clients`` threads with keep-alive connections."""
    paths = paths[:MAX_REQUESTS]
    shares = [paths[n::clients] for n in range(clients)]
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    deadline = time.monotonic() + SCENARIO_SECONDS

    def client(number: int) -> None:
        connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_SECONDS)
        try:
            for path in shares[number]:
                if time.monotonic() > deadline:
                    return
                started = time.perf_counter()
                try:
                    status, _ = get(connection, path)
                except (http.client.HTTPException, OSError):
                    errors[number] += 1
                    connection.close()  # reconnects on the next request
                    continue
                latencies[number].append((time.perf_counter() - started) * 1000)
                if status != 200:
                    errors[number] += 1
        finally:
            connection.close()

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    return Measured(tuple(x for share in latencies for x in share), seconds, sum(errors))


def server_memory_mb(master: int) -> dict[str, float]:
    """Memory of the gunicorn master and its workers, summed, from /proc/<pid>/smaps_rollup:
    RSS (pages shared by the workers, the index files they map among them, counted in each),
    PSS (shared pages divided among their sharers), private pages (each process's own,
    including pages of the mapped index files only it has read) and anonymous pages (the
    heap: what the processes hold that is not a file's page cache)."""
    totals = {"Rss": 0.0, "Pss": 0.0, "Private": 0.0, "Anonymous": 0.0}
    for _, memory in process_memory_mb(master):
        for key in totals:
            totals[key] += memory[key]
    return totals


def process_memory_mb(master: int) -> list[tuple[str, dict[str, float]]]:
    """("master" or "worker <pid>", its memory) for the master and each worker."""
    pids = [master]
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        pids += [int(pid) for pid in children]
    except OSError:
        pass
    found = []
    for pid in pids:
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
        except OSError:
            continue
        kb = {"Rss": 0, "Pss": 0, "Private": 0, "Anonymous": 0}
        for row in rollup:
            key, _, rest = row.partition(":")
            value = int(rest.split()[0]) if rest.split() and rest.split()[0].isdigit() else 0
            if key in ("Rss", "Pss", "Anonymous"):
                kb[key] += value
            elif key in ("Private_Clean", "Private_Dirty"):
                kb["Private"] += value
        name = "master" if pid == master else f"worker {pid}"
        found.append((name, {key: value / 1024 for key, value in kb.items()}))
    return found


def memory_line(name: str, memory: dict[str, float]) -> str:
    return (f"  {name:34} RSS {memory['Rss']:6.0f} MB  PSS {memory['Pss']:6.0f} MB  "
            f"private {memory['Private']:6.0f} MB  anonymous {memory['Anonymous']:6.0f} MB")


def timed_ms(search: Callable[[str], object], queries: list[str]) -> list[float]:
    search("warm up")
    return timed(search, queries)


def in_process(index_dir: Path, lessons_dir: Path, queries: list[str]) -> tuple[list[float],
                                                                               list[float]]:
    """Latencies of the same queries without HTTP: lessonsearch's Searcher, and FTS5."""
    searcher = Searcher.open(index_dir)
    try:
        ours = timed_ms(lambda q: searcher.search(q, limit=10), queries)
    finally:
        searcher.close()
    fts = Fts5Baseline(read_course(lessons_dir).course)
    return ours, timed_ms(lambda q: fts.search(q, limit=10), queries)


def line(name: str, measured: Measured, ceiling: Measured | None = None) -> str:
    text = (f"  {name:34} p50 {measured.p50:8.2f} ms  p99 {measured.p99:8.2f} ms  "
            f"{measured.per_second:8.0f} req/s  ({len(measured.latencies_ms)} req, "
            f"{measured.errors} errors)")
    if ceiling is not None:
        text += (f"  × ceiling: p50 {measured.p50 / ceiling.p50:5.2f}, "
                 f"req/s {measured.per_second / ceiling.per_second:5.2f}")
    return text


def run(name: str, lessons_dir: Path, glossary_dir: Path, work: Path, requests: int,
        workers: int | None, threads: int | None, index_dir: Path | None = None) -> None:
    if index_dir is None:
        index_dir = work / "index"
        started = time.perf_counter()
        report = build_index(lessons_dir, glossary_dir, index_dir)
        print(f"\n{name}: {report.sections} sections, {report.terms} terms "
              f"(built in {time.perf_counter() - started:.1f} s)")
    else:
        counts = json.loads((index_dir / "current" / "manifest.json").read_text())["counts"]
        print(f"\n{name}: {counts['sections']} sections, {counts['terms']} terms "
              f"(index {index_dir}, built before)")
    queries = distinct_queries(requests * len(CLIENTS))
    search_p50: float | None = None
    ceiling_p50: float | None = None
    with serving(index_dir, work / "server.log", workers, threads) as (port, master):
        connection = http.client.HTTPConnection(HOST, port, timeout=REQUEST_SECONDS)
        try:
            _, body = get(connection, "/api/terms")
            terms = [t["term"] for t in json.loads(body)["terms"]] or ["none"]
            for _ in range(20):  # every worker has opened its index; warm the caches a little
                get(connection, "/api/search?q=warm+up")
        finally:
            connection.close()
        print(f"  server: {server_workers(master)} workers, pid {master}")
        for clients in CLIENTS:
            batch = queries[(clients > 1) * requests:][:requests]
            scenarios: dict[str, Callable[[], Measured]] = {
                "healthz (constant JSON)": lambda c=clients: load(
                    port, ["/healthz"] * requests, c),
                "search, distinct queries": lambda c=clients, b=batch: load(
                    port, [f"/api/search?q={quote(q)}" for q in b], c),
                "terms/<name>": lambda c=clients: load(
                    port, [f"/api/terms/{quote(terms[n % len(terms)], safe='')}"
                           for n in range(requests)], c),
            }
            print(f"  {clients} client{'s' if clients > 1 else ''}:")
            load(port, ["/healthz"] * WARM_UP, clients)  # fresh connections, not timed
            ceiling = scenarios["healthz (constant JSON)"]()
            print(line("healthz (constant JSON)", ceiling))
            for label in ("search, distinct queries", "terms/<name>"):
                measured = scenarios[label]()
                print(line(label, measured, ceiling))
                if clients == 1 and label.startswith("search"):
                    search_p50, ceiling_p50 = measured.p50, ceiling.p50
        print(memory_line("server memory (master + workers)", server_memory_mb(master)))
        for name, memory in process_memory_mb(master):
            print(memory_line(f"  {name}", memory))
    ours, base = in_process(index_dir, lessons_dir, queries[:requests])
    fts = statistics.median(base)
    print(f"  {'in-process Searcher.search':34} p50 {statistics.median(ours):8.2f} ms  "
          f"p99 {percentile(ours, 99):8.2f} ms  (same queries as 1 client, no HTTP)")
    print(f"  {'in-process FTS5':34} p50 {fts:8.2f} ms  p99 {percentile(base, 99):8.2f} ms")
    if search_p50 is not None and ceiling_p50 is not None:
        target = TARGET_FACTOR * (fts + ceiling_p50)
        verdict = "within" if search_p50 <= target else "OVER"
        print(f"  target: HTTP search p50 {search_p50:.2f} ms vs {TARGET_FACTOR} × (FTS5 "
              f"in-process p50 {fts:.2f} ms + constant-JSON p50 {ceiling_p50:.2f} ms) = "
              f"{target:.2f} ms: {verdict} ({search_p50 / target:.2f} of it)")


def server_workers(master: int) -> int:
    try:
        return len(Path(f"/proc/{master}/task/{master}/children").read_text().split())
    except OSError:
        return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=10_000,
                        help="size of the generated course (1000 for a quick run)")
    parser.add_argument("--requests", type=int, default=2_000,
                        help=f"requests per scenario (at most {MAX_REQUESTS})")
    parser.add_argument("--workers", type=int, help="server workers (default: the server's)")
    parser.add_argument("--threads", type=int, help="threads per worker (default: the server's)")
    parser.add_argument("--no-sample", action="store_true",
                        help="skip the repository's sample course")
    parser.add_argument("--course", type=Path,
                        help="a course generated before (its lessons/ and glossary/) instead "
                             "of generating one; with --index, its index built before")
    parser.add_argument("--index", type=Path, help="the index of --course, built before")
    args = parser.parse_args()
    requests = max(1, min(args.requests, MAX_REQUESTS))
    print(f"bench_http: {requests} requests per scenario, clients {CLIENTS}, "
          f"{os.cpu_count()} cores, keep-alive connections to {HOST}")
    with tempfile.TemporaryDirectory() as tmp:
        if not args.no_sample:
            sample = Path(tmp) / "sample"
            sample.mkdir()
            run("sample course", ROOT / "lessons", ROOT / "glossary", sample, requests,
                args.workers, args.threads)
        generated = Path(tmp) / "generated"
        generated.mkdir()
        if args.course:
            run(f"course {args.course}", args.course / "lessons", args.course / "glossary",
                generated, requests, args.workers, args.threads, args.index)
        else:
            lessons = generate(generated / "course", args.sections)
            run(f"generated course (--sections {args.sections})", lessons,
                generated / "course" / "glossary", generated, requests, args.workers,
                args.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
