# Under `mirage run` with real profiles and the in-tree tree (both LD_PRELOAD
# and HSA_TOOLS_LIB injected): the profile's knobs reach the intercept, each
# object is rewritten once, and the python runtime forces Triton's target.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

[ -x "$MIRAGE_BIN" ] || fail "missing build output '$MIRAGE_BIN'"
unset HSA_HOTSWAP_CACHE_DIR
export STANDIN_AGENT_GFX=gfx1250

run_capture "$MIRAGE_BIN" profile create b0tramp --target gfx1250 --stepping b0 \
	--entry-trampolines --description "B0 gfx1250, entry trampolines"
assert_eq "$RUN_STATUS" 0 "profile b0tramp created"
run_capture "$MIRAGE_BIN" profile create a0strict --target gfx1250 --stepping a0 --strict
assert_eq "$RUN_STATUS" 0 "profile a0strict created"
run_capture "$MIRAGE_BIN" profile create a0lenient --target gfx1250 --stepping a0 --no-strict
assert_eq "$RUN_STATUS" 0 "profile a0lenient created"

fresh_rec
run_capture "$MIRAGE_BIN" run -p b0tramp -- "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "b0tramp: client exits 0"
assert_has_stubs "$REC/load-1.co" "b0tramp"
assert_eq "$(count_lines "$RUN_STDERR_FILE" "hotswap_cache: miss (gfx1250 -> gfx1250)")" 1 \
	"b0tramp: rewritten once although preloaded and a tool"
assert_eq "$(find "$XDG_CACHE_HOME/mirage/hotswap" -name '*.co' | wc -l)" 1 \
	"b0tramp: cached under \$XDG_CACHE_HOME/mirage/hotswap"

fresh_rec
run_capture "$MIRAGE_BIN" run -p a0strict -- "$CLIENT" "$FIXTURES/b0a0_decline.co"
assert_eq "$RUN_STATUS" 1 "a0strict: a B0 object with an unplaceable site is refused"
assert_contains "$RUN_STDERR" "refusing the load (HSA_HOTSWAP_STRICT is set)" "a0strict: says so"
assert_eq "$(recorded)" 0 "a0strict: nothing loaded"

fresh_rec
run_capture "$MIRAGE_BIN" run -p a0lenient -- "$CLIENT" "$FIXTURES/b0a0_decline.co"
assert_eq "$RUN_STATUS" 0 "a0lenient: client exits 0"
assert_contains "$RUN_STDERR" "; loading the original" "a0lenient: falls back and says so"
assert_same_bytes "$REC/load-1.co" "$FIXTURES/b0a0_decline.co" "a0lenient"

# The python runtime through the contract (an unsanitized intercept preloads into python).
if [ -z "${MIRAGE_SANITIZE:-}" ]; then
	run_capture "$MIRAGE_BIN" run -p b0tramp \
		--env "PYTHONPATH=$MIRAGE_SRC/tests/standin/python" -- python3 -c \
		'import triton.backends.amd.driver as d; t = d.HIPDriver().get_current_target(); print(t.arch, t.warp_size)'
	assert_eq "$RUN_STATUS/$RUN_STDOUT" "0/gfx1250 32" "python: Triton reports the source target"
else
	skip "python: a sanitized intercept only preloads into executables of its build"
fi
done_testing
