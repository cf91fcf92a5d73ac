#!/usr/bin/env bash
# libLLVM and the raiser stay out of mirage: only `mirage raise` and `mirage emulate` load them,
# through libmirage_translate.so beside bin/mirage; other commands never map it, and a missing
# module, or one from another build, is a clear error (exit 1, the path, a hint), not a crash.
# shellcheck source=lib.sh
source "$TEST_LIB"
# The translator API's version, as its header says (translate/api/mirage_translate.h).
TRANSLATE_API=$(sed -n 's/^#define TRANSLATE_API_VERSION *\([0-9]*\).*/\1/p' "$MIRAGE_SRC/translate/api/mirage_translate.h")

so=$MIRAGE_BUILD/lib/mirage/libmirage_translate.so
[ -f "$so" ] || fail "$so is built"
deps=$(ldd "$MIRAGE_BIN") || fail "ldd $MIRAGE_BIN"
assert_not_contains "$deps" "libLLVM" "mirage does not link libLLVM"
assert_contains "$(ldd "$so")" "libLLVM" "libmirage_translate.so links libLLVM"
if [ -n "${LLVM_NM:-}" ]; then
	assert_eq "$("$LLVM_NM" -D --defined-only "$so" | awk '{print $3}')" "mirage_translate_api" \
		"libmirage_translate.so exports only mirage_translate_api"
fi

# loaded ARGS...: $LOADED is the dynamic linker's report of what mirage ARGS loaded.
loaded() {
	rm -f "$TEST_TMP"/ld.*
	LD_DEBUG=libs LD_DEBUG_OUTPUT=$TEST_TMP/ld "$MIRAGE_BIN" "$@" >/dev/null 2>&1
	LOADED=$(cat "$TEST_TMP"/ld.* 2>/dev/null)
}
for cmd in "--version" "profile list" "doctor" "run --dry-run -- true" "paths"; do
	# shellcheck disable=SC2086 # the words of the command
	loaded $cmd
	[ -n "$LOADED" ] || fail "LD_DEBUG=libs reported nothing for 'mirage $cmd'"
	assert_not_contains "$LOADED" "libmirage_translate" "'mirage $cmd' does not load libmirage_translate"
	# doctor probes the HotSwap tree's own parts (libhotswap_mc links LLVM): not ours to judge.
	[ "$cmd" = doctor ] ||
		assert_not_contains "$LOADED" "libLLVM" "'mirage $cmd' does not load libLLVM"
done
loaded raise "$FIXTURES/hello.co" --json
assert_contains "$LOADED" "calling init: $so" "raise loads libmirage_translate.so from <prefix>/lib/mirage"

# Without the module: the path, dlerror(), a hint, exit 1.
mkdir -p "$TEST_TMP/bare/bin"
cp "$MIRAGE_BIN" "$TEST_TMP/bare/bin/mirage"
run_capture "$TEST_TMP/bare/bin/mirage" raise "$FIXTURES/hello.co"
assert_eq "$RUN_STATUS" 1 "raise without the module exits 1"
assert_contains "$RUN_STDERR" "mirage: cannot load '$TEST_TMP/bare/lib/mirage/libmirage_translate.so': " "the message names the module"
assert_contains "$RUN_STDERR" "hint: mirage's installation is incomplete" "with a hint"

# A module from another build is refused by name (common/plugin.c's messages), exit 1, a hint.
mkdir -p "$TEST_TMP/bare/lib/mirage"
stub=$TEST_TMP/bare/lib/mirage/libmirage_translate.so
echo 'int mirage_translate_unrelated(void) { return 0; }' >"$TEST_TMP/stub.c"
${CC:-cc} -shared -fPIC -o "$stub" "$TEST_TMP/stub.c" || fail "cc builds the stub module"
run_capture "$TEST_TMP/bare/bin/mirage" raise "$FIXTURES/hello.co"
assert_eq "$RUN_STATUS" 1 "raise with a module without the entry point exits 1"
assert_contains "$RUN_STDERR" "mirage: '$stub' does not export mirage_translate_api" "the message names the module and the symbol"
assert_contains "$RUN_STDERR" "hint: it belongs to another mirage build" "with a hint"
cat >"$TEST_TMP/stub.c" <<'STUB'
static const struct { unsigned version; } table = {99};
const void *mirage_translate_api(void) { return &table; }
STUB
${CC:-cc} -shared -fPIC -o "$stub" "$TEST_TMP/stub.c" || fail "cc builds the stub module"
run_capture "$TEST_TMP/bare/bin/mirage" emulate "$TEST_TMP/none.json"
assert_eq "$RUN_STATUS" 1 "emulate with a module of another API version exits 1"
assert_contains "$RUN_STDERR" "mirage: '$stub' has no usable mirage_translate_api (API version 99, need $TRANSLATE_API)" "the message names both versions"
assert_contains "$RUN_STDERR" "hint: it belongs to another mirage build" "with a hint"
done_testing
