# A real single-node Slurm from Debian (munged, slurmctld and two slurmd, fake nodes n1 and n2
# on 127.0.0.1, all started here with a config in the test's directory and stopped at the end):
#   - `srun -N2 -n4` of `mirage run --profile P -- <the stand-in HSA client> obj.co` on a gfx942
#     stand-in agent, with one shared, empty cache: every rank exits 0 with the same gfx942
#     bytes, the translator runs once, one miss and three hits that waited for it;
#   - `sbatch --array=0-3` of `mirage cache warm DIR --target gfx942 --shard $SLURM_ARRAY_TASK_ID/4`
#     over a directory of objects: each object is translated once over the four tasks, the
#     objects are then all hits under srun, and `mirage cache verify` passes.
# The translator is the test double, slowed down so that the ranks overlap.  Slurm's daemons
# run as root here (SlurmUser=root); elsewhere the test is skipped, never passed.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"
source "$(dirname "$0")/translate_lib.sh"

[ "$(id -u)" = 0 ] || skip_all "a Slurm of the test's own needs root here"
for c in munged slurmctld slurmd srun sbatch sinfo; do
	command -v "$c" >/dev/null ||
		skip_all "no $c (scripts/setup.sh installs munge, slurmctld, slurmd and slurm-client)"
done

# ---- the cluster ----
SL=$TEST_TMP/slurm
mkdir -p "$SL/state" "$SL/munge"
chmod 700 "$SL/munge"
head -c 128 /dev/urandom >"$SL/munge/munge.key"
chmod 600 "$SL/munge/munge.key"
stop_slurm() {
	local pidfile pid
	for pidfile in "$SL"/slurmd-n1.pid "$SL"/slurmd-n2.pid "$SL"/slurmctld.pid "$SL"/munge/pid; do
		pid=$(cat "$pidfile" 2>/dev/null) && kill "$pid" 2>/dev/null
	done
	# Only what we started, and never waited on forever.
	for _ in $(seq 50); do
		pgrep -f "$SL/slurm.conf|$SL/munge" >/dev/null || break
		sleep 0.1
	done
	pkill -KILL -f "$SL/slurm.conf|$SL/munge" 2>/dev/null
}
trap 'stop_slurm; _test_cleanup' EXIT
read -r ctld_port n1_port n2_port < <(python3 - <<'EOF'
import socket
socks = [socket.socket() for _ in range(3)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))
EOF
)
munged --force --socket="$SL/munge/sock" --key-file="$SL/munge/munge.key" \
	--pid-file="$SL/munge/pid" --log-file="$SL/munge/log" --seed-file="$SL/munge/seed" ||
	fail "munged did not start: $(cat "$SL/munge/log" 2>/dev/null)"
cat >"$SL/slurm.conf" <<EOF
ClusterName=mirage-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
AuthType=auth/munge
AuthInfo=socket=$SL/munge/sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool-%n
SlurmctldPidFile=$SL/slurmctld.pid
SlurmdPidFile=$SL/slurmd-%n.pid
SlurmctldLogFile=$SL/slurmctld.log
SlurmdLogFile=$SL/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=n1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$n1_port CPUs=2
NodeName=n2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$n2_port CPUs=2
PartitionName=test Nodes=n1,n2 Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
export SLURM_CONF=$SL/slurm.conf
slurmctld -f "$SLURM_CONF" -i || fail "slurmctld did not start: $(tail -5 "$SL/slurmctld.log")"
for n in n1 n2; do
	slurmd -f "$SLURM_CONF" -N "$n" || fail "slurmd -N $n did not start: $(tail -5 "$SL/slurmd-$n.log")"
done
for _ in $(seq 100); do
	[ "$(sinfo -h -t idle -o '%D' 2>/dev/null)" = 2 ] && break
	sleep 0.2
done
assert_eq "$(sinfo -h -t idle -o '%D')" 2 "slurm: two idle nodes (n1, n2)"

# ---- srun -N2 -n4: one translation for four ranks on two nodes ----
rank_job_setup 1500

# rank.sh OBJ TAG: each rank records into its own directory and writes its own stderr.
cat >"$TEST_TMP/rank.sh" <<RANK
#!/bin/sh
d="$TEST_TMP/\$2.\$SLURM_PROCID"
mkdir -p "\$d"
echo "\$SLURMD_NODENAME" >"\$d.node"
STANDIN_RECORD_DIR="\$d" exec "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" "\$1" 2>"\$d.err"
RANK
chmod +x "$TEST_TMP/rank.sh"
run_capture timeout 120 srun -N2 -n4 "$TEST_TMP/rank.sh" "$XLAT_SRC" cold
assert_eq "$RUN_STATUS" 0 "srun -N2 -n4: every rank exits 0 ($(head -c 300 "$RUN_STDERR_FILE"))"
assert_eq "$(sort -u "$TEST_TMP"/cold.*.node | tr '\n' ' ')" "n1 n2 " "srun -N2 -n4: ranks on both nodes"
judge_one_translation "$TEST_TMP/cold" "srun -N2 -n4"

# ---- sbatch --array=0-3: a job array warms the cache, each object once ----
"$MIRAGE_BIN" cache clear >/dev/null || fail "mirage cache clear"
: >"$MIRAGE_TEST_TRANSLATE_LOG"
objs=$TEST_TMP/objs
mkdir -p "$objs"
# Six distinct objects: the translator's source with a different tail each (its own key).
for i in 1 2 3 4 5 6; do
	{
		cat "$XLAT_SRC"
		printf 'mirage-slurm-%d' "$i"
	} >"$objs/obj$i.co"
done
cat >"$TEST_TMP/warm.sh" <<WARM
#!/bin/sh
exec "$MIRAGE_BIN" --json cache warm "$objs" --target gfx942 --shard "\$SLURM_ARRAY_TASK_ID/4" \\
	>"$TEST_TMP/warm.\$SLURM_ARRAY_TASK_ID.json"
WARM
chmod +x "$TEST_TMP/warm.sh"
export MIRAGE_TEST_TRANSLATE_SLEEP_MS=0
run_capture timeout 120 sbatch --wait --array=0-3 -o "$TEST_TMP/array-%a.out" "$TEST_TMP/warm.sh"
assert_eq "$RUN_STATUS" 0 "sbatch --array=0-3 --wait: every task exits 0 ($(cat "$TEST_TMP"/array-*.out 2>/dev/null | head -c 300))"
python3 - "$TEST_TMP" <<'EOF' || fail "the four array tasks did not split the objects"
import collections, json, sys
done = collections.Counter()
for t in range(4):
    d = json.load(open(f"{sys.argv[1]}/warm.{t}.json"))
    for o in d["objects"]:
        if o["status"] != "other-shard":
            done[o["origin"]] += 1
            assert o["status"] == "translated", o
assert len(done) == 6 and set(done.values()) == {1}, done
EOF
ok "sbatch --array=0-3: each of the six objects was warmed by exactly one task"
assert_eq "$(wc -l <"$MIRAGE_TEST_TRANSLATE_LOG")" 6 "sbatch --array: six translations for six objects"
run_capture "$MIRAGE_BIN" cache verify
assert_eq "$RUN_STATUS" 0 "mirage cache verify passes after the array ($RUN_STDOUT$RUN_STDERR)"
# The job after it: every rank of every object is a hit, and nothing is translated again.
: >"$MIRAGE_TEST_TRANSLATE_LOG"
for i in 1 2 3 4 5 6; do
	run_capture timeout 60 srun -N2 -n2 "$TEST_TMP/rank.sh" "$objs/obj$i.co" "hit$i"
	assert_eq "$RUN_STATUS" 0 "obj$i.co under srun after the array: exits 0"
done
cat "$TEST_TMP"/hit*.err >"$TEST_TMP/hit.all"
assert_eq "$(count_lines "$TEST_TMP/hit.all" "hotswap_cache: hit (gfx1250 -> gfx942)")" 12 \
	"after the array: twelve loads, twelve hits"
assert_eq "$(wc -l <"$MIRAGE_TEST_TRANSLATE_LOG")" 0 "after the array: nothing translated again"

# ---- the other way round: `mirage run -p P -- srun ...` ----
# srun passes its whole environment on (Slurm's default --export=ALL), so the tasks inherit
# the shim and the contract from the one mirage run around srun.  srun itself then runs with
# the shim preloaded, which a sanitized shim cannot be (srun has no sanitizer runtime).
outer_srun() {
	"$MIRAGE_BIN" cache clear >/dev/null || fail "mirage cache clear"
	: >"$MIRAGE_TEST_TRANSLATE_LOG"
	export MIRAGE_TEST_TRANSLATE_SLEEP_MS=1500
	cat >"$TEST_TMP/task.sh" <<-TASK
	#!/bin/sh
	d="$TEST_TMP/outer.\$SLURM_PROCID"
	mkdir -p "\$d"
	STANDIN_RECORD_DIR="\$d" exec "$CLIENT" "$XLAT_SRC" 2>"\$d.err"
	TASK
	chmod +x "$TEST_TMP/task.sh"
	run_capture timeout 120 "$MIRAGE_BIN" run -p mi300 -- srun -N2 -n4 "$TEST_TMP/task.sh"
	assert_eq "$RUN_STATUS" 0 "mirage run -- srun -N2 -n4: every task exits 0 ($(head -c 300 "$RUN_STDERR_FILE"))"
	for r in 0 1 2 3; do
		cmp -s "$TEST_TMP/outer.$r/load-1.co" "$TEST_TMP/cold.0/load-1.co" ||
			fail "mirage run -- srun: task $r did not receive the gfx942 translation"
	done
	ok "mirage run -- srun -N2 -n4: every task received the gfx942 translation"
	cat "$TEST_TMP"/outer.*.err >"$TEST_TMP/outer.all"
	assert_eq "$(wc -l <"$MIRAGE_TEST_TRANSLATE_LOG")" 1 "mirage run -- srun: the translator ran once"
	assert_eq "$(count_lines "$TEST_TMP/outer.all" "ms for another process's translation)")" 3 \
		"mirage run -- srun: three tasks waited for it"
}
if [ -n "${MIRAGE_SANITIZE:-}" ]; then
	skip "mirage run -- srun: a sanitized shim cannot be preloaded into srun"
else
	outer_srun
fi
done_testing
