# 16 threads load 8 distinct objects 50 times each: every load succeeds,
# each object is rewritten exactly once (one miss line each), and under the
# tsan preset ThreadSanitizer reports nothing.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

unset STANDIN_RECORD_DIR
objs=()
for n in hello sgpr8 sgpr104 sgpr105 sgpr108 meta127 multi hello_stripped; do
	objs+=("$FIXTURES/$n.co")
done
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 \
	HSA_HOTSWAP_CACHE_DEBUG=1 "$CLIENT" --threads 16 --repeat 50 "${objs[@]}"
assert_eq "$RUN_STATUS" 0 "all 6400 loads succeed"
assert_not_contains "$RUN_STDERR_FILE" "ThreadSanitizer" "no ThreadSanitizer report"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: miss")" 8 "8 rewrites, one per object"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: hit")" $((16 * 50 * 8 - 8)) \
	"every other load hits"
assert_eq "$(sed -n 's/.* \([0-9a-f]\{8\}\)$/\1/p' "$RUN_STDERR_FILE" | sort -u | wc -l)" 8 \
	"8 distinct inputs"
assert_eq "$(find "$CACHE" -name '*.co' | wc -l)" 8 "8 entries on disk"

# The in-process tier alone: single flight still gives one rewrite per object.
run_capture env HSA_TOOLS_LIB="$INTERCEPT" STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 \
	HSA_HOTSWAP_CACHE_DEBUG=1 HSA_HOTSWAP_CACHE_DISABLE=1 "$CLIENT" --threads 16 --repeat 50 \
	"${objs[@]}"
assert_eq "$RUN_STATUS" 0 "memory only: all loads succeed"
assert_not_contains "$RUN_STDERR_FILE" "ThreadSanitizer" "memory only: no ThreadSanitizer report"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: disabled")" 8 \
	"memory only: 8 rewrites, one per object"
done_testing
