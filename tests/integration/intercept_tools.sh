# (a) HSA_TOOLS_LIB: on a B0 gfx1250 with entry trampolines, every load route
# (memory reader, file reader, deprecated code object) gets the entry stubs.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

export STANDIN_AGENT_GFX=gfx1250 STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1
for route in "" --file --deprecated; do
	name=${route:-memory}
	fresh_rec
	run_capture env HSA_TOOLS_LIB="$INTERCEPT" "$CLIENT" $route "$HELLO"
	assert_eq "$RUN_STATUS" 0 "$name: client exits 0"
	assert_eq "$RUN_STDERR" "" "$name: nothing on stderr"
	assert_eq "$(recorded)" 1 "$name: one object loaded"
	assert_has_stubs "$REC/load-1.co" "$name"
	cp "$REC/load-1.co" "$TEST_TMP/$name.co"
done
assert_same_bytes "$TEST_TMP/--file.co" "$TEST_TMP/memory.co" "file reader vs memory reader"
assert_same_bytes "$TEST_TMP/--deprecated.co" "$TEST_TMP/memory.co" "deprecated route"

# Verbose mode says what it decided and did.
fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" HSA_HOTSWAP_VERBOSE=1 HSA_HOTSWAP_CACHE_DISABLE=1 \
	"$CLIENT" --file "$HELLO"
assert_eq "$RUN_STATUS" 0 "verbose: client exits 0"
assert_contains "$RUN_STDERR" "hotswap: hooks installed" "verbose: hooks installed"
assert_contains "$RUN_STDERR" "file://$HELLO (gfx1250) on gfx1250: rewriting" "verbose: decision"
assert_contains "$RUN_STDERR" "1 kernels, 1 stubbed" "verbose: report summary"

# Entry trampolines alone never need LLVM: neither libLLVM nor libhotswap_mc gets mapped.
fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" HSA_HOTSWAP_CACHE_DISABLE=1 "$CLIENT" \
	--maps "$TEST_TMP/maps.txt" "$HELLO"
assert_eq "$RUN_STATUS" 0 "trampolines only: client exits 0"
assert_has_stubs "$REC/load-1.co" "trampolines only"
assert_not_contains "$TEST_TMP/maps.txt" "libLLVM" "trampolines only: libLLVM never mapped"
assert_not_contains "$TEST_TMP/maps.txt" "libhotswap_mc" "trampolines only: no libhotswap_mc"
done_testing
