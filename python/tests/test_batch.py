"""The batch calls and the lazy generator against single calls and the CLI: the same
answers on every committed workload, bad boards that do not lose the others' answers,
Ctrl-C during a batch, and boards made only as they are read."""

import itertools
import json
import os
import pathlib
import subprocess
import sys
import time

import jsonschema
import pytest

import dominofit

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
WORKLOADS = sorted(MODELS.glob("*.jsonl"))


def boards_of(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def schema(name):
    return json.loads((ROOT / "schemas" / f"{name}.schema.json").read_text())


def decided(answer):
    """What must not depend on how the call was made: the name, the status and, where
    the status fixes them (unique, unsat), the tilings."""
    status = answer["status"]
    fixed = answer["solutions"] if status in ("unique", "unsat") else None
    return answer["name"], status, answer["complete"], fixed


def test_the_workloads_are_all_here():
    assert {p.name for p in WORKLOADS} >= {"game.jsonl", "unsat.jsonl", "giant.jsonl"}


@pytest.mark.parametrize("workload", WORKLOADS, ids=lambda p: p.stem)
def test_batch_answers_are_the_single_call_answers(workload):
    """Every board of every committed workload, at one second a board: a board both
    calls decide gets the same status (and the same tilings where the status fixes
    them); one the clock stops in either is `unknown`, never a different verdict."""
    boards = boards_of(workload)
    batch = dominofit.solve_many(boards, limit=2, timeout=1, threads=2)
    assert len(batch) == len(boards)
    for board, mine in zip(boards, batch):
        jsonschema.validate(mine, schema("solve"))
        single = dominofit.solve(board, limit=2, timeout=1)
        assert mine["name"] == single["name"] == board["name"]
        if mine["status"] != "unknown" and single["status"] != "unknown":
            assert decided(mine) == decided(single)


def test_one_and_two_threads_and_a_generator_give_the_same_answers():
    boards = boards_of(MODELS / "game.jsonl")
    one = dominofit.solve_many(boards, limit=2, threads=1)
    two = dominofit.solve_many((b for b in boards), limit=2, threads=2)
    texts = dominofit.solve_many([json.dumps(b) for b in boards], limit=2, threads=2)
    assert [decided(a) for a in one] == [decided(a) for a in two] == [decided(a) for a in texts]
    assert [a["solutions"] for a in one] == [a["solutions"] for a in dominofit.solve(boards, limit=2)]


def test_count_many_counts_as_count():
    boards = boards_of(MODELS / "game.jsonl")[:12]
    for backend in ["native", "dp"]:
        batch = dominofit.count_many(boards, backend=backend, threads=2)
        singles = [dominofit.count(b, backend=backend) for b in boards]
        for a, b in zip(batch, singles):
            jsonschema.validate(a, schema("count"))
            assert (a["name"], a["count"], a["complete"]) == (b["name"], b["count"], b["complete"])


def test_verify_many_verifies_as_verify():
    boards = boards_of(MODELS / "game.jsonl")[:20]
    tilings = [dominofit.solve(b)["solutions"][0] for b in boards]
    # One tiling moved onto the wrong board.
    tilings[5] = tilings[4]
    batch = dominofit.verify_many(boards, iter(tilings), threads=2)
    assert batch == [dominofit.verify(b, t) for b, t in zip(boards, tilings)]
    assert [v["valid"] for v in batch].count(False) >= 1


def test_verify_many_needs_as_many_tilings_as_boards():
    boards = boards_of(MODELS / "game.jsonl")[:3]
    tilings = [dominofit.solve(b)["solutions"][0] for b in boards[:2]]
    with pytest.raises(dominofit.DominofitError, match="more instances than solutions"):
        dominofit.verify_many(boards, tilings)


def test_a_bad_board_in_the_middle_loses_no_other_answer():
    boards = boards_of(MODELS / "game.jsonl")[:8]
    given = list(boards)
    given[2] = {"rows": 2, "cols": 2, "blocked": [], "row_clues": [2], "col_clues": [1, 1]}
    given[5] = "not json"
    given[6] = 42
    results = dominofit.solve_many(given, limit=2, threads=2, errors="return")
    assert len(results) == len(given)
    for k, result in enumerate(results):
        if k in (2, 5, 6):
            assert isinstance(result, dominofit.DominofitError)
            assert f"line {k + 1}" in str(result), str(result)
        else:
            assert decided(result) == decided(dominofit.solve(boards[k], limit=2))
    assert "row_clues" in str(results[2])
    with pytest.raises(dominofit.BatchError) as raised:
        dominofit.solve_many(given, limit=2, threads=2)
    error = raised.value
    assert isinstance(error, dominofit.DominofitError)
    assert [k for k, _ in error.failures] == [2, 5, 6]
    assert str(error).startswith("3 of 8 boards failed; the first, board 3: ")
    assert [decided(r) for k, r in enumerate(error.results) if k not in (2, 5, 6)] == [
        decided(r) for k, r in enumerate(results) if k not in (2, 5, 6)
    ]


def test_bad_batch_arguments_are_clear_errors():
    boards = boards_of(MODELS / "game.jsonl")[:2]
    with pytest.raises(dominofit.DominofitError, match="threads must be between 1 and 256, not 0"):
        dominofit.solve_many(boards, threads=0)
    with pytest.raises(dominofit.DominofitError, match="unknown backend"):
        dominofit.solve_many(boards, backend="nope")
    with pytest.raises(dominofit.DominofitError, match="errors must be"):
        dominofit.solve_many(boards, errors="ignore")
    with pytest.raises(TypeError):
        dominofit.solve_many(42)


def test_an_empty_batch_is_an_empty_list():
    assert dominofit.solve_many([]) == []
    assert dominofit.count_many(iter([]), threads=2) == []
    assert dominofit.verify_many([], []) == []


def test_ctrl_c_stops_a_batch():
    """SIGINT during a batch of long searches (every board of the largest workload,
    uniqueness asked, each allowed half a minute) raises KeyboardInterrupt soon, leaves
    no thread working, and the interpreter answers the next call."""
    script = f"""
import json, os, pathlib, signal, threading, time, dominofit
giant = [json.loads(l) for l in open({str(MODELS / "giant.jsonl")!r}).read().splitlines()]
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
start = time.monotonic()
try:
    dominofit.solve_many(giant * 2, limit=2, timeout=30, threads=2)
    print("finished")
except KeyboardInterrupt:
    print("interrupted after", round(time.monotonic() - start, 1))
print(threading.active_count())
print(dominofit.solve(pathlib.Path({str(MODELS / "observed" / "6x6.json")!r}), limit=2)["status"])
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("interrupted after"), done.stdout
    assert float(lines[0].split()[-1]) < 10, done.stdout
    assert lines[1] == "1", done.stdout
    assert lines[2] == "unique", done.stdout


def test_generate_makes_boards_as_they_are_read():
    # A billion boards asked for, three read: only those are made.
    started = time.monotonic()
    stream = dominofit.generate(8, 8, count=10**9, seed=3, kind="unique")
    first = list(itertools.islice(stream, 3))
    assert time.monotonic() - started < 60
    assert len(first) == 3
    assert first == list(dominofit.generate(8, 8, count=3, seed=3, kind="unique"))
    assert next(stream) == list(dominofit.generate(8, 8, count=4, seed=3, kind="unique"))[3]
    for board in first:
        jsonschema.validate(board, schema("instance"))
        assert dominofit.solve(board, limit=2)["status"] == "unique"


def test_generated_boards_feed_a_batch():
    answers = dominofit.solve_many(dominofit.generate(8, 8, count=50, seed=9), limit=1, threads=2)
    assert [a["status"] for a in answers] == ["sat"] * 50
