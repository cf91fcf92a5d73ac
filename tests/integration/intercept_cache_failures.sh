# An optional rewrite that fails is tried once per process, not once per load: 480 loads of
# sgpr109.co (its entry stub cannot be placed) in one process, from one thread or from many,
# run the rewriter exactly once and warn exactly once; the other loads are "failed" (never
# "hit"), every load still gets the original, and the next process tries again (failures are
# never stored on disk).
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

export STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 HSA_HOTSWAP_CACHE_DEBUG=1
export HSA_TOOLS_LIB=$INTERCEPT
obj=$FIXTURES/sgpr109.co
sha8=$(sha256sum "$obj" | cut -c1-8)
unset STANDIN_RECORD_DIR

# rewrites STATUS: lines of the last run where the rewriter ran (the producer's own line).
rewrites() {
	count_lines "$RUN_STDERR_FILE" "hotswap_cache: $1 (gfx1250 -> gfx1250) kernels=0 $sha8 (rewrite failed: "
}

run_capture "$CLIENT" --repeat 480 "$obj"
assert_eq "$RUN_STATUS" 0 "480 loads, one thread: all succeed"
assert_eq "$(rewrites miss)" 1 "480 loads, one thread: one rewrite"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: failed (gfx1250 -> gfx1250) kernels=0 $sha8 (rewrite failed earlier in this process: kernel 'sgpr109': ")" \
	479 "480 loads, one thread: the other 479 are 'failed' and say the failure is remembered"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: hit")" 0 \
	"480 loads, one thread: a remembered failure is never a hit"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap: rewrite of ")" 1 \
	"480 loads, one thread: one warning"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "; loading the original")" 1 \
	"480 loads, one thread: the warning says the original loads"

# Under HSA_HOTSWAP_VERBOSE the later loads say the failure is remembered, not retried.
run_capture env HSA_HOTSWAP_VERBOSE=1 "$CLIENT" --repeat 480 "$obj"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap: rewrite of ")" 480 \
	"verbose, 480 loads: every load names the failure"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "; loading the original")" 480 \
	"verbose, 480 loads: each loads the original"
assert_eq "$(count_lines "$RUN_STDERR_FILE" " (remembered, not retried); loading the original")" 479 \
	"verbose, 480 loads: 479 say it is remembered, not retried"

run_capture "$CLIENT" --threads 16 --repeat 30 "$obj"
assert_eq "$RUN_STATUS" 0 "480 loads, 16 threads: all succeed"
assert_not_contains "$RUN_STDERR_FILE" "ThreadSanitizer" "480 loads, 16 threads: no ThreadSanitizer report"
assert_eq "$(rewrites miss)" 1 "480 loads, 16 threads: one rewrite (the next process tried again)"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: ")" 480 "480 loads, 16 threads: one line each"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: failed ")" 479 "480 loads, 16 threads: 479 'failed'"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap: rewrite of ")" 1 "480 loads, 16 threads: one warning"

run_capture env HSA_HOTSWAP_CACHE_DISABLE=1 "$CLIENT" --threads 16 --repeat 30 "$obj"
assert_eq "$(rewrites disabled)" 1 "memory only, 480 loads, 16 threads: one rewrite"

# Remembered per input: a good object in the same process is still rewritten.
fresh_rec
export STANDIN_RECORD_DIR=$REC
run_capture "$CLIENT" --repeat 3 "$obj" "$HELLO"
assert_eq "$(rewrites miss)" 1 "failing and good object: one rewrite of the failing one"
assert_has_stubs "$REC/load-6.co" "failing and good object: the good one is rewritten"
assert_same_bytes "$REC/load-5.co" "$obj" "failing and good object: the failing one loads as is"
assert_eq "$(find "$CACHE" -name '*.co' | wc -l)" 1 "only the good object is on disk"
done_testing
