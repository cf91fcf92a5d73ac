# Required (HSA_HOTSWAP_STRICT) rewrites that fail refuse the load with
# HSA_STATUS_ERROR_INVALID_CODE_OBJECT and a message; nothing reaches the loader.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=1 HSA_HOTSWAP_STRICT=1 \
	HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 "$CLIENT" "$FIXTURES/sgpr109.co"
assert_eq "$RUN_STATUS" 1 "strict sgpr109: the load fails"
assert_contains "$RUN_STDERR" "hotswap: rewrite of memory://" "strict sgpr109: names the object"
assert_contains "$RUN_STDERR" "sgpr109" "strict sgpr109: names the kernel"
assert_contains "$RUN_STDERR" "refusing the load (HSA_HOTSWAP_STRICT is set)" \
	"strict sgpr109: says it refused"
assert_contains "$RUN_STDERR" "HSA_STATUS_ERROR_INVALID_CODE_OBJECT" \
	"strict sgpr109: the client sees INVALID_CODE_OBJECT"
assert_eq "$(recorded)" 0 "strict sgpr109: nothing loaded"

fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=0 HSA_HOTSWAP_STRICT=1 \
	"$CLIENT" --deprecated "$FIXTURES/b0a0_decline.co"
assert_eq "$RUN_STATUS" 1 "strict B0->A0: the load fails"
assert_contains "$RUN_STDERR" "the edit is required" "strict B0->A0: says the site is required"
assert_contains "$RUN_STDERR" "refusing the load" "strict B0->A0: says it refused"
assert_contains "$RUN_STDERR" "(0x1010)" "strict B0->A0: status 0x1010"
assert_eq "$(recorded)" 0 "strict B0->A0: nothing loaded"

# Strict with a rewrite that succeeds loads the rewritten object.
fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=1 HSA_HOTSWAP_STRICT=1 \
	HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "strict hello: client exits 0"
assert_has_stubs "$REC/load-1.co" "strict hello"
done_testing
