# (c) HSA_TOOLS_LIB and LD_PRELOAD together (and the tool listed twice):
# OnLoad runs more than once, the hooks go in once, the object is rewritten
# once, and the bytes equal those of (a).
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

export STANDIN_AGENT_GFX=gfx1250 STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1
fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" HSA_HOTSWAP_CACHE_DISABLE=1 "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "(a) reference run exits 0"
cp "$REC/load-1.co" "$TEST_TMP/reference.co"

for tools in "$INTERCEPT" "$INTERCEPT $INTERCEPT"; do
	name="preload + HSA_TOOLS_LIB x$(echo "$tools" | wc -w)"
	fresh_rec
	run_capture env HSA_TOOLS_LIB="$tools" LD_PRELOAD="$INTERCEPT" HSA_HOTSWAP_VERBOSE=1 \
		HSA_HOTSWAP_CACHE_DEBUG=1 HSA_HOTSWAP_CACHE_DISABLE=1 "$CLIENT" "$HELLO"
	assert_eq "$RUN_STATUS" 0 "$name: client exits 0"
	assert_contains "$RUN_STDERR" "OnLoad called again; the hooks are already installed" \
		"$name: the second OnLoad is recognised"
	assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap: hooks installed")" 1 \
		"$name: hooks installed once"
	assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: disabled")" 1 \
		"$name: one rewrite"
	assert_eq "$(recorded)" 1 "$name: one load"
	assert_has_stubs "$REC/load-1.co" "$name"
	assert_same_bytes "$REC/load-1.co" "$TEST_TMP/reference.co" "$name: same as (a)"
done
done_testing
