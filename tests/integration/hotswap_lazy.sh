# libcurl, libarchive and libcrypto stay out of mirage: only `hotswap install`
# loads them, through libmirage_fetch.so, and a missing or foreign module is a
# clear error rather than a crash.
source "$(dirname "$0")/hotswap_lib.sh"

HEAVY="libcurl libarchive libcrypto"

# ldd lists the whole load-time closure, so a dependency that creeps back in
# through another library fails here too.
deps=$(ldd "$MIRAGE_BIN") || fail "ldd $MIRAGE_BIN"
for lib in $HEAVY; do
	assert_not_contains "$deps" "$lib." "mirage does not link $lib"
done
# The module does: otherwise this test would pass for the wrong reason.
mdeps=$(ldd "$FETCH_SO") || fail "ldd $FETCH_SO"
for lib in $HEAVY; do
	assert_contains "$mdeps" "$lib." "libmirage_fetch.so links $lib"
done
# One entry point, nothing else.
if [ -n "${LLVM_NM:-}" ]; then
	assert_eq "$("$LLVM_NM" -D --defined-only "$FETCH_SO" | awk '{print $3}')" \
		"mirage_fetch_get_api" "libmirage_fetch.so exports only mirage_fetch_get_api"
fi

# loaded ARGS...: runs mirage under LD_DEBUG=libs and sets $LOADED to the
# dynamic linker's report: every library it searched for or initialised,
# run-time dlopen()s included ("calling init: /path/libx.so").
loaded() {
	rm -f "$T"/ld.*
	LD_DEBUG=libs LD_DEBUG_OUTPUT=$T/ld mirage "$@"
	LOADED=$(cat "$T"/ld.* 2>/dev/null)
}

make_tree "$T/src/lazy"
make_tarball "$T/lazy.tar.gz" "$T/src/lazy"

for cmd in "--version" "profile list" "hotswap list" "hotswap remove nosuch -f" \
	"hotswap install $T/lazy.tar.gz --sha256 nothex"; do
	# shellcheck disable=SC2086 # the words of the command
	loaded $cmd
	[ -n "$LOADED" ] || fail "LD_DEBUG=libs reported nothing for 'mirage $cmd'"
	for lib in libmirage_fetch $HEAVY; do
		assert_not_contains "$LOADED" "/$lib." "'mirage $cmd' does not load $lib"
	done
done

loaded hotswap install "$T/lazy.tar.gz"
expect_rc 0 "install"
expect_out "installed HotSwap tree 'lazy' (native)"
assert_contains "$LOADED" "calling init: $T/prefix/opt/lib/mirage/libmirage_fetch.so" \
	"install loads libmirage_fetch.so from <prefix>/lib/mirage"
assert_contains "$LOADED" "calling init: " "LD_DEBUG=libs reports initialised libraries"
assert_contains "$LOADED" "/libarchive." "install loads libarchive through it"

# Without the module, install fails cleanly: the path, dlerror(), a hint, exit 1, nothing left.
mkdir -p "$T/bare/bin"
cp "$MIRAGE_BIN" "$T/bare/bin/mirage"
MIRAGE_EXE=$T/bare/bin/mirage
mirage hotswap install "$T/lazy.tar.gz" --name other
expect_rc 1 "install without the module"
expect_err "mirage: cannot load '$T/bare/lib/mirage/libmirage_fetch.so'"
expect_err "libmirage_fetch.so': cannot open shared object file"
expect_err "hint: mirage's installation is incomplete: reinstall mirage, or rebuild it"
expect_nothing_installed_but "lazy" "install without the module"
# Command-line mistakes are still usage errors, found before the module is needed.
mirage hotswap install "$T/lazy.tar.gz" --sha256 nothex
expect_rc 2 "bad --sha256 without the module"
mirage hotswap list
expect_rc 0 "list without the module"
expect_out "lazy"

# A module from another build (here: one without the entry point) is refused by name.
mkdir -p "$T/bare/lib/mirage"
echo 'int mirage_fetch_unrelated(void) { return 0; }' >"$T/stub.c"
${CC:-cc} -shared -fPIC -o "$T/bare/lib/mirage/libmirage_fetch.so" "$T/stub.c" || exit 1
mirage hotswap install "$T/lazy.tar.gz" --name other
expect_rc 1 "install with a foreign module"
expect_err "libmirage_fetch.so' does not export mirage_fetch_get_api"
expect_err "hint: it belongs to another mirage build"

finish
