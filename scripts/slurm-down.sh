#!/usr/bin/env bash
# Stops what scripts/slurm-up.sh started: every job first (a controller shut down
# leaves running jobs behind), then slurmctld and slurmd, then munged.
set -uo pipefail

if command -v scancel >/dev/null 2>&1 && scontrol ping >/dev/null 2>&1; then
    scancel --user="$(id -un)" 2>/dev/null
    for _ in $(seq 30); do
        [ -z "$(squeue -h 2>/dev/null)" ] && break
        sleep 1
    done
    scontrol shutdown >/dev/null 2>&1
fi
# The daemons still running, by name (pgrep matches at most 15 characters of a name).
running() {
    local name
    for name in slurmctld slurmd slurmstepd munged; do
        pgrep -x "$name" >/dev/null && echo "$name"
    done
}
for _ in $(seq 20); do
    [ -z "$(running | grep -v munged)" ] && break
    sleep 0.5
done
for name in slurmctld slurmd slurmstepd; do
    pkill -x "$name" 2>/dev/null
done
if command -v munged >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged --stop >/dev/null 2>&1 || pkill -x munged
fi
for _ in $(seq 20); do
    [ -z "$(running)" ] && break
    sleep 0.5
done
# What would not stop is killed.
for name in $(running); do
    pkill -KILL -x "$name" 2>/dev/null
done
sleep 0.5
if [ -n "$(running)" ]; then
    echo "slurm-down: still running: $(running | tr '\n' ' ')" >&2
    exit 1
fi
echo "slurm-down: stopped"
