#!/bin/sh
# A solver that says it was started (touching $FAKE_SOLVER_MARKER) and never answers:
# tests use it to see whether dominofit ran a program at all. It sleeps for
# $FAKE_SLEEP seconds, a value each test makes unique so that it can look for leftovers.
if [ -n "$FAKE_SOLVER_MARKER" ]; then touch "$FAKE_SOLVER_MARKER"; fi
sleep "${FAKE_SLEEP:-30.75}"
echo "s UNSATISFIABLE"
exit 20
