# Helpers for the translation route's tests (sourced after lib.sh): a copy of the staged tree
# whose translator is the test double (tests/standin/translate_double.c), and the judge.
# shellcheck shell=bash

XLAT_SRC=$FIXTURES/xlat_src.co
XLAT_OUT=$FIXTURES/xlat_gfx942.co
DOUBLE=$MIRAGE_BUILD/tests/standin/translate_double/libmirage_translate.so
JUDGE=$MIRAGE_SRC/tests/integration/translate_judge.py
for f in "$XLAT_SRC" "$XLAT_OUT" "$DOUBLE"; do
	[ -e "$f" ] || fail "missing build output '$f' (build the default targets first)"
done
# What the double hands out: the prepared gfx942 object, as the kernels of xlat_src.co.
export MIRAGE_TEST_TRANSLATE_OUTPUT=$XLAT_OUT MIRAGE_TEST_TRANSLATE_KERNELS=xk,xk2
unset MIRAGE_TEST_TRANSLATE_REFUSE MIRAGE_TEST_TRANSLATE_ERROR MIRAGE_TEST_TRANSLATE_BUILD \
	MIRAGE_TEST_TRANSLATE_LOG

# stage_double_tree DIR: the staged tree copied to DIR, the double in its translator's place.
stage_double_tree() {
	mkdir -p "$(dirname "$1")"
	cp -a "$MIRAGE_BUILD/hotswap" "$1" || fail "cannot copy the staged tree"
	cp "$DOUBLE" "$1/lib/libmirage_translate.so" || fail "cannot install the test double"
}

# rank_job_setup SLEEP_MS: what the parallel-job tests share: the default cache (CACHE, empty),
# the double's tree as HOTSWAP_HOME, a gfx942 stand-in agent, the cache debug lines, the
# translator's log (cleared) and SLEEP_MS per translation so that ranks overlap, and profile
# mi300 (gfx942).
rank_job_setup() {
	unset HSA_HOTSWAP_CACHE_DIR
	CACHE=$XDG_CACHE_HOME/mirage/hotswap
	stage_double_tree "$TEST_TMP/tree/hotswap"
	export HOTSWAP_HOME=$TEST_TMP/tree/hotswap STANDIN_AGENT_GFX=gfx942 HSA_HOTSWAP_CACHE_DEBUG=1
	export MIRAGE_TEST_TRANSLATE_LOG=$TEST_TMP/translator.log MIRAGE_TEST_TRANSLATE_SLEEP_MS=$1
	: >"$MIRAGE_TEST_TRANSLATE_LOG"
	run_capture "$MIRAGE_BIN" profile create mi300 --target gfx942
	assert_eq "$RUN_STATUS" 0 "profile mi300 created"
}

# judge_one_translation PREFIX DESC: four ranks that recorded into PREFIX.0..3 (stderr in
# PREFIX.R.err) each loaded XLAT_SRC's gfx942 translation, the same bytes; the translator ran
# once; one miss and three hits that waited for it; the cache holds only the entry, its sidecar
# and the idle lock.
judge_one_translation() {
	local p=$1 desc=$2 r left
	for r in 0 1 2 3; do
		judge_translated "$p.$r/load-1.co" "$XLAT_SRC" gfx942 "$desc: rank $r's object"
		cmp -s "$p.$r/load-1.co" "$p.0/load-1.co" || fail "$desc: rank $r received other bytes than rank 0"
	done
	ok "$desc: the same bytes on every rank"
	assert_eq "$(wc -l <"$MIRAGE_TEST_TRANSLATE_LOG")" 1 "$desc: the translator ran once"
	cat "$p".*.err >"$p.all"
	assert_eq "$(count_lines "$p.all" "hotswap_cache: miss (gfx1250 -> gfx942)")" 1 "$desc: one miss"
	assert_eq "$(count_lines "$p.all" "ms for another process's translation)")" 3 \
		"$desc: three hits, each after waiting"
	left=$(find "$CACHE" -type f -printf '%f\n' | sed 's/^[0-9a-f]\{64\}//' | sort | tr '\n' ' ')
	assert_eq "$left" ".co .json .lock " "$desc: the cache holds the entry, its sidecar and the idle lock only"
}

# judge_translated OUT SRC TARGET DESC: OUT is SRC translated for TARGET, by LLVM's tools.
judge_translated() {
	local why
	why=$(python3 "$JUDGE" "$LLVM_READELF" "$1" "$2" "$3") ||
		fail "$4: $why"
	ok "$4: llvm-readelf-22 clean, $3 e_flags, .wavefront_size 64, the source's .args"
}
