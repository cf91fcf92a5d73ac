# An A0 gfx1250 agent runs the B0->A0 pass over a B0 object; rewrites that fail without
# HSA_HOTSWAP_STRICT load the original and say why: a required B0->A0 site that cannot be
# placed, and an entry stub that cannot be placed (sgpr count 109).
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"
B0A0=$FIXTURES/b0a0_b0.co
DECLINE=$FIXTURES/b0a0_decline.co

fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=0 "$CLIENT" --file "$B0A0"
assert_eq "$RUN_STATUS" 0 "A0 agent, B0 object: client exits 0"
cmp -s "$REC/load-1.co" "$B0A0" && fail "A0 agent, B0 object: the original was loaded"
"$LLVM_OBJDUMP" -d --mcpu=gfx1250 "$REC/load-1.co" >"$TEST_TMP/a0.dis" || fail "llvm-objdump"
grep -q "cluster_load_b32 v1, v\[2:3\], off" "$TEST_TMP/a0.dis" &&
	fail "A0 agent, B0 object: a cluster load with a VGPR address is left"
assert_contains "$TEST_TMP/a0.dis" "global_load_b32 v1, v[2:3], off" \
	"A0 agent, B0 object: the B0->A0 pass ran"

fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=0 "$CLIENT" --file "$DECLINE"
assert_eq "$RUN_STATUS" 0 "A0 agent, unplaceable site: client exits 0"
assert_same_bytes "$REC/load-1.co" "$DECLINE" "A0 agent, unplaceable site: original loaded"
assert_contains "$RUN_STDERR" "hotswap: rewrite of file://$DECLINE failed: " \
	"A0 agent, unplaceable site: names the object"
assert_contains "$RUN_STDERR" "ds_load_2addr_stride64_b64 at .text+0x0" \
	"A0 agent, unplaceable site: names the site"
assert_contains "$RUN_STDERR" "; loading the original" "A0 agent, unplaceable site: falls back"

# HSA_HOTSWAP_STEPPING=a0 overrides a B0 report the same way.
fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=1 HSA_HOTSWAP_STEPPING=a0 \
	"$CLIENT" "$DECLINE"
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
