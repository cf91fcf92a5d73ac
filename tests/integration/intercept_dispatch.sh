#!/usr/bin/env bash
# The whole path a user's workload takes: an HSA client (tests/standin/hsa_dispatch) allocates
# buffers, loads a gfx1250 object, dispatches a kernel through an AQL queue and reads the
# results; the stand-in runtime runs the dispatch on the CPU through libmirage_translate.so's
# dispatch entry, with the bytes its loader received.
#   (a) every launch of the kernel suite (gfx1250 -O2) on a gfx1250 agent: the client's outputs
#       match the host-C reference;
#   (b) the same object on a gfx942 agent under `mirage run`: the intercept translates, the
#       loader receives the gfx942 object, a second run is a cache hit.  When this build's
#       runner accepts gfx942 objects (wave64, probed with `mirage emulate` on clang's own
#       gfx942 build), the client's outputs must match host C; until then the dispatch must
#       fail with the runner's exact refusal, so the case cannot pass silently.
# Then the stand-in's own errors (no translator named) with message and exit code.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"
source "$(dirname "$0")/translate_lib.sh"

DISPATCH=$STANDIN/hsa_dispatch
KSRC=$MIRAGE_SRC/tests/kernels
KBIN=$MIRAGE_BUILD/tests/kernels/bin
KOBJ=$MIRAGE_BUILD/tests/kernels
export STANDIN_TRANSLATE_LIB=$TREE/lib/libmirage_translate.so
for f in "$DISPATCH" "$STANDIN_TRANSLATE_LIB" "$KBIN/kernel_compare"; do
	[ -e "$f" ] || fail "missing build output '$f' (build the default targets first)"
done

# stage NAME LAUNCH OBJECT: DIR=$TEST_TMP/NAME holding launch.json and the object beside it.
stage() {
	DIR=$TEST_TMP/$1
	mkdir -p "$DIR/host"
	cp "$2" "$DIR/launch.json"
	cp "$3" "$DIR/$(basename "$3")"
}

# matches_host LAUNCH KERNEL DIR DESC: DIR's outputs agree with host C's on LAUNCH.
matches_host() {
	run_capture "$KBIN/host_ref_$2" "$1" --output-dir "$3/host"
	assert_eq "$RUN_STATUS" 0 "host_ref_$2 runs $(basename "$1")"
	run_capture "$KBIN/kernel_compare" "$1" "$KSRC/check/$2.json" "$3/host" "$3"
	assert_eq "$RUN_STATUS" 0 "$4: the client's outputs match host C"
}

# ---- (a) gfx1250 objects on a gfx1250 agent: no translation, run on the CPU ----
for launch in "$KSRC"/launch/*.json; do
	variant=$(basename "$launch" .json)
	kernel=${variant%%.*}
	stage "a-$variant" "$launch" "$KOBJ/gfx1250/O2/$kernel.co"
	STANDIN_AGENT_GFX=gfx1250 run_capture "$DISPATCH" "$DIR/launch.json"
	assert_eq "$RUN_STATUS" 0 "gfx1250 agent, $variant: the client's dispatch completes"
	matches_host "$launch" "$kernel" "$DIR" "gfx1250 agent, $variant"
done

# ---- (b) the gfx1250 object on a gfx942 agent under `mirage run` ----
# The intercept translates the object at load time; the stand-in runs the translated gfx942
# kernels (the gfx942 table, wave64) on the CPU runner.
export STANDIN_AGENT_GFX=gfx942
run_capture "$MIRAGE_BIN" profile create mi300 --target gfx942 --description "gfx1250 code on MI300"
assert_eq "$RUN_STATUS" 0 "profile mi300 created"

for variant in saxpy transpose reduce_lds; do
	launch=$KSRC/launch/$variant.json
	stage "b-$variant" "$launch" "$KOBJ/gfx1250/O2/$variant.co"
	fresh_rec
	run_capture "$MIRAGE_BIN" run -p mi300 -- "$DISPATCH" "$DIR/launch.json"
	assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: miss (gfx1250 -> gfx942) kernels=1")" 1 \
		"gfx942 agent, $variant: translated at load time"
	judge_translated "$REC/load-1.co" "$DIR/$variant.co" gfx942 "gfx942 agent, $variant: the object the loader received"
	assert_eq "$RUN_STATUS" 0 "gfx942 agent, $variant: the client's dispatch completes"
	matches_host "$launch" "$variant" "$DIR" "gfx942 agent, $variant (translated)"
done

# A second run: the translation is a cache hit, the dispatch the same.
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300 -- "$DISPATCH" "$TEST_TMP/b-saxpy/launch.json"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: hit (gfx1250 -> gfx942) kernels=1")" 1 \
	"gfx942 agent, second run: a cache hit"
assert_eq "$RUN_STATUS" 0 "gfx942 agent, second run: the dispatch completes"
unset STANDIN_AGENT_GFX

# ---- the stand-in's own errors ----
stage err "$KSRC/launch/saxpy.json" "$KOBJ/gfx1250/O2/saxpy.co"
STANDIN_TRANSLATE_LIB="" run_capture "$DISPATCH" "$DIR/launch.json"
assert_eq "$RUN_STATUS" 1 "no STANDIN_TRANSLATE_LIB: the client exits 1"
assert_contains "$RUN_STDERR" \
	"standin: packet 0: STANDIN_TRANSLATE_LIB is not set: it names the libmirage_translate.so that runs kernel dispatches on the CPU" \
	"no STANDIN_TRANSLATE_LIB: the stand-in says what to set"
STANDIN_TRANSLATE_LIB=$TEST_TMP/none.so run_capture "$DISPATCH" "$DIR/launch.json"
assert_eq "$RUN_STATUS" 1 "a missing translator: the client exits 1"
assert_contains "$RUN_STDERR" "standin: packet 0: cannot load '$TEST_TMP/none.so': " \
	"a missing translator: the path named"
STANDIN_TRANSLATE_LIB=$DOUBLE run_capture "$DISPATCH" "$DIR/launch.json"
assert_eq "$RUN_STATUS" 1 "a translator without the dispatch entry: the client exits 1"
assert_contains "$RUN_STDERR" "standin: packet 0: '$DOUBLE' has no dispatch entry" \
	"a translator without the dispatch entry: named"
[ ! -e "$DIR/y.bin" ] || fail "a failed dispatch writes no output"
ok "a failed dispatch writes no output"
done_testing
