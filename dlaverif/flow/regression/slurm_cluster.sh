#!/usr/bin/env bash
# A one-node Slurm cluster on localhost (controller and node both on `hostname -s`), for the Slurm launcher of
# make regress and its test. Debian packages: slurm-wlm (slurmctld, slurmd, sbatch) and munge; run as root.
#
#   dlaverif/flow/regression/slurm_cluster.sh start    write slurm.conf under $SLURM_DIR, start munged, slurmctld, slurmd,
#                                           wait until the node is idle, print the SLURM_CONF to export
#   dlaverif/flow/regression/slurm_cluster.sh stop     stop the daemons this script started (by their pid files)
#   dlaverif/flow/regression/slurm_cluster.sh status   sinfo
#
# SLURM_DIR (default /tmp/regress-slurm) holds the config, state, spool, logs and pid files. Settings that work in
# a container as root: proctrack/linuxproc and task/none (no cgroups), select/cons_tres with CR_CPU.
set -euo pipefail
DIR=${SLURM_DIR:-/tmp/regress-slurm}
CONF=$DIR/slurm.conf
export SLURM_CONF=$CONF
HOST=$(hostname -s)
CPUS=$(nproc)

die() { echo "slurm_cluster: $*" >&2; exit 1; }

start() {
  for exe in munged slurmctld slurmd sbatch sinfo; do
    command -v "$exe" >/dev/null || die "$exe not found: apt-get install -y slurm-wlm munge"
  done
  mkdir -p "$DIR/state" "$DIR/spool" "$DIR/log"
  cat >"$CONF" <<CONF
ClusterName=regress
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$HOST CPUs=$CPUS State=UNKNOWN
PartitionName=regress Nodes=$HOST Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
  if ! pgrep -x munged >/dev/null; then
    [ -f /etc/munge/munge.key ] || { mkdir -p /etc/munge; dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null; chmod 400 /etc/munge/munge.key; }
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    munged --force --pid-file="$DIR/munged.pid"
  fi
  [ -f "$DIR/slurmctld.pid" ] && kill -0 "$(cat "$DIR/slurmctld.pid")" 2>/dev/null || slurmctld -c
  [ -f "$DIR/slurmd.pid" ] && kill -0 "$(cat "$DIR/slurmd.pid")" 2>/dev/null || slurmd
  for _ in $(seq 60); do
    state=$(sinfo -h -n "$HOST" -o %T 2>/dev/null || true)
    case "$state" in idle*|mixed*|alloc*) echo "slurm_cluster: node $HOST $state; export SLURM_CONF=$CONF"; return 0;; esac
    sleep 1
  done
  die "node $HOST did not become idle (state: ${state:-none}); logs in $DIR/log"
}

stop() {
  for name in slurmd slurmctld munged; do
    pidf=$DIR/$name.pid
    if [ -f "$pidf" ] && kill -0 "$(cat "$pidf")" 2>/dev/null; then
      pid=$(cat "$pidf"); kill "$pid"
      for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    fi
    rm -f "$pidf"
  done
  echo "slurm_cluster: stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) sinfo ;;
  *) die "usage: $0 start|stop|status" ;;
esac
