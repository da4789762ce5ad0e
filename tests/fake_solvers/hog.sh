#!/bin/sh
# A solver that fills 200 MiB of memory and then gives up: its peak must show in
# runs.csv, and under a smaller --memory its allocation fails and the run is a memout.
exec python3 -c 'block = b"x" * (200 << 20); print("s UNKNOWN")'
