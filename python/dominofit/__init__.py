"""Domino Fit boards from Python: solve, count, verify, emit, generate and draw them.

The functions take an instance the way the command line does -- a dict in the
instance format, JSON text (one instance, or JSON Lines for several), or a path
(``pathlib.Path`` or ``os.PathLike``) to a ``.json`` or ``.jsonl`` file -- and
return plain dicts in the shapes ``dominofit solve --format json`` and
``dominofit count --format json`` print (statuses, solutions, stats). One
instance gives one dict; several (a list, or a workload) give a list.

Errors are :class:`DominofitError` with the message the command line prints;
for a list of boards, the first board that fails raises (the command line
reports it and goes on). Long calls release the GIL, and Ctrl-C
(``KeyboardInterrupt``) stops the call it interrupts, killing any solver
program it started; calls running in other threads go on. Solvers that
cannot be stopped in-process (varisat, microlp) run in worker processes of
this interpreter, and whatever a solver program leaves running is killed
when it ends, never the host's own children.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Iterable, List, Optional, Union

from . import _native
from ._native import DominofitError

__all__ = [
    "DominofitError",
    "count",
    "emit",
    "generate",
    "show",
    "solve",
    "verify",
    "__version__",
]

__version__ = _native.version()


def _register_worker() -> None:
    """Runs the solvers that cannot be stopped in-process (varisat, microlp) in worker
    processes of this interpreter, killed at a deadline or on Ctrl-C."""
    executable = sys.executable
    if not executable:
        # An embedding without an interpreter to start: the solvers run in threads.
        return
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = (
        "import sys; sys.path.insert(0, {!r}); from dominofit import _native; "
        "sys.exit(_native.worker(sys.argv[1:]))".format(package_parent)
    )
    _native.register_worker([executable, "-c", code])


_register_worker()

Instance = Union[dict, str, "os.PathLike[str]", Iterable[dict]]

#: The seed ``dominofit generate`` uses when none is given.
DEFAULT_SEED: int = _native.DEFAULT_SEED

_U64_MAX = 2**64 - 1
#: Most rows or columns a board may have.
_MAX_SIDE = 4096


def _source(value: Any, what: str) -> tuple[str, bool, bool]:
    """(text or path, is_path, several) for the native calls."""
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        return path, True, _native.is_workload(path, True)
    if isinstance(value, dict):
        return json.dumps(value), False, False
    if isinstance(value, str):
        return value, False, _native.is_workload(value, False)
    if isinstance(value, (list, tuple)):
        if not all(isinstance(v, dict) for v in value):
            raise TypeError(f"a list of {what}s holds dicts")
        return "\n".join(json.dumps(v) for v in value) + "\n", False, True
    raise TypeError(
        f"{what} must be a dict, JSON text, a list of dicts or a path, "
        f"not {type(value).__name__}"
    )


def _whole(name: str, value: Any, low: int, high: Optional[int] = None) -> int:
    """``value`` as an int between ``low`` and ``high``, or the error saying so."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"between {low} and {high}"
        raise DominofitError(f"{name} must be {bound}, not {value}")
    return value


def _threads(threads: Optional[int]) -> Optional[int]:
    return None if threads is None else _whole("threads", threads, 1, 256)


def _answers(lines: List[str], several: bool) -> Union[dict, List[dict]]:
    answers = [json.loads(line) for line in lines]
    if several or len(answers) != 1:
        return answers
    return answers[0]


def solve(
    instance: Instance,
    backend: str = "native",
    limit: int = 1,
    timeout: Optional[float] = None,
    *,
    families: Optional[str] = None,
    encoding: Optional[str] = None,
    threads: Optional[int] = None,
) -> Union[dict, List[dict]]:
    """Solve: ``limit=1`` first solution, ``2`` uniqueness check, ``0`` all.

    Returns the ``solve --format json`` object: ``name``, ``backend``,
    ``limit``, ``status`` (``sat``, ``unique``, ``multiple``, ``unsat`` or
    ``unknown``), ``complete``, ``solutions`` (each checked by the raw-rules
    verifier) and ``stats``. ``timeout`` is in seconds per board; a board it
    stops is ``unknown``, never ``unsat``.
    """
    source, is_path, several = _source(instance, "instance")
    limit = _whole("limit", limit, 0, _U64_MAX)
    lines = _native.solve(
        source, is_path, backend, limit, timeout, families, encoding, _threads(threads)
    )
    return _answers(lines, several)


def count(
    instance: Instance,
    backend: str = "native",
    timeout: Optional[float] = None,
    *,
    families: Optional[str] = None,
    encoding: Optional[str] = None,
    threads: Optional[int] = None,
) -> Union[dict, List[dict]]:
    """Count the solutions exactly (``backend="dp"``: the frontier dynamic program).

    Returns the ``count --format json`` object; ``count`` is a decimal string
    (exact when ``complete``, else a lower bound): ``int(answer["count"])``.
    """
    source, is_path, several = _source(instance, "instance")
    lines = _native.count(
        source, is_path, backend, timeout, families, encoding, _threads(threads)
    )
    return _answers(lines, several)


def verify(instance: Instance, solution: Any) -> Union[dict, List[dict]]:
    """Check tilings against the raw game rules (never the compiled model).

    Returns ``{"name": ..., "valid": bool, "violation": str or None}`` per
    board; ``violation`` is the first rule the tiling breaks.
    """
    source, is_path, several = _source(instance, "instance")
    tiling, tiling_is_path, _ = _source(solution, "solution")
    pairs = _native.verify_tilings(source, is_path, tiling, tiling_is_path)
    answers = [
        {"name": name, "valid": violation is None, "violation": violation}
        for name, violation in pairs
    ]
    return _answers([json.dumps(a) for a in answers], several)


def emit(
    instance: Instance,
    to: str = "dimacs",
    encoding: Optional[str] = None,
    *,
    families: Optional[str] = None,
) -> str:
    """The compiled model as ``dominofit emit --to TO`` writes it (the same bytes).

    ``to``: ``dimacs``, ``lp``, ``mps``, ``mzn``, ``opb``, ``mcc`` or
    ``model-json``; ``encoding`` the cardinality encoding of the CNF
    (``pairwise``, ``sequential``, ``totalizer``, ``sorting-network``).
    """
    source, is_path, _ = _source(instance, "instance")
    return _native.emit(source, is_path, to, encoding, families)


def generate(
    rows: int,
    cols: int,
    count: int = 1,
    seed: int = DEFAULT_SEED,
    kind: str = "planted",
    *,
    timeout: float = 60.0,
    pool: int = 16,
    node_cap: int = 100_000,
) -> List[dict]:
    """New boards, as ``dominofit generate`` makes them (same seed, same boards).

    ``kind``: ``planted`` (clues read off a random tiling), ``open`` (planted,
    no holes), ``unique`` (exactly one solution) or ``unsat`` (adversarial,
    no solution; each proved by a prover other than the native search).
    """
    lines = _native.generate(
        _whole("rows", rows, 1, _MAX_SIDE), _whole("cols", cols, 1, _MAX_SIDE),
        _whole("count", count, 0, _U64_MAX), _whole("seed", seed, 0, _U64_MAX), kind,
        float(timeout), _whole("pool", pool, 1, 10_000),
        _whole("node_cap", node_cap, 1, _U64_MAX),
    )
    return [json.loads(line) for line in lines]


def show(instance: Instance, solution: Any = None, *, svg: bool = False) -> str:
    """A board, and a tiling over it, drawn as text (``svg=True``: an SVG picture)."""
    source, is_path, _ = _source(instance, "instance")
    if solution is None:
        return _native.show(source, is_path, None, False, svg)
    tiling, tiling_is_path, _ = _source(solution, "solution")
    return _native.show(source, is_path, tiling, tiling_is_path, svg)
