"""Test helpers: the rule cases in tests/data, and running the ``hotstreak`` command."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"

# Compiled modules: with PYTHONDONTWRITEBYTECODE set (as on the build machine) every run compiled the package and
# rewrote the asserts of every test module again, which was most of the time collection takes. The tests write
# them as Python does by default, beside the sources (`__pycache__`, which git ignores): a cache elsewhere
# (sys.pycache_prefix) also hid the installed libraries' own compiled files, so a first run compiled some 470 of
# them again in each worker, and every `hotstreak` a test ran compiled the package from its source (docs/bench.md).
sys.dont_write_bytecode = False

# Hypothesis loads every installed package's plugin at its import: trio (a dependency of selenium) has one, and
# loading the plugins cost each test process about 0.45 s of its 1.8 s collection. No test here uses one.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")

# The `slow` marker is decided by measured time (docs/bench.md): a test without it whose call takes over
# UNMARKED_LIMIT seconds fails, and so does a test with it that takes under MARKED_LIMIT in all (set-up, call and
# tear-down: a test may be slow for its fixture). Each check errs on the side of a busy 2-core machine: the first
# counts the call without the time a thread of the test waited for a core (/proc/self/task/*/schedstat) and the
# time the virtual machine itself was not run (the host's "steal", /proc/stat), so load cannot push a quick test
# over; the second counts wall time, which load only lengthens, and spares a test that ran a real
# process (Python's start-up alone is 0.15-0.5 s, with the load). HOTSTREAK_SLOW_CHECK=0 turns the check off.
UNMARKED_LIMIT = 1.0
MARKED_LIMIT = 0.2


def _run_queue_wait() -> dict[str, float]:
    """Seconds each thread of this process has waited for a core so far, by thread id (empty where the kernel does
    not say). A test often waits on a thread of its own (a server, a sink's worker): that thread's wait for a core
    is load too, not the test's time."""
    waits: dict[str, float] = {}
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return waits
    for tid in tasks:
        try:
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                waits[tid] = int(f.read().split()[1]) / 1e9
        except (OSError, ValueError, IndexError):
            continue
    return waits


def _waited_since(start: dict[str, float]) -> float:
    """The waits for a core of all the process's threads since ``start``, added up. A test that hands work to a
    thread of its own and waits for the answer (the journal's writer, a server) waits for each of them in turn:
    a game of 138 inputs written to a file journal took 1.38 s with two busy loops beside it (0.13 s quiet), the
    longest wait of any one thread being 0.31 s. Added up, waits that overlapped are counted twice: that errs
    toward passing a test, as the check means to under load; a quiet run still fails a test that is slow."""
    now = _run_queue_wait()
    return sum(max(wait - start.get(tid, 0.0), 0.0) for tid, wait in now.items())


def pytest_sessionstart(session):
    """Compile the package once before any test runs (a cold cache, as on a fresh clone, would otherwise put the
    compile time of a module into whichever test imports it first, and the slow check would count it). In the
    main process of a parallel run this comes before the workers start, so they find it compiled; the test
    modules are rewritten there too (:func:`_rewrite_test_modules`)."""
    import compileall
    for folder in ("companion", "hardware"):
        compileall.compile_dir(str(ROOT / folder), quiet=2, workers=1)
    if session.config.pluginmanager.has_plugin("dsession"):  # pytest-xdist's main process, before its workers
        _rewrite_test_modules(session.config)


def _rewrite_test_modules(config) -> None:
    """Rewrite the asserts of every test module into pytest's cache of rewritten modules, where it is stale.

    Each of xdist's workers imports every test module as it collects; on a cold cache (a fresh clone, a first
    run) each one rewrote all of them itself, side by side: 3.3 s of CPU a worker here, 13 s for the four
    (docs/bench.md). Done once here, by two processes, they read it; on a fresh clone one of the two also lets
    Hypothesis read the package (:func:`_read_the_package_for_hypothesis`). This uses pytest's own functions for
    the cache, which are not public: if they change, this does nothing and the workers rewrite as before."""
    from concurrent.futures import ProcessPoolExecutor
    from fnmatch import fnmatch
    import multiprocessing
    patterns = [*config.getini("python_files"), "conftest.py"]
    stale = [path for path in sorted((ROOT / "tests").rglob("*.py"))
             if any(fnmatch(path.name, pattern) for pattern in patterns) and _rewritten(path, config) is None]
    cold = not (ROOT / ".hypothesis" / "constants").is_dir()  # a fresh clone: Hypothesis has read no source yet
    if stale or cold:
        _REWRITING[:] = [config]  # the processes are forked: they have it (a config cannot be pickled)
        try:
            with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
                read = pool.submit(_read_the_package_for_hypothesis) if cold else None
                list(pool.map(_rewrite, stale))
                if read is not None:
                    read.result()
        finally:
            _REWRITING.clear()


def _read_the_package_for_hypothesis() -> None:
    """Import every module of the package and let Hypothesis read their source for the constants it draws from
    (it keeps them in ``.hypothesis/constants``), in a process forked by _rewrite_test_modules on a fresh clone:
    once, not once by each worker (0.9 s of CPU each here). Then let it work out the characters ``st.text()``
    draws from (kept in ``.hypothesis/unicode_data``): in each worker that took 1.1 s of the first test to draw
    text, which then failed the slow check. Hypothesis's functions for these are not public: if they change,
    this does nothing and the workers do the work as before."""
    import importlib
    import pkgutil
    import companion
    for module in pkgutil.walk_packages(companion.__path__, "companion."):
        if not module.name.endswith("__main__"):
            with contextlib.suppress(Exception):
                importlib.import_module(module.name)
    with contextlib.suppress(Exception):
        import _hypothesis_globals
        from hypothesis.internal.conjecture.providers import _get_local_constants
        _hypothesis_globals.in_initialization = 0  # this process only: it never runs a test
        _get_local_constants()
    with contextlib.suppress(Exception):  # what st.text() draws from: 1.1 s to work out in the first test using it
        from hypothesis.internal.charmap import charmap, intervals_from_codec
        charmap()
        intervals_from_codec("utf-8")


_REWRITING: list = []  # [the config] while _rewrite_test_modules runs


def _rewrite(path: Path) -> bool | None:
    """:func:`_rewritten` with ``write``, in a process forked by _rewrite_test_modules."""
    return _rewritten(path, _REWRITING[0], write=True)


def _rewritten(path: Path, config, write: bool = False) -> bool | None:
    """Whether pytest's cache holds the rewritten ``path`` (after rewriting it there, with ``write``); None if
    not, or if pytest's functions for it are not what they were."""
    try:
        from _pytest.assertion.rewrite import (PYC_TAIL, _read_pyc, _rewrite_test, _write_pyc, assertstate_key,
                                               get_cache_dir)
        pyc = get_cache_dir(path) / (path.name[:-3] + PYC_TAIL)
        if _read_pyc(path, pyc) is not None:
            return True
        if write:
            pyc.parent.mkdir(parents=True, exist_ok=True)
            source_hash, code = _rewrite_test(path, config)
            return _write_pyc(config.stash[assertstate_key], code, source_hash, pyc)
    except (ImportError, AttributeError, KeyError, TypeError, ValueError, OSError, SyntaxError):
        pass  # pytest changed, or a module does not parse: its worker says so when it collects it
    return None


@pytest.hookimpl(wrapper=True)
def pytest_collection(session):
    """What collection makes (modules, test items, the package) lives for the whole run. The garbage collector
    is off while it is made, as its full passes walked it again and again as it grew (0.3-0.4 s of CPU a
    process), and then it is frozen: out of the collector's generations for the tests. The 30,000-odd objects
    collection left as garbage are frozen with it (a few MB a process), as collecting them first took 0.13 s."""
    import gc
    gc.disable()
    try:
        return (yield)
    finally:
        gc.freeze()
        gc.enable()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    item.stash[_WAITED] = {}
    item.stash[_CHILDREN] = _children_cpu()
    return (yield)


def _children_cpu() -> float:
    """CPU seconds of this process's finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    with _waiting(item, "call"):  # only the call is checked against UNMARKED_LIMIT (set-up and tear-down: wall time)
        return (yield)


def _stolen() -> list[float]:
    """Seconds each core of a virtual machine has been kept from running by its host so far ("steal" in
    /proc/stat; empty where the kernel does not say). A shared host can stall a guest for seconds: no thread of
    the test waits in the guest's run queue then, yet the test's wall time grows."""
    try:
        with open("/proc/stat") as f:
            rows = [line.split() for line in f if line.startswith("cpu") and not line.startswith("cpu ")]
        return [int(row[8]) / os.sysconf("SC_CLK_TCK") for row in rows]
    except (OSError, ValueError, IndexError):
        return []


@contextlib.contextmanager
def _waiting(item, when: str):
    """Keep in the item's stash how long the test was kept from running during the phase ``when``: the waits for
    a core of its threads, added up, plus the longest time the host stole from one core meanwhile. Only a
    phase whose wall time is over UNMARKED_LIMIT is measured again at its end (the others cannot fail the check)."""
    start, stolen, began = _run_queue_wait(), _stolen(), time.perf_counter()
    try:
        yield
    finally:
        waited = 0.0
        if time.perf_counter() - began > UNMARKED_LIMIT:
            waited = _waited_since(start) + max((b - a for a, b in zip(stolen, _stolen())), default=0.0)
        item.stash.setdefault(_WAITED, {})[when] = waited


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if not report.passed:
        item.stash[_FAILED] = True  # a failed or skipped test is not timed: its time says nothing of the test
    if os.environ.get("HOTSTREAK_SLOW_CHECK", "1") == "0" or item.stash.get(_FAILED, False):
        return report
    took = item.stash[_TOOK] = {**item.stash.get(_TOOK, {}), call.when: call.duration}
    slow = item.get_closest_marker("slow") is not None
    ran = call.duration - item.stash.get(_WAITED, {}).get(call.when, 0.0)  # less the wait for a core
    if call.when == "call" and not slow and ran > UNMARKED_LIMIT:
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} took {ran:.2f} s (not counting {call.duration - ran:.2f} s waiting for a "
                           f"core or stolen by the host), over {UNMARKED_LIMIT} s: mark it @pytest.mark.slow")
    elif (call.when == "teardown" and slow and sum(took.values()) < MARKED_LIMIT
          and _children_cpu() - item.stash.get(_CHILDREN, 0.0) < 0.01):  # a real process's time varies: kept
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} is marked slow but took {sum(took.values()):.3f} s in all, under "
                           f"{MARKED_LIMIT} s: take the mark off")
    if call.when == "teardown" and os.environ.get("HOTSTREAK_SLOW_REPORT"):  # one JSON line a test, for re-marking
        with open(os.environ["HOTSTREAK_SLOW_REPORT"], "a") as f:
            f.write(json.dumps({"test": item.nodeid, "slow": slow, "took": round(sum(took.values()), 3),
                                "children": round(_children_cpu() - item.stash.get(_CHILDREN, 0.0), 3)}) + "\n")
    return report


_WAITED = pytest.StashKey[dict]()  # phase -> seconds the test's threads waited for a core (and the host stole)
_TOOK = pytest.StashKey[dict]()    # phase -> seconds it took
_CHILDREN = pytest.StashKey[float]()  # the child processes' CPU seconds when the test began
_FAILED = pytest.StashKey[bool]()  # a phase failed or was skipped


_HOMES = itertools.count()
_BUILT: list[list] = []  # [the kiosks built by the test that is running] while one runs


@pytest.fixture(autouse=True, scope="session")
def _kiosks_recorded():
    """Every kiosk built while a test runs (its function-scoped fixtures included, not a module's) is recorded in
    ``_BUILT`` for :func:`_table_cleared` to close."""
    from companion.kiosk.wiring import Kiosk
    made = Kiosk.__init__

    def recorded(self, *args, **kwargs):
        made(self, *args, **kwargs)
        if _BUILT:
            _BUILT[0].append(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Kiosk, "__init__", recorded)
        yield


@pytest.fixture(autouse=True)
def _table_cleared(_kiosks_recorded, tmp_path_factory):
    """Each test starts with no config file at the default location and ends with every kiosk it built closed.

    No config: a builder's own ~/.config/hotstreak/config.toml, the service's $CONFIGURATION_DIRECTORY or a Pi's
    /etc/hotstreak/config.toml (companion/kiosk/config_path.py) is never read in process, and a calibration saved
    by one test is never read by the next: each test gets a config folder of its own that does not exist yet
    (what saves a config makes its folder). A test that wants one sets these itself. (A test's `hotstreak`
    subprocess would still read a real /etc/hotstreak/config.toml: run the tests where the service is not
    installed.)

    Kiosks closed, closed by the test or not: an open one keeps its threads (gpiozero polls each button's hold 10
    times a second; the journal's writer), and a few hundred of them left behind slowed every later test
    (docs/bench.md).

    Plain assignments, not ``monkeypatch``: this runs for each of some 2,400 tests, and the monkeypatch fixture's
    set-up and undo were a third of what the test harness adds to a test here (docs/bench.md)."""
    from companion.kiosk import config_path
    home = os.path.join(tmp_path_factory.getbasetemp(), "config-homes", str(next(_HOMES)))
    saved = os.environ.get("XDG_CONFIG_HOME"), os.environ.pop("CONFIGURATION_DIRECTORY", None), config_path.SYSTEM
    os.environ["XDG_CONFIG_HOME"] = home
    config_path.SYSTEM = Path(home, "no-system-config.toml")
    _BUILT[:] = [[]]
    try:
        yield
    finally:
        xdg, configuration, config_path.SYSTEM = saved
        _restore("XDG_CONFIG_HOME", xdg)
        _restore("CONFIGURATION_DIRECTORY", configuration)
        built = _BUILT.pop()
        for kiosk in built:
            if not kiosk.closed:
                kiosk.close()


def _restore(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def read_cases(path: Path) -> list[dict]:
    """One rule case per non-blank line of a JSON Lines file."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def rule_cases(name: str) -> list[dict]:
    """The rule cases of ``tests/data/NAME`` (e.g. ``race-cases.jsonl``): the only copy the tests read."""
    return read_cases(DATA / name)


def hotstreak(*args: str, stdin: str | None = None, env: dict | None = None,
              timeout: float = 60) -> subprocess.CompletedProcess:
    """Run ``python -m companion ARGS`` as a real process and capture its output."""
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=ROOT)


def hotstreak_in_process(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """Run ``hotstreak ARGS`` through ``companion.cli.main`` in this process (same parser, same command code, no
    interpreter start-up) and capture exit status, stdout and stderr like :func:`hotstreak`."""
    from companion.cli import main
    out, err = io.StringIO(), io.StringIO()
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse usage errors
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved_stdin
    return subprocess.CompletedProcess(["hotstreak", *args], code, out.getvalue(), err.getvalue())


class FakeClock:
    """A clock that moves only when told: ``clock()`` -> seconds, ``clock.advance(dt)``."""

    def __init__(self, t: float = 100.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def run_cli():
    return hotstreak


@pytest.fixture
def full_priority(monkeypatch):
    """The odds thread lowers itself to nice 19 (test_the_worker_thread_alone_runs_at_low_priority holds that); a
    test that waits for its answer keeps it at the test's own priority, as a nice-19 thread gets almost no CPU
    while anything else runs and the test would wait on the machine's load, not on the sink."""
    import companion.odds.sink as odds_sink
    monkeypatch.setattr(odds_sink, "lower_thread_priority", lambda nice=19: False)
