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
rank_job_setup 1500

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
judge_one_translation "$TEST_TMP/rank" "mpirun -np 4"
done_testing
