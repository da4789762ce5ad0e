#!/bin/sh
# A solver that fails with a message ending in "interrupted": an error (exit 1), not the
# user's Ctrl-C (exit 130).
echo "c the solver was interrupted"
echo "interrupted" >&2
exit 7
