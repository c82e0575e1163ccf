#!/bin/sh
# The Slurm job-array recipe of docs/USAGE.md ("A Slurm array") on a real
# one-node Slurm cluster of Debian's packages (slurm-wlm, munge): munged,
# slurmctld and slurmd run on localhost from a slurm.conf written here, in a
# PID namespace of their own, so that every daemon and every job step dies
# with the test whatever ends it (unshare --kill-child, and setpriv's
# parent-death signal should the test itself be killed).  The recipe's
# scan.sh and its submission run as written, only the list's path replaced,
# over 100 real package files; the merged JUnit report must equal one run's,
# and a JSON merge of the same shards one run's JSON.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/recipes.sh"
for p in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
	command -v $p >/dev/null || { echo "SKIP: $p not installed (Debian packages slurm-wlm and munge)"; exit 77; }
done
for p in unshare setpriv python3; do
	command -v $p >/dev/null || { echo "SKIP: $p not installed"; exit 77; }
done
unshare --pid --fork --kill-child --mount-proc true 2>/dev/null ||
	{ echo "SKIP: cannot make a PID namespace here (unshare --pid) to hold the cluster's daemons"; exit 77; }
recipe_debs
recipe_bin

# the cluster: a munge key of its own, free ports, state under $work
c="$work/cluster"
mkdir -m 700 "$c" "$c/state" "$c/spool"
head -c 1024 /dev/urandom >"$c/munge.key"
chmod 600 "$c/munge.key"
ports=$(python3 -c 'import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in ss))')
set -- $ports
node=$(hostname -s)
# The node claims 8 CPUs (config_overrides: slurmd believes the file) so
# that four of the recipe's 2-CPU tasks share the 2 real cores at once:
# one at a time, slurmctld's scheduling passes alone take a minute.
cat >"$c/slurm.conf" <<CONF
ClusterName=distsec
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=$(id -un)
AuthType=auth/munge
AuthInfo=socket=$c/munge.sock
CredType=cred/munge
StateSaveLocation=$c/state
SlurmdSpoolDir=$c/spool
SlurmctldPidFile=$c/slurmctld.pid
SlurmdPidFile=$c/slurmd.pid
SlurmctldLogFile=$c/slurmctld.log
SlurmdLogFile=$c/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
NodeName=$node NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
cat >"$c/daemons.sh" <<DAEMONS
munged -F -f --key-file="$c/munge.key" --socket="$c/munge.sock" --pid-file="$c/munged.pid" \\
	--log-file="$c/munged.log" --seed-file="$c/munge.seed" &
for i in \$(seq 50); do [ -S "$c/munge.sock" ] && break; sleep 0.1; done
slurmctld -D -i -f "$c/slurm.conf" >"$c/slurmctld.out" 2>&1 &
slurmd -D -f "$c/slurm.conf" >"$c/slurmd.out" 2>&1 &
wait
DAEMONS
# unshare ignores SIGTERM while its child runs: SIGKILL it, and the
# namespace's init and everything in the namespace die with it
keeper=
stop_cluster() {
	[ -z "$keeper" ] || { kill -KILL "$keeper" 2>/dev/null || :; wait "$keeper" 2>/dev/null || :; }
	keeper=
}
trap 'stop_cluster; cleanup' EXIT   # lib.sh makes HUP, INT and TERM exits
setpriv --pdeathsig KILL unshare --pid --fork --kill-child --mount-proc sh "$c/daemons.sh" >"$c/daemons.out" 2>&1 &
keeper=$!
SLURM_CONF="$c/slurm.conf"
export SLURM_CONF
logs() {
	for f in "$c"/*.out "$c"/*.log; do echo "== $f"; tail -n 20 "$f"; done >&2
}
i=0
until [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; do
	i=$((i + 1))
	[ $i -lt 60 ] || { logs; fail "the cluster did not come up in 30 s"; }
	sleep 0.5
done
echo "one-node Slurm cluster up: $(sinfo -h -o '%P %D %T %c') (node $node)"

# the recipe: scan.sh, then its submission, from the directory it is in
find "$work/pool" -name '*.deb' >"$work/list"
mkdir "$work/sub"
recipe 1 'A Slurm array' | sed "s|/mirror/list|$work/list|g" >"$work/sub/scan.sh"
recipe 2 'A Slurm array' >"$work/sub/submit.sh"
grep -q '^#SBATCH --array=' "$work/sub/scan.sh" || { cat "$work/sub/scan.sh" >&2; fail "no job array in the recipe"; }
grep -q 'sbatch' "$work/sub/submit.sh" || { cat "$work/sub/submit.sh" >&2; fail "no sbatch in the recipe"; }
echo "the recipe:" && cat "$work/sub/scan.sh" "$work/sub/submit.sh"
(cd "$work/sub" && sh -e submit.sh) >"$work/submit.out" 2>&1 </dev/null ||
	{ cat "$work/submit.out" >&2; logs; fail "the submission failed"; }
merge_job=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' "$work/submit.out")
[ -n "$merge_job" ] || { cat "$work/submit.out" >&2; fail "no merge job submitted"; }

# wait for the merge job, which runs only once every task succeeded
state() { scontrol show job -o "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
i=0
while :; do
	s=$(state "$merge_job")
	case $s in
	COMPLETED) rc=0 && break ;;
	FAILED)
		# distsec merge exits 1 for error findings, as the scan does
		if scontrol show job -o "$merge_job" | grep -q ' ExitCode=1:0 '; then rc=1 && break; fi
		cat "$work"/sub/slurm-*.out >&2
		fail "the merge job failed: $(scontrol show job -o "$merge_job" | grep -o ' ExitCode=[^ ]*')"
		;;
	PENDING | RUNNING | CONFIGURING | COMPLETING) ;;
	*) cat "$work"/sub/slurm-*.out >&2; fail "the merge job is $s" ;;
	esac
	if scontrol show job -o "$merge_job" | grep -q 'Reason=DependencyNeverSatisfied'; then
		cat "$work"/sub/slurm-*.out >&2
		fail "a task of the array failed: the merge never runs"
	fi
	i=$((i + 1))
	[ $i -lt 200 ] || { squeue >&2; logs; fail "the jobs did not finish in 100 s"; }
	sleep 0.5
done
tasks=$(ls "$work"/sub/reports/shard-*.json | wc -l)
[ "$tasks" = 32 ] || fail "$tasks shard reports, not 32"
ran=$(grep -o '_job_complete: JobId=[0-9]*_[0-9]*([0-9]*) WEXITSTATUS 0' "$c/slurmctld.log" | sort -u | wc -l)
[ "$ran" = 32 ] || fail "slurmctld saw $ran array tasks end with status 0, not 32"
echo "32 array tasks and the merge job completed under slurmctld"
stop_cluster

# the merge equals one run of the same scan
rc_one=0
distsec scan -j2 --files-from "$work/list" --format junit -o "$work/one.xml" || rc_one=$?
case $rc_one in 0|1) ;; *) fail "the one run failed" ;; esac
[ "$rc_one" = "$rc" ] || fail "the merge job exited $rc, one run $rc_one"
same_report "$work/one.xml" "$work/sub/archive.xml"
same_json_merge "$work"/sub/reports/shard-*.json
echo "merged report = one run (JUnit and JSON)"
echo "PASS"
