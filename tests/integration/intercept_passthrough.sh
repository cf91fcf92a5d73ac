# Objects the decision table leaves alone reach the runtime byte for byte,
# silently: a gfx942 agent, HSA_HOTSWAP_DISABLE, a B0 gfx1250 with no switch.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

check_untouched() { # NAME FIXTURE ENV...
	local name=$1 fixture=$2
	shift 2
	fresh_rec
	run_capture env HSA_TOOLS_LIB="$INTERCEPT" HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 "$@" \
		"$CLIENT" "$fixture"
	assert_eq "$RUN_STATUS" 0 "$name: client exits 0"
	assert_eq "$RUN_STDERR" "" "$name: nothing on stderr"
	assert_same_bytes "$REC/load-1.co" "$fixture" "$name"
}

check_untouched "gfx942 agent" "$GFX942" STANDIN_AGENT_GFX=gfx942 HSA_HOTSWAP_STRICT=1
check_untouched "HSA_HOTSWAP_DISABLE=1" "$HELLO" STANDIN_ASIC_REV=1 HSA_HOTSWAP_DISABLE=1 \
	HSA_HOTSWAP_STRICT=1
check_untouched "HSA_HOTSWAP_DISABLE=1 on A0" "$HELLO" STANDIN_ASIC_REV=0 HSA_HOTSWAP_DISABLE=1
check_untouched "B0, no switches" "$HELLO" STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=0
check_untouched "B0, trampolines off" "$HELLO" STANDIN_ASIC_REV=1 \
	HSA_HOTSWAP_ENTRY_TRAMPOLINES=off

# No cache entry was written for any of them.
assert_eq "$(find "$CACHE" -name '*.co' 2>/dev/null | wc -l)" 0 "no cache entries"
done_testing
