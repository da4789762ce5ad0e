#!/usr/bin/env bash
# Starts a one-node Slurm on this machine, for the campaign tests (scripts/slurm-test.sh):
# Debian's slurm-wlm and munge (installed if missing), a munge key, munged, and a minimal
# slurm.conf written now (process tracking and task plugins that need no cgroups, one
# node with this machine's cores, no accounting), then slurmctld and slurmd. Waits until
# the node is idle. scripts/slurm-down.sh stops it all. Needs root, no systemd.
set -euo pipefail

source "$(dirname "$0")/apt-install.sh"
apt_install slurm-up slurm-wlm munge

# munged refuses files it does not own: it runs as the munge user the package made.
[ -s /etc/munge/munge.key ] || runuser -u munge -- mungekey --create
install -d -o munge -g munge -m 0755 /run/munge
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged
fi
for _ in $(seq 50); do
    munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break
    sleep 0.2
done

node=$(hostname -s)
memory=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 9 / 10))
install -d /etc/slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /var/log/slurm
# A fresh controller: jobs of an earlier run would come back from its saved state.
rm -rf /var/lib/slurm/slurmctld/*
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=dominofit-ci
SlurmctldHost=$node
SlurmUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
MailProg=/bin/true
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -i
slurmd -N "$node"
for _ in $(seq 60); do
    if sinfo -h -n "$node" -o %T 2>/dev/null | grep -q '^idle'; then
        echo "slurm-up: node $node idle ($(nproc) cores)"
        exit 0
    fi
    sleep 1
done
echo "slurm-up: node $node did not come up; see /var/log/slurm/" >&2
exit 1
