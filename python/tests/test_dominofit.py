"""The Python package against the command line: the same answers, the same shapes
(validated against the repository's JSON Schemas), the same error messages.

The CLI is the binary the package was built from: `cargo build` in the repository
(the newer of target/debug and target/release), or the one named by DOMINOFIT_CLI.
"""

import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import jsonschema
import pytest

import dominofit

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
OBSERVED = ["6x6", "7x7", "8x8"]


def cli_path():
    named = os.environ.get("DOMINOFIT_CLI")
    if named:
        return named
    built = [ROOT / "target" / profile / "dominofit" for profile in ("release", "debug")]
    built = [path for path in built if path.exists()]
    if built:
        # The newest build: the other may be stale.
        return str(max(built, key=lambda path: path.stat().st_mtime))
    pytest.skip("no dominofit binary: run `cargo build` first, or set DOMINOFIT_CLI")


def cli(*args, ok=(0,)):
    done = subprocess.run([cli_path(), *map(str, args)], capture_output=True, text=True)
    assert done.returncode in ok, done.stderr
    return done


def cli_json_lines(*args):
    return [json.loads(line) for line in cli(*args, ok=(0, 3)).stdout.splitlines() if line]


def schema(name):
    return json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text())


def without_time(answer):
    """An answer without its timings, which differ from run to run."""
    answer = json.loads(json.dumps(answer))
    answer["stats"].pop("time_ms")
    return answer


def game_sample():
    lines = (MODELS / "game.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines[::6]]


@pytest.mark.parametrize("name", OBSERVED)
@pytest.mark.parametrize("limit", [0, 1, 2])
def test_observed_boards_answer_as_the_cli(name, limit):
    path = MODELS / "observed" / f"{name}.json"
    mine = dominofit.solve(path, limit=limit)
    [theirs] = cli_json_lines("solve", path, "--limit", limit, "--format", "json")
    assert without_time(mine) == without_time(theirs)
    jsonschema.validate(mine, schema("solve"))
    if limit != 1:
        assert mine["status"] == "unique"
        expected = json.loads((MODELS / "observed" / f"{name}.solution.json").read_text())
        assert mine["solutions"] == [expected]


def test_a_dict_a_string_and_a_path_give_the_same_answer():
    path = MODELS / "observed" / "8x8.json"
    board = json.loads(path.read_text())
    answers = [
        dominofit.solve(board, limit=2),
        dominofit.solve(path.read_text(), limit=2),
        dominofit.solve(path, limit=2),
    ]
    assert len({json.dumps(without_time(a), sort_keys=True) for a in answers}) == 1


@pytest.mark.parametrize("backend", ["native", "portfolio", "dp", "varisat", "microlp"])
def test_a_game_sample_answers_as_the_cli(backend, tmp_path):
    boards = game_sample()
    workload = tmp_path / "sample.jsonl"
    workload.write_text("".join(json.dumps(b) + "\n" for b in boards))
    mine = dominofit.solve(boards, backend=backend, limit=2)
    theirs = cli_json_lines("solve", workload, "--backend", backend, "--limit", 2, "--format", "json")
    assert len(mine) == len(boards) == len(theirs)
    for a, b in zip(mine, theirs):
        jsonschema.validate(a, schema("solve"))
        a, b = without_time(a), without_time(b)
        if backend == "portfolio":
            # Which member wins is a race.
            a["stats"], b["stats"] = {}, {}
        # The same keys in the same order, at every level, as well as the same values.
        assert json.dumps(a) == json.dumps(b)


def test_counts_are_exact_strings_and_agree_with_the_cli(tmp_path):
    boards = game_sample()[:4]
    workload = tmp_path / "sample.jsonl"
    workload.write_text("".join(json.dumps(b) + "\n" for b in boards))
    for backend in ["native", "dp"]:
        mine = dominofit.count(workload, backend=backend)
        theirs = cli_json_lines("count", workload, "--backend", backend, "--format", "json")
        for a, b in zip(mine, theirs):
            jsonschema.validate(a, schema("count"))
            assert json.dumps(without_time(a)) == json.dumps(without_time(b))
            assert int(a["count"]) >= 1


def test_an_unsat_board_is_unsat_with_its_reason():
    board = {"name": "tiny", "rows": 2, "cols": 3, "blocked": [],
             "row_clues": [3, 3], "col_clues": [1, 3, 2]}
    answer = dominofit.solve(board)
    assert answer["status"] == "unsat"
    assert answer["complete"] is True
    assert "1.5 horizontal pieces" in answer["stats"]["reason"]


def test_grade_is_the_cli_grade():
    observed = MODELS / "observed.jsonl"
    mine = dominofit.grade(observed)
    theirs = cli_json_lines("grade", observed, "--format", "json")
    assert mine == theirs
    for answer in mine:
        jsonschema.validate(answer, schema("grade"))
        assert answer["level"] == "singles" and answer["reasoning_alone"] is True
    one = dominofit.grade(MODELS / "observed" / "8x8.json")
    assert one["name"] == "observed-8x8" and one["level_number"] == 1
    with pytest.raises(dominofit.DominofitError):
        dominofit.grade(MODELS / "observed" / "8x8.json", timeout=-1)


def test_hint_explain_and_shared_are_the_cli_answers(tmp_path):
    levels = MODELS / "levels.jsonl"
    board = next(json.loads(line) for line in levels.read_text().splitlines()
                 if "trial-8x8" in line)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board))
    walk = dominofit.explain(board)
    assert walk == cli_json_lines("explain", path, "--format", "json")[0]
    jsonschema.validate(walk, schema("walkthrough"))
    assert walk["outcome"] == "solved" and walk["hardest"] == "trial"
    page = dominofit.explain(board, html=True)
    assert page == cli("explain", path, "--format", "html").stdout
    # A hint from half the tiling: one step, whose pieces are the tiling's.
    tiling = walk["placed"]
    partial = {"vertical": tiling["vertical"][::2], "horizontal": tiling["horizontal"][::2]}
    (tmp_path / "partial.json").write_text(json.dumps(partial))
    step = dominofit.hint(board, partial)
    assert step == cli_json_lines("hint", path, tmp_path / "partial.json", "--format", "json")[0]
    assert step["outcome"] in ("paused", "solved") and len(step["steps"]) <= 1
    for placed in step["steps"][0]["placed"]["vertical"] if step["steps"] else []:
        assert placed in tiling["vertical"]
    with pytest.raises(dominofit.DominofitError, match="does not lie on two open cells"):
        dominofit.hint(board, {"vertical": [[99, 99]], "horizontal": []})
    with pytest.raises(dominofit.DominofitError, match="is given twice"):
        dominofit.hint(board, {"vertical": tiling["vertical"][:1] * 2, "horizontal": []})
    # A move no tiling has: no step, the move to take back, as the command line says it.
    small = {"name": "w", "rows": 2, "cols": 4, "blocked": [], "row_clues": [4, 2],
             "col_clues": [0, 4, 1, 1]}
    (tmp_path / "small.json").write_text(json.dumps(small))
    wrong = {"vertical": [[1, 2]], "horizontal": []}
    (tmp_path / "wrong.json").write_text(json.dumps(wrong))
    told = dominofit.hint(small, wrong)
    assert told == cli_json_lines("hint", tmp_path / "small.json", tmp_path / "wrong.json",
                                  "--format", "json")[0]
    jsonschema.validate(told, schema("walkthrough"))
    assert told["outcome"] == "wrong_moves" and told["steps"] == []
    assert told["take_back"] == wrong and told["moves_extend"] is False
    with pytest.raises(dominofit.DominofitError, match="a walkthrough takes one"):
        dominofit.hint(levels)
    # What the tilings share, as the command line says it.
    game = MODELS / "game.jsonl"
    mine = dominofit.shared(game)
    assert mine == cli_json_lines("shared", game, "--format", "json")
    for answer in mine:
        jsonschema.validate(answer, schema("shared"))
    assert any(a["change"] is not None for a in mine)


def test_generate_at_a_level_is_the_cli_generate():
    mine = list(dominofit.generate(8, 8, count=1, seed=5, kind="unique", level="pairs"))
    theirs = cli_json_lines("generate", "--unique", "--level", "pairs", "--rows", "8",
                            "--cols", "8", "--count", "1", "--seed", "5")
    assert mine == theirs
    assert dominofit.grade(mine[0])["level"] == "pairs"
    with pytest.raises(dominofit.DominofitError, match="unknown level"):
        next(dominofit.generate(8, 8, kind="unique", level="hard"))


def test_verify_checks_the_raw_rules():
    path = MODELS / "observed" / "8x8.json"
    tiling = json.loads((MODELS / "observed" / "8x8.solution.json").read_text())
    assert dominofit.verify(path, tiling) == {
        "name": "observed-8x8", "valid": True, "violation": None
    }
    moved = json.loads(json.dumps(tiling))
    moved["vertical"][0] = [moved["vertical"][0][0], moved["vertical"][0][1] + 1]
    answer = dominofit.verify(path, moved)
    assert answer["valid"] is False
    assert answer["violation"]


@pytest.mark.parametrize("to", ["dimacs", "lp", "mps", "mzn", "opb", "mcc", "model-json"])
def test_emit_writes_the_cli_bytes(to):
    path = MODELS / "observed" / "7x7.json"
    assert dominofit.emit(path, to=to) == cli("emit", path, "--to", to).stdout


def test_emit_with_an_encoding():
    path = MODELS / "observed" / "6x6.json"
    mine = dominofit.emit(path, to="dimacs", encoding="sequential")
    assert mine == cli("emit", path, "--to", "dimacs", "--encoding", "sequential").stdout


@pytest.mark.parametrize("kind,flag", [("planted", None), ("open", "--open"), ("unique", "--unique")])
def test_generate_makes_the_cli_boards(kind, flag):
    mine = list(dominofit.generate(6, 7, count=3, seed=5, kind=kind))
    args = ["generate", "--rows", 6, "--cols", 7, "--count", 3, "--seed", 5]
    if flag:
        args.append(flag)
    theirs = cli_json_lines(*args)
    assert mine == theirs
    for board in mine:
        jsonschema.validate(board, schema("instance"))
    if kind == "unique":
        assert all(dominofit.solve(b, limit=2)["status"] == "unique" for b in mine)


def test_show_draws_as_the_cli():
    path = MODELS / "observed" / "8x8.json"
    solution = MODELS / "observed" / "8x8.solution.json"
    assert dominofit.show(path, solution) + "\n" == cli("show", path, solution).stdout
    assert dominofit.show(path, svg=True).startswith("<svg")


@pytest.mark.parametrize(
    "board",
    [
        '{"rows": 2, "cols": 2, "blocked": [], "row_clues": [2, 0], "colclues": [1, 1]}',
        '{"rows": 2, "cols": 2, "blocked": [[3, 1]], "row_clues": [2, 0], "col_clues": [1, 1]}',
        '{"rows": 2, "cols": 2, "blocked": [], "row_clues": [2], "col_clues": [1, 1]}',
        "not json",
    ],
)
def test_bad_input_raises_the_cli_message(board, tmp_path):
    path = tmp_path / "board.json"
    path.write_text(board)
    with pytest.raises(dominofit.DominofitError) as raised:
        dominofit.solve(pathlib.Path(path))
    done = cli("solve", path, ok=(1,))
    assert done.stderr.strip() == f"error: {raised.value}"


def test_an_unknown_backend_raises_the_cli_message():
    path = MODELS / "observed" / "6x6.json"
    with pytest.raises(dominofit.DominofitError) as raised:
        dominofit.solve(path, backend="nope")
    done = cli("solve", path, "--backend", "nope", ok=(2,))
    assert done.stderr.strip() == f"error: {raised.value}"


def test_a_timeout_gives_unknown_never_unsat():
    board = json.loads((MODELS / "huge.jsonl").read_text().splitlines()[-1])
    answer = dominofit.solve(board, limit=0, timeout=0.05)
    assert answer["status"] == "unknown"
    assert answer["complete"] is False
    assert answer["stats"]["stopped"] == "timeout"


def test_a_bad_timeout_is_an_error_in_the_cli_words():
    path = MODELS / "observed" / "6x6.json"
    with pytest.raises(dominofit.DominofitError) as raised:
        dominofit.solve(path, timeout=-1)
    assert str(raised.value) == "the time limit must be a positive number of seconds, not -1"
    assert str(raised.value) in cli("solve", path, "--timeout=-1", ok=(2,)).stderr


def test_unpaired_tilings_are_an_error_in_the_cli_words(tmp_path):
    boards = tmp_path / "boards.jsonl"
    boards.write_text((MODELS / "observed.jsonl").read_text())
    tiling = MODELS / "observed" / "8x8.solution.json"
    with pytest.raises(dominofit.DominofitError) as raised:
        dominofit.verify(boards, tiling)
    done = cli("verify", boards, tiling, ok=(1,))
    assert done.stderr.strip() == f"error: {raised.value}"


def test_the_callers_own_children_are_left_alone():
    """Running an external solver does not make the library reap the host's children
    (a subreaper would kill a session leader the caller started)."""
    import shutil

    if not shutil.which("cadical"):
        if os.environ.get("CI") == "true":
            pytest.fail("cadical is not installed; run scripts/install-solvers.sh")
        pytest.skip("cadical is not installed")
    board = MODELS / "observed" / "6x6.json"
    # A first external run, then a child of the caller's, then another run.
    assert dominofit.solve(board, backend="cadical", limit=2)["status"] == "unique"
    mine = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        assert dominofit.solve(board, backend="cadical", limit=2)["status"] == "unique"
        assert mine.poll() is None, "the caller's child was killed"
    finally:
        mine.kill()
        assert mine.wait() == -signal.SIGKILL


def test_the_gil_is_released_during_a_call():
    """Another Python thread runs while a long count goes on."""
    board = json.loads((MODELS / "huge.jsonl").read_text().splitlines()[-1])
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        dominofit.solve(board, limit=0, timeout=0.5)
    finally:
        stop.set()
        ticker.join()
    assert len(ticks) > 20


def test_ctrl_c_stops_a_long_call():
    """SIGINT during a long search raises KeyboardInterrupt in a child interpreter,
    which then goes on and answers the next call."""
    script = f"""
import json, os, pathlib, signal, threading, time, sys
import dominofit
board = json.loads(open({str(MODELS / "huge.jsonl")!r}).read().splitlines()[-1])
threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
start = time.monotonic()
try:
    dominofit.solve(board, limit=0, timeout=60)
    print("finished")
except KeyboardInterrupt:
    print("interrupted after", round(time.monotonic() - start, 1))
print(dominofit.solve(pathlib.Path({str(MODELS / "observed" / "6x6.json")!r}), limit=2)["status"])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("interrupted after"), done.stdout
    assert float(lines[0].split()[-1]) < 5
    assert lines[1] == "unique"


# Calls that run long on a 256x256 paper-protocol board with no time limit: each is
# interrupted by SIGINT after a second. `hint` runs explain's walkthrough with explain's
# budget; its one long part, the check of the moves, now ends within a second on these
# boards (the repair finds a tiling of the rest), so there is no long hint to interrupt.
LONG_CALLS = {
    # The 256x256 board's second tiling is found in a fraction of a second (its windows),
    # so solve asks about an open 2048x2048 board, whose first tiling takes seconds.
    "solve": "dominofit.solve(big, limit=2)",
    "grade": "dominofit.grade(board)",
    "explain": "dominofit.explain(board)",
    "shared": "dominofit.shared(board)",
    "generate": "list(dominofit.generate(256, 256, kind='unique', timeout=600))",
}


@pytest.mark.parametrize("call", sorted(LONG_CALLS))
def test_ctrl_c_stops_every_long_call(tmp_path, call):
    """SIGINT a second into a long call with no time limit raises KeyboardInterrupt
    within half a second (asserted with room for a loaded machine), and leaves no
    process and no temporary file; the interpreter then answers the next call."""
    script = f"""
import json, os, pathlib, signal, threading, time
import dominofit
board = next(json.loads(line) for line in open({str(MODELS / "paper.jsonl")!r})
             if json.loads(line)["rows"] == 256)
blocked = {{tuple(cell) for cell in board["blocked"]}}
col = next(c for c in range(1, 256) if (1, c) not in blocked and (1, c + 1) not in blocked)
move = {{"vertical": [], "horizontal": [[1, col]]}}
def planted_blocks(n):
    # An open n x n board whose clues are those of a planted tiling: each 2x2 block
    # holds two vertical or two horizontal pieces.
    rng = __import__("random").Random(7)
    rows, cols = [0] * n, [0] * n
    for r in range(0, n, 2):
        for c in range(0, n, 2):
            if rng.random() < 0.5:
                rows[r] += 2; cols[c] += 1; cols[c + 1] += 1
            else:
                rows[r] += 2; rows[r + 1] += 2; cols[c + 1] += 4
    return {{"name": "blocks", "rows": n, "cols": n, "blocked": [],
            "row_clues": rows, "col_clues": cols}}
big = planted_blocks(2048) if {call!r} == "solve" else None
signalled = []
def interrupt():
    signalled.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)
threading.Timer(1.0, interrupt).start()
try:
    {LONG_CALLS[call]}
    print("finished")
except KeyboardInterrupt:
    print("interrupted after", round(time.monotonic() - signalled[0], 3))
print(dominofit.solve(pathlib.Path({str(MODELS / "observed" / "6x6.json")!r}), limit=2)["status"])
"""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, TMPDIR=str(scratch)))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("interrupted after"), done.stdout
    print(call, lines[0])
    assert float(lines[0].split()[-1]) < 2.0, lines[0]
    assert lines[1] == "unique"
    assert processes_naming(scratch) == []
    assert list(scratch.iterdir()) == []


def test_version_is_the_cli_version():
    assert cli("--version").stdout.split()[-1] == dominofit.__version__


@pytest.mark.parametrize(
    "call,message",
    [
        (
            lambda b: dominofit.solve(b, limit=-1),
            "limit must be between 0 and 18446744073709551615, not -1",
        ),
        (
            lambda b: dominofit.solve(b, limit=2**64),
            "limit must be between 0 and 18446744073709551615, not 18446744073709551616",
        ),
        (lambda b: dominofit.solve(b, threads=0), "threads must be between 1 and 256, not 0"),
        (lambda b: dominofit.count(b, threads=300), "threads must be between 1 and 256, not 300"),
        (lambda b: dominofit.generate(-2, 5), "rows must be between 1 and 4096, not -2"),
        (
            lambda b: dominofit.generate(2**70, 5),
            "rows must be between 1 and 4096, not 1180591620717411303424",
        ),
        (
            lambda b: dominofit.generate(5, 5, count=-1),
            "count must be between 0 and 18446744073709551615, not -1",
        ),
        (
            lambda b: dominofit.generate(5, 5, count=2**70),
            "count must be between 0 and 18446744073709551615, not 1180591620717411303424",
        ),
        (
            lambda b: dominofit.generate(5, 5, node_cap=2**70),
            "node_cap must be between 1 and 18446744073709551615, not 1180591620717411303424",
        ),
        (lambda b: dominofit.generate(5, 5, pool=0), "pool must be between 1 and 10000, not 0"),
        (lambda b: dominofit.emit(b, to="xml"), "unknown format `xml`"),
        (lambda b: dominofit.solve(b, families="bogus"), "unknown constraint families `bogus`"),
    ],
)
def test_bad_arguments_are_clear_errors(call, message):
    board = {"rows": 2, "cols": 2, "blocked": [], "row_clues": [2, 0], "col_clues": [1, 1]}
    with pytest.raises(dominofit.DominofitError) as raised:
        call(board)
    assert str(raised.value) == message


def test_a_wrong_type_is_a_type_error():
    with pytest.raises(TypeError):
        dominofit.solve(42)
    with pytest.raises(TypeError):
        dominofit.solve({"rows": 1}, limit="2")


def require(program):
    import shutil

    if not shutil.which(program):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{program} is not installed; run scripts/install-solvers.sh")
        pytest.skip(f"{program} is not installed")


def processes_naming(directory):
    """Processes (not this one) whose environment names `directory` as TMPDIR."""
    needle = f"TMPDIR={directory}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as environ:
                if any(v.startswith(needle) for v in environ.read().split(b"\0")):
                    found.append(int(entry))
        except OSError:
            pass
    return found


def cpu_seconds():
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@pytest.mark.parametrize("backend", ["varisat", "microlp"])
def test_an_unstoppable_solver_is_stopped_at_the_deadline(backend):
    """varisat and microlp run in worker processes killed at the deadline: no thread
    of theirs goes on using a core after the call, and no worker is left."""
    boards = [json.loads(line) for line in (MODELS / "huge.jsonl").read_text().splitlines()[:3]]
    threads = threading.active_count()
    for board in boards:
        assert dominofit.solve(board, backend=backend, timeout=0.3)["status"] == "unknown"
    assert threading.active_count() == threads
    before = cpu_seconds()
    time.sleep(1)
    assert cpu_seconds() - before < 0.2, "a solver thread is still busy"
    workers = subprocess.run(["pgrep", "-f", "-P", str(os.getpid()), "worker-solve"],
                             capture_output=True, text=True).stdout
    assert workers == ""


def stray_solver(tmp_path, sleep):
    """A descriptor directory with `stray-cadical`: CaDiCaL behind a shell that first
    starts a `setsid` child holding the solver's standard output."""
    script = tmp_path / "stray.sh"
    script.write_text(f"#!/bin/sh\nsetsid sleep {sleep} &\nexec cadical \"$@\"\n")
    script.chmod(0o755)
    descriptors = tmp_path / "backends"
    descriptors.mkdir()
    (descriptors / "stray-cadical.toml").write_text(
        'name = "stray-cadical"\nreads = "dimacs"\n'
        f'command = ["{script}", "{{input}}"]\nanswer = "competition"\n'
    )
    return descriptors


def test_a_solvers_stray_is_killed_and_its_answer_read(tmp_path):
    """A child the solver started outside its process group, holding its standard
    output, neither costs the answer nor outlives the call; the caller's own session
    leaders are left alone."""
    require("cadical")
    sleep = f"41.{os.getpid()}"
    script = f"""
import os, pathlib, subprocess, dominofit
mine = subprocess.Popen(["sleep", "30"], start_new_session=True)
answer = dominofit.solve(pathlib.Path({str(MODELS / "observed" / "6x6.json")!r}),
                         backend="stray-cadical", limit=2)
print(answer["status"], "mine alive" if mine.poll() is None else "mine killed")
mine.kill()
"""
    env = dict(os.environ, DOMINOFIT_BACKENDS=str(stray_solver(tmp_path, sleep)))
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["unique", "mine", "alive"], done.stdout + done.stderr
    assert time.monotonic() - started < 30, "waited for the stray"
    left = subprocess.run(["pgrep", "-f", f"sleep {sleep}$"], capture_output=True, text=True)
    assert left.stdout == "", "the stray outlived the call"


def test_ctrl_c_stops_its_own_call_and_other_threads_go_on():
    """Ctrl-C raises KeyboardInterrupt in the call it interrupts; a call running in
    another thread meanwhile answers as it would have."""
    script = f"""
import json, os, pathlib, signal, threading, dominofit
huge = json.loads(open({str(MODELS / "huge.jsonl")!r}).read().splitlines()[-1])
other = {{}}
def background():
    other["answer"] = dominofit.count(huge, timeout=1.5)
thread = threading.Thread(target=background)
thread.start()
threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    dominofit.solve(huge, limit=0, timeout=30)
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
thread.join()
print(other["answer"]["complete"], other["answer"]["stats"].get("stopped"))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "interrupted", done.stdout
    # The background call ran to its own time limit: it was not stopped by Ctrl-C.
    assert lines[1] == "False timeout", done.stdout


def test_twenty_interrupted_calls_leave_nothing(tmp_path):
    """Ctrl-C during calls to an external solver and to the varisat worker, twenty
    times: afterwards no process the calls started runs, and their temporary
    directory is empty."""
    require("cadical")
    script = f"""
import json, os, signal, threading, dominofit
huge = json.loads(open({str(MODELS / "huge.jsonl")!r}).read().splitlines()[-1])
interrupted = 0
for k in range(20):
    threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    try:
        dominofit.solve(huge, backend=("cadical" if k % 2 else "varisat"), limit=0, timeout=30)
    except KeyboardInterrupt:
        interrupted += 1
print(interrupted)
"""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, TMPDIR=str(scratch)))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["20"], done.stdout
    deadline = time.monotonic() + 5
    while processes_naming(scratch) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_naming(scratch) == []
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("backend", ["cadical", "varisat"])
def test_sigterm_during_a_call_leaves_nothing(tmp_path, backend):
    """SIGTERM to an interpreter in the middle of a call still ends it by SIGTERM, as
    the default action does, but only after the call's solver is killed (and reaped)
    and its temporary directory (the formula) removed."""
    if backend == "cadical":
        require("cadical")
    script = f"""
import json, dominofit
huge = json.loads(open({str(MODELS / "huge.jsonl")!r}).read().splitlines()[-1])
print("started", flush=True)
dominofit.solve(huge, backend={backend!r}, limit=0, timeout=60)
print("finished", flush=True)
"""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, TMPDIR=str(scratch)))
    try:
        assert child.stdout.readline().strip() == "started"
        # The solver runs once a process other than the interpreter names the scratch
        # directory, and for cadical once its formula's directory is there (the varisat
        # worker reads its model from a pipe).
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            others = [pid for pid in processes_naming(scratch) if pid != child.pid]
            if others and (backend == "varisat" or any(scratch.iterdir())):
                break
            time.sleep(0.02)
        else:
            pytest.fail("the solver never started")
        time.sleep(0.2)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == -signal.SIGTERM, (child.returncode, out, err)
    assert "finished" not in out
    assert processes_naming(scratch) == []
    assert list(scratch.iterdir()) == []


def test_sigterm_to_a_forked_child_ends_the_child_not_the_parent():
    """A child forked from an interpreter that imported dominofit (multiprocessing's
    default on Linux) inherits the SIGTERM handler: a Pool's terminate() must end its
    workers, and the parent goes on."""
    script = """
import multiprocessing, dominofit
with multiprocessing.get_context("fork").Pool(2) as pool:
    print(pool.map(abs, [-1, -2]), flush=True)
print("alive", flush=True)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr)
    assert done.stdout.split("\n")[:2] == ["[1, 2]", "alive"], done.stdout


def _answer_or_message(call):
    try:
        return ("answer", without_time(call()))
    except dominofit.DominofitError as error:
        return ("error", str(error))


def _variants(base, changes):
    for change in changes:
        board = json.loads(json.dumps(base))
        change(board)
        yield board


def test_a_dict_and_its_json_text_give_the_same_answer_or_message():
    """Dicts of the exact expected shape are read by a fast path and the rest by the
    validating reader; both must agree with the JSON text of the same dict, valid or
    not, on the answer or on the message."""
    base = json.loads((MODELS / "observed" / "8x8.json").read_text())
    changes = [
        lambda b: None,
        lambda b: b.pop("name"),
        lambda b: b.update(rows=True),
        lambda b: b.update(rows=8.0),
        lambda b: b.update(rows=2**70),
        lambda b: b.update(rows=-1),
        lambda b: b.update(rows=0),
        lambda b: b.update(cols=5000),
        lambda b: b["row_clues"].__setitem__(0, False),
        lambda b: b["row_clues"].__setitem__(0, 2**64),
        lambda b: b["row_clues"].__setitem__(0, -3),
        lambda b: b["col_clues"].pop(),
        lambda b: b.update(blocked=[tuple(c) for c in b["blocked"]]),
        lambda b: b.update(blocked=[[0, 1]]),
        lambda b: b.update(blocked=[[9, 1]]),
        lambda b: b.update(blocked=[[1, 1], [1, 1]]),
        lambda b: b.update(blocked=[[1, 1, 1]]),
        lambda b: b.update(blocked=[[1, True]]),
        lambda b: b.update(colclues=[1]),
        lambda b: b.pop("col_clues"),
        lambda b: b.update(name=5),
        lambda b: b.update(name="a\nb"),
        lambda b: b.update(blocked=None),
    ]
    for board in _variants(base, changes):
        text = json.dumps(board)
        by_dict = _answer_or_message(lambda: dominofit.solve(board, limit=2))
        by_text = _answer_or_message(lambda: dominofit.solve(text, limit=2))
        assert by_dict == by_text, text


def test_a_tiling_dict_and_its_json_text_verify_alike():
    board = json.loads((MODELS / "observed" / "8x8.json").read_text())
    tiling = json.loads((MODELS / "observed" / "8x8.solution.json").read_text())
    changes = [
        lambda t: None,
        lambda t: t["vertical"].reverse(),
        lambda t: t["vertical"].append(t["vertical"][0]),
        lambda t: t.update(vertical=[tuple(c) for c in t["vertical"]]),
        lambda t: t["horizontal"].__setitem__(0, [0, 1]),
        lambda t: t["horizontal"].__setitem__(0, [5000, 1]),
        lambda t: t["horizontal"].__setitem__(0, [1, True]),
        lambda t: t.pop("horizontal"),
        lambda t: t.update(diagonal=[]),
    ]
    for variant in _variants(tiling, changes):
        text = json.dumps(variant)
        by_dict = _answer_or_message(lambda: {"stats": {"time_ms": 0}, **dominofit.verify(board, variant)})
        by_text = _answer_or_message(lambda: {"stats": {"time_ms": 0}, **dominofit.verify(board, text)})
        assert by_dict == by_text, text
