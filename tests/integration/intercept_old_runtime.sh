# A runtime whose core table is too old (or that cannot report the ASIC
# revision): the intercept declines politely and loads go through untouched.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

export STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1
fresh_rec
# 512 bytes: the table ends long before the code object reader entries.
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_CORE_TABLE_SIZE=512 "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "old table: client exits 0"
assert_contains "$RUN_STDERR" "hotswap: the runtime's core API table is too old" \
	"old table: says why"
assert_contains "$RUN_STDERR" "OnLoad returned false" "old table: OnLoad returns false"
assert_same_bytes "$REC/load-1.co" "$HELLO" "old table"

# No ASIC revision: no stepping pass, but trampolines still apply.
fresh_rec
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=none "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "no ASIC revision: client exits 0"
assert_has_stubs "$REC/load-1.co" "no ASIC revision"
done_testing
