#!/bin/sh
# A solver that prints a verdict and then dies of a signal: the verdict is not trusted.
echo "s UNSATISFIABLE"
kill -SEGV $$
