#!/bin/sh
# A solver that never answers, through a child process: the deadline must kill both.
sleep 31.25
echo "s UNSATISFIABLE"
exit 20
