# (b) LD_PRELOAD alone: the intercept registers itself as an HSA tool, so it
# works on runtimes that discover preloaded tools and on ones that do not.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

export STANDIN_AGENT_GFX=gfx1250 STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1
for discovery in 0 1; do
	name="preload, runtime discovery $([ $discovery = 1 ] && echo off || echo on)"
	fresh_rec
	run_capture env LD_PRELOAD="$INTERCEPT" STANDIN_NO_TOOL_DISCOVERY=$discovery \
		HSA_HOTSWAP_VERBOSE=1 HSA_HOTSWAP_CACHE_DEBUG=1 "$CLIENT" "$HELLO"
	assert_eq "$RUN_STATUS" 0 "$name: client exits 0"
	assert_has_stubs "$REC/load-1.co" "$name"
	assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap: hooks installed")" 1 \
		"$name: hooks installed once"
	assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: ")" 1 "$name: rewritten once"
done
done_testing
