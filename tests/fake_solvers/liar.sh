#!/bin/sh
# A solver that says UNSATISFIABLE but exits as if satisfiable: not a verdict to trust.
echo "s UNSATISFIABLE"
exit 10
