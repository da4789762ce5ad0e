#!/usr/bin/env bash
# Starts a PRIVATE one-node Slurm for the campaign tests (scripts/slurm-test.sh), one that
# shares nothing with a Slurm or munge the machine may have: everything lives in one
# directory, DOMINOFIT_SLURM_DIR (default: a new directory under ${TMPDIR:-/tmp}; its
# path is printed):
#
#     slurm.conf      written now, used by the daemons (-f) and the commands (SLURM_CONF)
#     env             `source DIR/env` points sbatch, squeue, scancel, ... at this Slurm
#     munge/          its own munged: key, socket, pid file, log and seed file
#     state/ spool/   slurmctld's StateSaveLocation, slurmd's SlurmdSpoolDir
#     log/ run/       the daemons' logs and pid files
#
# The controller and node listen on ports of their own (DOMINOFIT_SLURM_PORT, default
# 16817, and the next one), and use munge through AuthInfo=socket=..., which the commands
# read from the same slurm.conf. Nothing under /etc/slurm, /etc/munge, /var/lib/slurm or
# /run/munge is read or written. Waits until the node is idle, then prints how to use
# it. scripts/slurm-down.sh DIR stops exactly what this started (by the pids in its pid
# files, and only processes that write its logs); a failure here does so too.
#
# It refuses to start (exit 1, nothing touched) where a Slurm already runs: a slurmctld
# or slurmd process anywhere on the machine, or a controller answering `scontrol ping`
# with the default configuration (or with the SLURM_CONF of the caller). Installs
# Debian's slurm-wlm and munge if missing. Needs root, no systemd.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
source "$here/apt-install.sh"

refuse() {
    echo "slurm-up: $*; not starting" >&2
    exit 1
}

# A Slurm running here already: its processes, or a controller the default
# configuration (or the caller's SLURM_CONF) reaches. Only looks, never stops anything.
slurm_running() {
    local pids conf answer
    # (Zombies apart: an ended daemon whose parent has yet to reap it runs nothing.)
    pids=$(ps -e -o pid=,stat=,comm= |
        awk '$2 !~ /^Z/ && ($3 == "slurmctld" || $3 == "slurmd") {print $1}' | paste -sd ' ')
    if [ -n "$pids" ]; then
        echo "slurmctld or slurmd already runs on this machine (pid $pids)"
        return 0
    fi
    command -v scontrol >/dev/null 2>&1 || return 1
    for conf in default "${SLURM_CONF:-}"; do
        [ -n "$conf" ] || continue
        if [ "$conf" = default ]; then
            answer=$(env -u SLURM_CONF timeout 10 scontrol ping 2>/dev/null || true)
        else
            answer=$(SLURM_CONF=$conf timeout 10 scontrol ping 2>/dev/null || true)
        fi
        if grep -q ' is UP' <<<"$answer"; then
            echo "a Slurm controller answers with the $conf configuration: $answer"
            return 0
        fi
    done
    return 1
}

# Before the packages are installed too: on a machine with a Slurm built from source,
# installing Debian's would already be a change.
if why=$(slurm_running); then refuse "$why"; fi
apt_install slurm-up slurm-wlm munge
if why=$(slurm_running); then refuse "$why"; fi

port=${DOMINOFIT_SLURM_PORT:-16817}
if ! [[ $port =~ ^[1-9][0-9]*$ ]] || [ "$port" -ge 65535 ]; then
    refuse "DOMINOFIT_SLURM_PORT must be a port number, not '$port'"
fi
for p in "$port" $((port + 1)); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
        refuse "port $p is taken (set DOMINOFIT_SLURM_PORT to a free pair of ports)"
    fi
done

# The directory: a new one, an empty one given, or one an earlier slurm-up made (its
# marker file says so), whose state is cleared since nothing of it runs any more.
marker=.dominofit-slurm
if [ -n "${DOMINOFIT_SLURM_DIR:-}" ]; then
    mkdir -p -- "$DOMINOFIT_SLURM_DIR"
    dir=$(cd -- "$DOMINOFIT_SLURM_DIR" && pwd -P)
    if [ -n "$(ls -A -- "$dir")" ] && [ ! -f "$dir/$marker" ]; then
        refuse "$dir holds files that slurm-up did not make; give a new or empty DOMINOFIT_SLURM_DIR"
    fi
else
    dir=$(mktemp -d "${TMPDIR:-/tmp}/dominofit-slurm.XXXXXX")
    dir=$(cd -- "$dir" && pwd -P)
fi
socket="$dir/munge/munge.socket"
# A Unix socket's path holds at most 107 bytes.
[ ${#socket} -le 107 ] || refuse "$dir is too long a path for munge's socket; choose a shorter DOMINOFIT_SLURM_DIR"
# munged wants its socket reachable by every user: each directory above it searchable.
p=$dir
while p=$(dirname -- "$p") && [ "$p" != / ]; do
    (($(stat -c '%#a' -- "$p") & 1)) ||
        refuse "$p is not searchable by all users, which munged requires of its socket's directories; choose another DOMINOFIT_SLURM_DIR"
done
echo "slurm-up: private Slurm in $dir"
echo "this directory holds a private Slurm started by scripts/slurm-up.sh" >"$dir/$marker"
rm -rf -- "$dir/state" "$dir/spool" "$dir/run"
chmod 0755 "$dir"
install -d -m 0755 "$dir/munge" "$dir/log" "$dir/run" "$dir/spool"
install -d -m 0700 "$dir/state"
conf="$dir/slurm.conf"

# From here on, a failure stops whatever was started and shows the logs.
up=no
on_exit() {
    [ "$up" = yes ] && return
    echo "slurm-up: failed; logs in $dir/log and $dir/munge:" >&2
    tail -n 5 "$dir"/log/*.log "$dir"/munge/munged.log 2>/dev/null >&2 || true
    bash "$here/slurm-down.sh" "$dir" >&2 || true
}
trap on_exit EXIT

# The daemons write their logs under DIR (and so do the slurmscriptd and slurmstepd
# processes they fork): that is how slurm-down tells them from any other process.
daemon() {
    env SLURM_CONF="$conf" "$@"
}

# munged, its own: its key made here (root's, as munged runs as root here), no --force.
[ -s "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key"
daemon munged --key-file="$dir/munge/munge.key" --socket="$socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
    --seed-file="$dir/munge/munged.seed"
munge_ok() {
    munge -S "$socket" -n </dev/null 2>/dev/null | unmunge -S "$socket" >/dev/null 2>&1
}
for _ in $(seq 50); do
    munge_ok && break
    sleep 0.2
done
munge_ok || {
    echo "slurm-up: munged does not answer on $socket" >&2
    exit 1
}

node=$(hostname -s)
memory=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10))
cat >"$conf" <<CONF
# A private one-node Slurm written by scripts/slurm-up.sh: its files are all in
# $dir
ClusterName=dominofit-private
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
MailProg=/bin/true
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
printf 'export SLURM_CONF=%q\nexport DOMINOFIT_SLURM_DIR=%q\n' "$conf" "$dir" >"$dir/env"

daemon slurmctld -f "$conf"
daemon slurmd -f "$conf" -N "$node"
export SLURM_CONF=$conf
for _ in $(seq 60); do
    state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
    if [ "$state" = idle ]; then
        up=yes
        echo "slurm-up: node $node idle ($(nproc) cores), controller on port $port"
        echo "slurm-up: use it with: source $dir/env"
        echo "slurm-up: stop it with: scripts/slurm-down.sh $dir"
        exit 0
    fi
    sleep 1
done
echo "slurm-up: node $node did not come up" >&2
exit 1
