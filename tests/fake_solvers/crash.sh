#!/bin/sh
# A solver that dies: a message on stderr, exit status 1, no verdict.
echo "fake-crash: segmentation fault (core dumped)" >&2
exit 1
