# Preloaded into a process that never touches HSA, the intercept says nothing
# and never maps libLLVM (or libhotswap_mc, which pulls it in).
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

maps=$TEST_TMP/maps.txt
for verbose in 0 1; do
	run_capture env LD_PRELOAD="$INTERCEPT" HSA_HOTSWAP_VERBOSE=$verbose HSA_HOTSWAP_CACHE_DEBUG=1 \
		HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 "$STANDIN/maps_probe" "$maps"
	assert_eq "$RUN_STATUS" 0 "verbose=$verbose: exits 0"
	assert_eq "$RUN_STDOUT$RUN_STDERR" "" "verbose=$verbose: prints nothing"
	assert_contains "$maps" "libhotswap_intercept.so" "verbose=$verbose: the intercept is mapped"
	assert_not_contains "$maps" "libLLVM" "verbose=$verbose: libLLVM is not mapped"
	assert_not_contains "$maps" "libhotswap_mc" "verbose=$verbose: libhotswap_mc is not mapped"
done

# Ordinary tools too, where an unsanitized intercept can be preloaded into them.
if [ -z "${MIRAGE_SANITIZE:-}" ]; then
	run_capture env LD_PRELOAD="$INTERCEPT" sh -c 'echo hi'
	assert_eq "$RUN_STATUS/$RUN_STDOUT/$RUN_STDERR" "0/hi/" "sh: unchanged output"
	run_capture env LD_PRELOAD="$INTERCEPT" python3 -c 'print(open("/proc/self/maps").read())'
	assert_eq "$RUN_STATUS" 0 "python3: exits 0"
	assert_eq "$RUN_STDERR" "" "python3: nothing on stderr"
	assert_not_contains "$RUN_STDOUT" "libLLVM" "python3: libLLVM is not mapped"
else
	skip "sh/python3: a sanitized intercept only preloads into executables of its build"
fi
done_testing
