#!/bin/sh
# A solver that claims SATISFIABLE with a model setting every variable true.
n=$(awk '/^p cnf/ {print $3}' "$1")
echo "s SATISFIABLE"
printf "v"
i=1
while [ "$i" -le "$n" ]; do printf " %d" "$i"; i=$((i + 1)); done
echo " 0"
exit 10
