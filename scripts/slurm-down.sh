#!/usr/bin/env bash
# Stops the private Slurm that scripts/slurm-up.sh started in DIR, and nothing else:
#
#     scripts/slurm-down.sh DIR      (or DOMINOFIT_SLURM_DIR=DIR scripts/slurm-down.sh)
#
# First the jobs of that cluster (its controller is private, so every job it knows was
# submitted to it; a controller shut down would leave running jobs behind), then its
# slurmctld and slurmd (`scontrol shutdown` through DIR/slurm.conf), then its munged.
# A process counts as this instance's only if it holds one of the instance's log files
# (DIR/log/*.log, DIR/munge/munged.log) open for writing, which the daemons and the
# slurmscriptd and slurmstepd processes they fork do: the daemons are stopped by the
# pids in their pid files under DIR when that holds (a stale pid file may name someone
# else's process by now), and whatever of the instance is left after them by that test
# alone. Nothing is looked up or stopped by name; other Slurms, munge daemons and jobs
# on the machine are left alone. DIR itself, with the logs, is left for reading.
set -euo pipefail

dir=${1:-${DOMINOFIT_SLURM_DIR:-}}
if [ -z "$dir" ]; then
    echo "usage: scripts/slurm-down.sh DIR (the directory scripts/slurm-up.sh printed)" >&2
    exit 2
fi
if [ ! -f "$dir/.dominofit-slurm" ]; then
    echo "slurm-down: $dir was not made by scripts/slurm-up.sh; stopping nothing" >&2
    exit 1
fi
dir=$(cd -- "$dir" && pwd -P)
export SLURM_CONF="$dir/slurm.conf"

# The instance's log files, by device and inode.
logs=" "
for f in "$dir/log/slurmctld.log" "$dir/log/slurmd.log" "$dir/munge/munged.log"; do
    if [ -f "$f" ]; then logs+="$(stat -c '%d:%i' -- "$f") "; fi
done
# Whether process $1 is one of this instance's: it holds one of those logs open for
# writing (O_WRONLY or O_RDWR: a `tail -f` of a log is no daemon).
ours() {
    local fd id flags
    while read -r fd id; do
        [[ $logs == *" $id "* ]] || continue
        flags=$(sed -n 's/^flags:[[:space:]]*//p' "/proc/$1/fdinfo/${fd##*/}" 2>/dev/null || true)
        if [ -n "$flags" ] && ((8#$flags & 3)); then return 0; fi
    done < <(stat -L -c '%n %d:%i' -- "/proc/$1"/fd/* 2>/dev/null || true)
    return 1
}
# The pid in pid file $1 if that process is ours.
pid_in() {
    local pid
    pid=$(cat -- "$1" 2>/dev/null || true)
    if [[ $pid =~ ^[0-9]+$ ]] && ours "$pid"; then echo "$pid"; fi
}
# Every process of this instance.
instance() {
    local p
    for p in /proc/[0-9]*; do
        if ours "${p#/proc/}"; then echo "${p#/proc/}"; fi
    done
}
# Waits up to $1 tenths of a second for the processes $2... to end; says which did not.
wait_gone() {
    local tenths=$1 pid left
    shift
    for _ in $(seq "$tenths"); do
        left=()
        for pid in "$@"; do
            if ours "$pid"; then left+=("$pid"); fi
        done
        if [ ${#left[@]} -eq 0 ]; then return 0; fi
        sleep 0.1
    done
    echo "${left[*]}"
    return 1
}
# Stops the processes $2... (named $1 in messages): SIGTERM, then SIGKILL for what would
# not end within ten seconds.
stop() {
    local what=$1 left pids
    shift
    [ $# -gt 0 ] || return 0
    kill -TERM "$@" 2>/dev/null || true
    if ! left=$(wait_gone 100 "$@"); then
        echo "slurm-down: $what (pid $left) did not end on SIGTERM; killing it" >&2
        read -ra pids <<<"$left"
        kill -KILL "${pids[@]}" 2>/dev/null || true
        wait_gone 50 "${pids[@]}" >/dev/null || true
    fi
}

ctld=$(pid_in "$dir/run/slurmctld.pid")
slurmd=$(pid_in "$dir/run/slurmd.pid")
if [ -n "$ctld" ]; then
    # The jobs of this cluster, each by id, and the time for their steps to end.
    mapfile -t jobs < <(squeue -h -o %A 2>/dev/null | sort -u)
    if [ ${#jobs[@]} -gt 0 ]; then
        scancel "${jobs[@]}" 2>/dev/null || true
        for _ in $(seq 30); do
            if [ -z "$(squeue -h 2>/dev/null)" ]; then break; fi
            sleep 1
        done
    fi
    scontrol shutdown >/dev/null 2>&1 || true
fi
daemons=()
if [ -n "$ctld" ]; then daemons+=("$ctld"); fi
if [ -n "$slurmd" ]; then daemons+=("$slurmd"); fi
if [ ${#daemons[@]} -gt 0 ] && ! wait_gone 200 "${daemons[@]}" >/dev/null; then
    stop "slurmctld/slurmd" "${daemons[@]}"
fi
# What the daemons forked and left behind (a job step that would not end), munged
# apart: the last to go, as slurmstepd may still need it.
munged=$(pid_in "$dir/munge/munged.pid")
mapfile -t steps < <(instance | grep -vxF -- "${munged:-none}" || true)
stop "slurmstepd or slurmscriptd" "${steps[@]}"
[ -z "$munged" ] || stop munged "$munged"

mapfile -t left < <(instance)
if [ ${#left[@]} -gt 0 ]; then
    echo "slurm-down: still running from $dir: pid ${left[*]}" >&2
    exit 1
fi
echo "slurm-down: stopped the private Slurm in $dir"
