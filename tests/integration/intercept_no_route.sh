# A gfx12.5 object that no route runs on the agent (gfx1250 code on a gfx1251, gfx1251 code on
# a gfx942) is refused by the intercept with the pair and where the code does run, under a bare
# HSA_TOOLS_LIB too: a HotSwap workload never meets the runtime's bare incompatible-ISA error.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"
GFX1251=$FIXTURES/gfx1251.co
[ -e "$GFX1251" ] || fail "missing fixture '$GFX1251'"

refused() { # NAME FIXTURE AGENT WHAT
	fresh_rec
	run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_AGENT_GFX="$3" "$CLIENT" "$2"
	assert_eq "$RUN_STATUS" 1 "$1: the load fails"
	assert_contains "$RUN_STDERR" "$4; refusing the load rather than leaving it to the runtime's incompatible-ISA error" \
		"$1: the intercept says why"
	assert_contains "$RUN_STDERR" "HSA_STATUS_ERROR_INVALID_CODE_OBJECT" "$1: refused by the intercept"
	assert_not_contains "$RUN_STDERR" "INCOMPATIBLE_ARGUMENTS" "$1: not by the runtime's ISA check"
}

refused "gfx1250 on gfx1251" "$HELLO" gfx1251 \
	"no route runs gfx1250 code on gfx1251 (it runs on gfx942, gfx950, gfx1250)"
refused "gfx1251 on gfx942" "$GFX1251" gfx942 "no route runs gfx1251 code on gfx942 (it runs on gfx1251)"
refused "gfx1250 on gfx1100" "$HELLO" gfx1100 "no route runs gfx1250 code on gfx1100 (it runs on gfx942, gfx950, gfx1250)"

# HSA_HOTSWAP_DISABLE: the user's choice, so the runtime's own check answers.
fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" HSA_HOTSWAP_DISABLE=1 STANDIN_AGENT_GFX=gfx1251 "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 1 "disabled: the load fails"
assert_contains "$RUN_STDERR" "INCOMPATIBLE_ARGUMENTS" "disabled: the runtime's check answers"
assert_not_contains "$RUN_STDERR" "no route" "disabled: the intercept says nothing"
done_testing
