# One translation across processes (the disk cache's per-key lock, docs/intercept.md): four
# processes that load one gfx1250 object at once under `mirage run` on a gfx942 stand-in agent
# translate it once, and the three others are served the entry; a holder killed mid-way
# releases the lock and the waiter translates; a holder that hangs past
# HSA_HOTSWAP_CACHE_LOCK_TIMEOUT is not waited on; flock failing with ENOLCK (NFS without
# locks) costs duplicate work, never the load; a planted lock (a symbolic link, a
# group-writable file, a FIFO, another user's file) is never used, nor waited on.  The translator is the test double, slowed down by
# MIRAGE_TEST_TRANSLATE_SLEEP_MS so that the processes overlap.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"
source "$(dirname "$0")/translate_lib.sh"

unset HSA_HOTSWAP_CACHE_DIR
CACHE=$XDG_CACHE_HOME/mirage/hotswap
ENOLCK=$MIRAGE_BUILD/tests/tools/flock_enolck.so
[ -e "$ENOLCK" ] || fail "missing build output '$ENOLCK'"
tree=$TEST_TMP/tree/hotswap
stage_double_tree "$tree"
export HOTSWAP_HOME=$tree STANDIN_AGENT_GFX=gfx942 HSA_HOTSWAP_CACHE_DEBUG=1
export MIRAGE_TEST_TRANSLATE_LOG=$TEST_TMP/translator.log
calls() { wc -l <"$MIRAGE_TEST_TRANSLATE_LOG"; }
run_capture "$MIRAGE_BIN" profile create mi300 --target gfx942
assert_eq "$RUN_STATUS" 0 "profile mi300 created"

# start I [ENV=VALUE...]: process I loads the object under mirage run, in the background;
# its stdout, stderr and records are $TEST_TMP/p.I.{out,err,rec}.  HSA_HOTSWAP_* values go
# through `mirage run --env` (mirage owns that namespace and drops inherited ones).
start() {
	local i=$1 v envs=() opts=()
	shift
	for v in "$@"; do
		case $v in
		HSA_HOTSWAP_*) opts+=(--env "$v") ;;
		*) envs+=("$v") ;;
		esac
	done
	mkdir -p "$TEST_TMP/p.$i.rec"
	env STANDIN_RECORD_DIR="$TEST_TMP/p.$i.rec" "${envs[@]}" "$MIRAGE_BIN" run -p mi300 \
		"${opts[@]}" -- "$CLIENT" "$XLAT_SRC" >"$TEST_TMP/p.$i.out" 2>"$TEST_TMP/p.$i.err" &
	pids[$i]=$!
}
# finish I: waits for process I and checks it loaded the translation.
finish() {
	wait "${pids[$1]}"
	assert_eq "$?" 0 "process $1 exits 0 ($(head -c 300 "$TEST_TMP/p.$1.err"))"
	judge_translated "$TEST_TMP/p.$1.rec/load-1.co" "$XLAT_SRC" gfx942 "process $1's object"
}
# The translator has started (its log has N lines), within 20 s.
wait_calls() {
	for _ in $(seq 200); do
		[ "$(calls)" -ge "$1" ] && return 0
		sleep 0.1
	done
	fail "the translator never started (call $1)"
}
fresh() {
	rm -rf "$CACHE" "$TEST_TMP"/p.*
	: >"$MIRAGE_TEST_TRANSLATE_LOG"
}

# ---- four processes at once: one translation ----
fresh
for i in 1 2 3 4; do start $i MIRAGE_TEST_TRANSLATE_SLEEP_MS=1500; done
for i in 1 2 3 4; do finish $i; done
assert_eq "$(calls)" 1 "four processes: the translator ran once"
cat "$TEST_TMP"/p.*.err >"$TEST_TMP/all.err"
assert_eq "$(count_lines "$TEST_TMP/all.err" "hotswap_cache: miss (gfx1250 -> gfx942) kernels=2")" 1 \
	"four processes: one miss"
assert_eq "$(count_lines "$TEST_TMP/all.err" "ms for another process's translation)")" 3 \
	"four processes: three hits, each after waiting for the translation"
for i in 2 3 4; do
	cmp -s "$TEST_TMP/p.$i.rec/load-1.co" "$TEST_TMP/p.1.rec/load-1.co" ||
		fail "process $i loaded other bytes than process 1"
done
ok "four processes: the same bytes everywhere"
assert_eq "$(find "$CACHE" -name '*.lock' -type f -perm 0600 | wc -l)" 1 "the lock file: one, mode 0600"
key=$(basename "$(find "$CACHE" -name '*.co' | head -1)" .co)

# ---- the holder dies: the kernel drops its lock, the waiter translates ----
fresh
start 1 MIRAGE_TEST_TRANSLATE_SLEEP_MS=20000
wait_calls 1
start 2
sleep 0.5
holder=$(awk '{print $3}' "$MIRAGE_TEST_TRANSLATE_LOG")
kill -9 "$holder" 2>/dev/null || fail "cannot kill the holder (pid '$holder')"
wait "${pids[1]}" 2>/dev/null
finish 2
assert_eq "$(calls)" 2 "a dead holder: the waiter translated"
assert_contains "$TEST_TMP/p.2.err" "the process it waited for stored nothing" "a dead holder: said"

# ---- a holder that hangs past the bound ----
fresh
start 1 MIRAGE_TEST_TRANSLATE_SLEEP_MS=6000
wait_calls 1
t0=$EPOCHREALTIME
start 2 HSA_HOTSWAP_CACHE_LOCK_TIMEOUT=1
wait "${pids[2]}"
rc=$?
elapsed=$(python3 -c "print(int(($EPOCHREALTIME - $t0) * 1000))")
assert_eq "$rc" 0 "a hung holder: the waiter exits 0"
[ "$elapsed" -lt 5000 ] && ok "a hung holder: the waiter did not wait for it (${elapsed} ms)" ||
	fail "a hung holder: the waiter took ${elapsed} ms"
assert_contains "$TEST_TMP/p.2.err" "another process has held '$key.lock' for" "a hung holder: the wait is said"
assert_contains "$TEST_TMP/p.2.err" "(HSA_HOTSWAP_CACHE_LOCK_TIMEOUT): translating here too" \
	"a hung holder: and the knob named"
finish 1
assert_eq "$(calls)" 2 "a hung holder: two translations"

# ---- no locks on the file system (ENOLCK): duplicate work, never a failure ----
fresh
# --env LD_PRELOAD goes after the contract's own entry (the shim), into the workload only.
run_capture "$MIRAGE_BIN" run -p mi300 --env "LD_PRELOAD=$ENOLCK" -- "$CLIENT" "$XLAT_SRC"
assert_eq "$RUN_STATUS" 0 "ENOLCK: the client exits 0"
assert_contains "$RUN_STDERR" "hotswap_cache: miss (gfx1250 -> gfx942) kernels=2" "ENOLCK: translated"
assert_contains "$RUN_STDERR" "(No locks available): translating without waiting" "ENOLCK: said"
assert_eq "$(find "$CACHE" -name '*.co' | wc -l)" 1 "ENOLCK: the entry is still stored"

# ---- planted locks are never used, and never waited on ----
plants="link mode fifo"
[ "$(id -u)" = 0 ] && plants+=" owner" || skip "a lock owned by another user: needs root to plant"
for plant in $plants; do
	fresh
	mkdir -p "$CACHE/${key:0:2}"
	chmod 700 "$CACHE" "$CACHE/${key:0:2}"
	if [ $plant = link ]; then
		: >"$TEST_TMP/victim"
		ln -s "$TEST_TMP/victim" "$CACHE/${key:0:2}/$key.lock"
		want="cannot open the lock '$key.lock': a symbolic link"
	elif [ $plant = fifo ]; then
		mkfifo -m 600 "$CACHE/${key:0:2}/$key.lock"
		want="the lock '$key.lock' is not a regular file of uid $(id -u), mode 0600"
	elif [ $plant = owner ]; then
		: >"$CACHE/${key:0:2}/$key.lock"
		chmod 600 "$CACHE/${key:0:2}/$key.lock"
		chown 65534 "$CACHE/${key:0:2}/$key.lock"
		want="the lock '$key.lock' is not a regular file of uid $(id -u), mode 0600"
	else
		: >"$CACHE/${key:0:2}/$key.lock"
		chmod 666 "$CACHE/${key:0:2}/$key.lock"
		want="the lock '$key.lock' is not a regular file of uid $(id -u), mode 0600"
	fi
	run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" "$XLAT_SRC"
	assert_eq "$RUN_STATUS" 0 "a planted lock ($plant): the client exits 0"
	assert_contains "$RUN_STDERR" "$want" "a planted lock ($plant): refused and said"
	assert_eq "$(calls)" 1 "a planted lock ($plant): translated"
done
[ ! -s "$TEST_TMP/victim" ] && ok "the link's target is untouched" || fail "the link's target was written"
done_testing
