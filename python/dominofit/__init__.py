"""Domino Fit boards from Python: solve, count, verify, emit, generate and draw them.

The functions take an instance the way the command line does -- a dict in the
instance format, JSON text (one instance, or JSON Lines for several), or a path
(``pathlib.Path`` or ``os.PathLike``) to a ``.json`` or ``.jsonl`` file -- and
return plain dicts in the shapes ``dominofit solve --format json`` and
``dominofit count --format json`` print (statuses, solutions, stats). One
instance gives one dict; several (a list, or a workload) give a list.

A call costs about what its work costs: a game-size board is solved in a few
microseconds, from a dict as from JSON text. For many boards, the batch calls
:func:`solve_many`, :func:`count_many` and :func:`verify_many` take any
iterable (a generator too), solve on ``threads`` threads with the GIL
released, and answer in input order; :func:`generate` makes boards lazily.

Errors are :class:`DominofitError` with the message the command line prints;
for a list of boards, the first board that fails raises (the command line
reports it and goes on); a batch keeps every other board's answer
(:class:`BatchError`). Long calls release the GIL, and Ctrl-C
(``KeyboardInterrupt``) stops the call it interrupts, killing any solver
program it started; calls running in other threads go on. Solvers that
cannot be stopped in-process (varisat, microlp) run in worker processes of
this interpreter, and whatever a solver program leaves running is killed
when it ends, never the host's own children.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any, Iterable, Iterator, List, Optional, Union

from . import _native
from ._native import DominofitError

__all__ = [
    "BatchError",
    "DominofitError",
    "count",
    "count_many",
    "emit",
    "explain",
    "generate",
    "grade",
    "hint",
    "shared",
    "show",
    "solve",
    "solve_many",
    "verify",
    "verify_many",
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


class BatchError(DominofitError):
    """Some boards of a batch failed. ``results`` holds every board's place in input
    order: its answer, or the :class:`DominofitError` saying why it has none;
    ``failures`` lists ``(index, error)`` of the boards that failed."""

    def __init__(self, results: List[Any], failures: List[tuple]):
        index, first = failures[0]
        super().__init__(
            f"{len(failures)} of {len(results)} boards failed; the first, "
            f"board {index + 1}: {first}"
        )
        self.results = results
        self.failures = failures


def _whole(name: str, value: Any, low: int, high: Optional[int] = None) -> int:
    """``value`` as an int between ``low`` and ``high``, or the error saying so."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"between {low} and {high}"
        raise DominofitError(f"{name} must be {bound}, not {value}")
    return value


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
    return _native.solve(instance, backend, limit, timeout, families, encoding, threads)


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
    return _native.count(instance, backend, timeout, families, encoding, threads)


def grade(instance: Instance, timeout: Optional[float] = None) -> Union[dict, List[dict]]:
    """Grade boards the way a puzzle designer needs: the weakest rung of the deduction
    ladder (``singles``, ``colours``, ``pairs``, ``trial``, else ``search``) that settles
    each board without guessing, the steps of each rung and a score.

    Returns the ``grade --format json`` object per board (``dominofit schema grade``);
    ``level`` is ``None`` for a board with more than one tiling. ``timeout`` bounds each
    board's uniqueness check (seconds).
    """
    return _native.grade(instance, timeout)


def hint(instance: Instance, partial: Any = None, timeout: Optional[float] = None) -> dict:
    """The next deduction on one board, from the start or from the pieces placed so far
    (``partial``: a solution object with any subset of a tiling's pieces).

    Returns the ``hint --format json`` object (``dominofit schema walkthrough``): its
    ``steps`` hold at most one step, with its ``rung``, ``rule``, the pieces ``placed``
    and ``ruled_out``, the ``reason`` in words and the ``cells`` it rests on.
    """
    return _native.hint(instance, partial, timeout)


def explain(instance: Instance, partial: Any = None, timeout: Optional[float] = None,
            *, html: bool = False) -> Union[dict, str]:
    """Every deduction on one board, weakest rule first, until it is solved, shown to
    have no tiling, or stuck (it needs search). Returns the ``explain --format json``
    object, or with ``html=True`` the self-contained page as text."""
    return _native.explain(instance, partial, timeout, bool(html))


def shared(instance: Instance, max_tilings: int = 1000, tries: int = 64,
           timeout: Optional[float] = None) -> Union[dict, List[dict]]:
    """What all the tilings of each board share: the ``shared --format json`` object
    per board, with the pieces every tiling has (``common``), the cells where they
    differ (``differ``) and a ``change`` (a hole) that makes the board unique."""
    return _native.shared(instance, _whole("max_tilings", max_tilings, 2, 1_000_000),
                          _whole("tries", tries, 0, 1_000_000), timeout)


def verify(instance: Instance, solution: Any) -> Union[dict, List[dict]]:
    """Check tilings against the raw game rules (never the compiled model).

    Returns ``{"name": ..., "valid": bool, "violation": str or None}`` per
    board; ``violation`` is the first rule the tiling breaks.
    """
    return _native.verify_tilings(instance, solution)


def _batch(call: Any, errors: str) -> List[Any]:
    """Runs a batch call with Python's cycle collector paused: a batch makes millions
    of small lists and dicts, none in a cycle, and a collection each few hundred of
    them would walk every answer made so far (most of a large batch's time)."""
    errors = _errors(errors)
    paused = gc.isenabled()
    gc.disable()
    try:
        results = call()
    finally:
        if paused:
            gc.enable()
    return _settled(results, errors)


def _settled(results: List[Any], errors: str) -> List[Any]:
    if errors == "return":
        return results
    failures = [(k, r) for k, r in enumerate(results) if isinstance(r, DominofitError)]
    if failures:
        raise BatchError(results, failures)
    return results


def _errors(errors: str) -> str:
    if errors not in ("raise", "return"):
        raise DominofitError(f'errors must be "raise" or "return", not {errors!r}')
    return errors


def solve_many(
    instances: Iterable[Union[dict, str]],
    backend: str = "native",
    limit: int = 1,
    timeout: Optional[float] = None,
    *,
    families: Optional[str] = None,
    encoding: Optional[str] = None,
    threads: int = 1,
    errors: str = "raise",
) -> List[dict]:
    """:func:`solve` for every board of ``instances`` (dicts or JSON text of one
    board each; a list or any iterable, read as it goes), on ``threads`` threads
    with the GIL released. Answers come in input order, each the one
    :func:`solve` gives.

    A board that cannot be read or solved does not stop the others: with
    ``errors="raise"`` (the default) a :class:`BatchError` comes once all are
    done, holding every answer; with ``errors="return"`` its place in the list
    holds the :class:`DominofitError` instead. Ctrl-C stops the whole batch.
    """
    return _batch(
        lambda: _native.solve_many(
            instances, backend, limit, timeout, families, encoding, threads
        ),
        errors,
    )


def count_many(
    instances: Iterable[Union[dict, str]],
    backend: str = "native",
    timeout: Optional[float] = None,
    *,
    families: Optional[str] = None,
    encoding: Optional[str] = None,
    threads: int = 1,
    errors: str = "raise",
) -> List[dict]:
    """:func:`count` for every board of ``instances``, as :func:`solve_many` runs them."""
    return _batch(
        lambda: _native.count_many(instances, backend, timeout, families, encoding, threads),
        errors,
    )


def verify_many(
    instances: Iterable[Union[dict, str]],
    solutions: Iterable[Union[dict, str]],
    *,
    threads: int = 1,
    errors: str = "raise",
) -> List[dict]:
    """:func:`verify` for every board and tiling, paired in order (both iterables
    must end together), as :func:`solve_many` runs them."""
    return _batch(lambda: _native.verify_many(instances, solutions, threads), errors)


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
    return _native.emit(instance, to, encoding, families)


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
    level: Optional[str] = None,
) -> Iterator[dict]:
    """New boards, as ``dominofit generate`` makes them (same seed, same boards),
    made one at a time as the iterator is read: ``list(generate(...))`` for all.

    ``kind``: ``planted`` (clues read off a random tiling), ``open`` (planted,
    no holes), ``unique`` (exactly one solution) or ``unsat`` (adversarial,
    no solution; each proved by a prover other than the native search).
    ``level`` (with ``kind="unique"``): boards at exactly that level of the deduction
    ladder (``singles``, ``colours``, ``pairs``, ``trial``, ``search``), as
    ``generate --unique --level`` makes them.
    """
    return _native.generate(
        _whole("rows", rows, 1, _MAX_SIDE), _whole("cols", cols, 1, _MAX_SIDE),
        _whole("count", count, 0, _U64_MAX), _whole("seed", seed, 0, _U64_MAX), kind,
        float(timeout), _whole("pool", pool, 1, 10_000),
        _whole("node_cap", node_cap, 1, _U64_MAX), level,
    )


def show(instance: Instance, solution: Any = None, *, svg: bool = False) -> str:
    """A board, and a tiling over it, drawn as text (``svg=True``: an SVG picture)."""
    return _native.show(instance, solution, bool(svg))
