# Optional rewrites that fail load the original and say why: a B0 object on an
# A0 gfx1250 (the B0->A0 pass is not there yet), and an entry stub that cannot
# be placed (sgpr count 109).
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=0 "$CLIENT" --file "$HELLO"
assert_eq "$RUN_STATUS" 0 "A0 agent, B0 object: client exits 0"
assert_same_bytes "$REC/load-1.co" "$HELLO" "A0 agent, B0 object: original loaded"
assert_contains "$RUN_STDERR" "hotswap: rewrite of file://$HELLO failed: " \
	"A0 agent, B0 object: names the object"
assert_contains "$RUN_STDERR" "B0->A0" "A0 agent, B0 object: says why"
assert_contains "$RUN_STDERR" "; loading the original" "A0 agent, B0 object: says what happens"

# HSA_HOTSWAP_STEPPING=a0 overrides a B0 report the same way.
fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=1 HSA_HOTSWAP_STEPPING=a0 \
	"$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "STEPPING=a0: client exits 0"
assert_contains "$RUN_STDERR" "; loading the original" "STEPPING=a0: treated as A0"

fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 \
	"$CLIENT" "$FIXTURES/sgpr109.co"
assert_eq "$RUN_STATUS" 0 "sgpr109, optional: client exits 0"
assert_same_bytes "$REC/load-1.co" "$FIXTURES/sgpr109.co" "sgpr109, optional: original loaded"
assert_contains "$RUN_STDERR" "sgpr109" "sgpr109, optional: names the kernel"
assert_contains "$RUN_STDERR" "; loading the original" "sgpr109, optional: falls back"

# A failed rewrite is not cached: the next process tries (and says) it again.
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 \
	HSA_HOTSWAP_CACHE_DEBUG=1 "$CLIENT" "$FIXTURES/sgpr109.co"
assert_contains "$RUN_STDERR" "hotswap_cache: miss" "failure not cached"
done_testing
