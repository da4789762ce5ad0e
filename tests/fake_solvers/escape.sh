#!/bin/sh
# A solver that starts a child outside its process group (setsid) and hangs: neither may
# outlive the run. The child sleeps for $FAKE_SLEEP seconds (unique per test).
setsid sleep "${FAKE_SLEEP:-41.5}" &
sleep 30.5
echo "s UNSATISFIABLE"
exit 20
