#!/bin/sh
# A solver that gives up at once by its own limits: UNKNOWN long before any deadline.
echo "s UNKNOWN"
exit 0
