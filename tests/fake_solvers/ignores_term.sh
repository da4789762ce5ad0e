#!/bin/sh
# A solver that ignores SIGTERM (and so does its child, which inherits that): at the
# deadline it must be killed after the grace period.
trap '' TERM
sleep "${FAKE_SLEEP:-30}"
echo "s UNSATISFIABLE"
exit 20
