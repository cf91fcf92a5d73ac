# Four Open MPI ranks (a real mpirun from Debian's openmpi-bin) each run `mirage run --profile
# P -- <the stand-in HSA client> obj.co` on a gfx942 stand-in agent, with one shared, empty
# cache: every rank exits 0 and receives the same gfx942 bytes, the translator runs once, and
# the cache debug lines show one miss and three hits that waited for it.  Nothing but the
# entry and its idle lock file is left in the cache.  The translator is the test double,
# slowed down so that the ranks overlap.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"
source "$(dirname "$0")/translate_lib.sh"

command -v mpirun >/dev/null || skip_all "no mpirun (scripts/setup.sh installs openmpi-bin)"
unset HSA_HOTSWAP_CACHE_DIR
CACHE=$XDG_CACHE_HOME/mirage/hotswap
tree=$TEST_TMP/tree/hotswap
stage_double_tree "$tree"
export HOTSWAP_HOME=$tree STANDIN_AGENT_GFX=gfx942 HSA_HOTSWAP_CACHE_DEBUG=1
export MIRAGE_TEST_TRANSLATE_LOG=$TEST_TMP/translator.log MIRAGE_TEST_TRANSLATE_SLEEP_MS=1500
: >"$MIRAGE_TEST_TRANSLATE_LOG"
run_capture "$MIRAGE_BIN" profile create mi300 --target gfx942
assert_eq "$RUN_STATUS" 0 "profile mi300 created"

# Each rank records into its own directory and writes its own stderr.
cat >"$TEST_TMP/rank.sh" <<RANK
#!/bin/sh
r=\$OMPI_COMM_WORLD_RANK
mkdir -p "$TEST_TMP/rank.\$r"
STANDIN_RECORD_DIR="$TEST_TMP/rank.\$r" exec "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" "$XLAT_SRC" \\
	2>"$TEST_TMP/rank.\$r.err"
RANK
chmod +x "$TEST_TMP/rank.sh"
run_capture timeout 120 mpirun --allow-run-as-root --oversubscribe -np 4 "$TEST_TMP/rank.sh"
assert_eq "$RUN_STATUS" 0 "mpirun -np 4: every rank exits 0 ($(head -c 300 "$RUN_STDERR_FILE"))"
for r in 0 1 2 3; do
	judge_translated "$TEST_TMP/rank.$r/load-1.co" "$XLAT_SRC" gfx942 "rank $r's object"
	cmp -s "$TEST_TMP/rank.$r/load-1.co" "$TEST_TMP/rank.0/load-1.co" ||
		fail "rank $r received other bytes than rank 0"
done
ok "mpirun -np 4: the same bytes on every rank"
assert_eq "$(wc -l <"$MIRAGE_TEST_TRANSLATE_LOG")" 1 "mpirun -np 4: the translator ran once"
cat "$TEST_TMP"/rank.*.err >"$TEST_TMP/all.err"
assert_eq "$(count_lines "$TEST_TMP/all.err" "hotswap_cache: miss (gfx1250 -> gfx942)")" 1 "one miss"
assert_eq "$(count_lines "$TEST_TMP/all.err" "ms for another process's translation)")" 3 \
	"three hits, each after waiting"
left=$(find "$CACHE" -type f -printf '%f\n' | sed 's/^[0-9a-f]\{64\}//' | sort | tr '\n' ' ')
assert_eq "$left" ".co .json .lock " "the cache holds the entry, its sidecar and the idle lock only"
done_testing
