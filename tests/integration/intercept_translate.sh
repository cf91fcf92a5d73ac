#!/usr/bin/env bash
# End to end through the intercept: an HSA client loads a gfx1250 object under `mirage run` on
# a gfx942 stand-in agent; the loader receives the translated object (judged by LLVM's tools),
# a second run is a cache hit that never maps the translator, a new translator build never
# gets an old entry, and a refused kernel refuses the load with a message naming it.  The
# translator is the test double (the route, apart from the real translator), except where
# this build's own is tried.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"
source "$(dirname "$0")/translate_lib.sh"

[ -x "$MIRAGE_BIN" ] || fail "missing build output '$MIRAGE_BIN'"
unset HSA_HOTSWAP_CACHE_DIR
tree=$TEST_TMP/tree/hotswap
stage_double_tree "$tree"
export HOTSWAP_HOME=$tree STANDIN_AGENT_GFX=gfx942 HSA_HOTSWAP_CACHE_DEBUG=1
export MIRAGE_TEST_TRANSLATE_LOG=$TEST_TMP/translator.log
: >"$MIRAGE_TEST_TRANSLATE_LOG"
calls() { wc -l <"$MIRAGE_TEST_TRANSLATE_LOG"; }

run_capture "$MIRAGE_BIN" profile create mi300 --target gfx942 --description "gfx1250 code on MI300"
assert_eq "$RUN_STATUS" 0 "profile mi300 created"

# ---- first run: translated at load time ----
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" --maps "$TEST_TMP/maps1" "$XLAT_SRC"
assert_eq "$RUN_STATUS" 0 "the client loads a gfx1250 object on a gfx942 agent"
assert_eq "$(recorded)" 1 "the loader received one object"
judge_translated "$REC/load-1.co" "$XLAT_SRC" gfx942 "the object the loader received"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: miss (gfx1250 -> gfx942) kernels=2")" 1 \
	"first run: a cache miss, translated once"
assert_eq "$(calls)" 1 "first run: the translator ran once"
assert_contains "$TEST_TMP/maps1" "$tree/lib/libmirage_translate.so" "first run: the translator was mapped"

# ---- second run: a cache hit; the translator is neither called nor mapped ----
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" --maps "$TEST_TMP/maps2" "$XLAT_SRC"
assert_eq "$RUN_STATUS" 0 "second run: the client exits 0"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: hit (gfx1250 -> gfx942) kernels=2")" 1 \
	"second run: a cache hit"
assert_eq "$(calls)" 1 "second run: the translator did not run"
assert_not_contains "$TEST_TMP/maps2" "libmirage_translate" "second run: the translator was not even mapped"
assert_not_contains "$TEST_TMP/maps2" "libLLVM" "second run: nor LLVM"
cp "$REC/load-1.co" "$TEST_TMP/hit.co"
judge_translated "$TEST_TMP/hit.co" "$XLAT_SRC" gfx942 "the cached object"

# ---- many threads loading one object at once: one translation, shared ----
: >"$MIRAGE_TEST_TRANSLATE_LOG"
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300 --env HSA_HOTSWAP_CACHE_DISABLE=1 -- \
	"$CLIENT" --threads 4 --repeat 3 "$XLAT_SRC"
assert_eq "$RUN_STATUS" 0 "4 threads x 3 loads: the client exits 0"
assert_eq "$(recorded)" 12 "4 threads x 3 loads: twelve objects loaded"
assert_eq "$(calls)" 1 "4 threads x 3 loads: the translator ran once (single flight, then memory)"
for f in "$REC"/load-*.co; do
	cmp -s "$f" "$REC/load-1.co" || fail "$(basename "$f") differs from load-1.co"
done
ok "every thread received the same translated bytes"
: >"$MIRAGE_TEST_TRANSLATE_LOG"
run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" "$XLAT_SRC"
assert_eq "$(calls)" 0 "the disk entry still serves"

# ---- a new translator build never gets the old entry ----
${CC:-cc} -shared -fPIC -O1 -DREBUILT=1 -I"$MIRAGE_SRC/translate/api" -Wl,--build-id=sha1 \
	-o "$tree/lib/libmirage_translate.so" "$MIRAGE_SRC/tests/standin/translate_double.c" ||
	fail "cc rebuilds the double"
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" "$XLAT_SRC"
assert_eq "$RUN_STATUS" 0 "another translator build: the client exits 0"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: miss (gfx1250 -> gfx942)")" 1 \
	"another translator build: a miss, not the old entry"
assert_eq "$(calls)" 1 "another translator build: it translated again"

# ---- a refused kernel refuses the load, naming each kernel and reason ----
# (The double's answer changes by environment, which no cache key sees: no cache here.)
export MIRAGE_TEST_TRANSLATE_REFUSE="xk2:0x40:v_wmma_f32_16x16x16_f16:unsupported-instruction:no gfx942 form"
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300 --env HSA_HOTSWAP_CACHE_DISABLE=1 -- "$CLIENT" "$XLAT_SRC"
assert_eq "$RUN_STATUS" 1 "a refused kernel: the load fails (the client exits 1)"
assert_contains "$RUN_STDERR" \
	"hotswap: memory://" "the intercept says which object"
assert_contains "$RUN_STDERR" \
	": for gfx942, kernel 'xk2' is refused at 0x40 (v_wmma_f32_16x16x16_f16): unsupported-instruction: no gfx942 form" \
	"a refused kernel: named with its reason, offset and instruction"
assert_contains "$RUN_STDERR" "refusing the load (gfx1250 code cannot run on this agent)" \
	"a refused kernel: the load is refused, and why"
assert_contains "$RUN_STDERR" "HSA_STATUS_ERROR_INVALID_CODE_OBJECT" \
	"the runtime's status reaches the client"
assert_eq "$(recorded)" 0 "a refused kernel: nothing loaded"
unset MIRAGE_TEST_TRANSLATE_REFUSE

# ---- no translator: the load is refused with where it looked ----
rm "$tree/lib/libmirage_translate.so"
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300 --env HSA_HOTSWAP_CACHE_DISABLE=1 -- "$CLIENT" "$XLAT_SRC"
assert_eq "$RUN_STATUS" 1 "no translator: the load fails"
assert_contains "$RUN_STDERR" \
	"the translator is not available: cannot load '$tree/lib/libmirage_translate.so'" \
	"no translator: the message names the file"
assert_contains "$RUN_STDERR" "refusing the load (gfx1250 code cannot run on this agent)" \
	"no translator: refused, not a bare runtime error"
assert_eq "$(recorded)" 0 "no translator: nothing loaded"

# ---- HSA_HOTSWAP_ISA_OVERRIDE picks the translation's target, whatever the agent says ----
stage_double_tree "$TEST_TMP/tree3/hotswap"
fresh_rec
HSA_HOTSWAP_CACHE_DISABLE=1 HSA_HOTSWAP_ISA_OVERRIDE=gfx942 STANDIN_AGENT_GFX=gfx1250 \
	HSA_TOOLS_LIB=$TEST_TMP/tree3/hotswap/lib/libhotswap_intercept.so \
	run_capture "$CLIENT" "$XLAT_SRC"
assert_contains "$RUN_STDERR" "hotswap_cache: disabled (gfx1250 -> gfx942) kernels=2" \
	"HSA_HOTSWAP_ISA_OVERRIDE=gfx942 on a gfx1250 agent: translated for gfx942"

# ---- a same-ISA rewrite never maps the translator ----
fresh_rec
HSA_HOTSWAP_CACHE_DISABLE=1 STANDIN_AGENT_GFX=gfx1250 STANDIN_ASIC_REV=1 \
	HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 HSA_TOOLS_LIB=$TEST_TMP/tree3/hotswap/lib/libhotswap_intercept.so \
	run_capture "$CLIENT" --maps "$TEST_TMP/maps3" "$HELLO"
assert_eq "$RUN_STATUS" 0 "a same-ISA rewrite: the client exits 0"
assert_has_stubs "$REC/load-1.co" "a same-ISA rewrite"
assert_not_contains "$TEST_TMP/maps3" "libmirage_translate" "a same-ISA rewrite does not map the translator"

# ---- this build's own translator (the stub until lowering lands): refused with a reason ----
export HOTSWAP_HOME=$TREE
fresh_rec
run_capture "$MIRAGE_BIN" run -p mi300 --env HSA_HOTSWAP_CACHE_DISABLE=1 -- "$CLIENT" "$XLAT_SRC"
if [ "$RUN_STATUS" = 0 ]; then
	judge_translated "$REC/load-1.co" "$XLAT_SRC" gfx942 "the real translator's object"
else
	assert_contains "$RUN_STDERR" "hotswap: translation of " "the real translator: the failure is named"
	assert_contains "$RUN_STDERR" "refusing the load (gfx1250 code cannot run on this agent)" \
		"the real translator: refused with a reason, not a bare runtime error"
	assert_eq "$(recorded)" 0 "the real translator: nothing loaded"
fi
done_testing
