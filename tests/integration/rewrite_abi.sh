# libhotswap_rewrite: exports exactly its version script's globals, each in its node, SONAME and pkg-config file.
source "$TEST_LIB"

lib=$MIRAGE_BUILD/hotswap/lib/libhotswap_rewrite.so
map=$MIRAGE_SRC/rewrite/libhotswap_rewrite.map
[ -e "$lib" ] || fail "no $lib (build the hotswap_rewrite target)"

# Each global of the map as symbol@@NODE, the form nm -D prints for a default version.
want=$(awk '/^[A-Z_0-9.]+[[:space:]]*\{/ { node = $1 }
	/^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*;/ { gsub(/[[:space:];]/, ""); print $0 "@@" node }' "$map" |
	sort)
got=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^HOTSWAP_REWRITE_' | sort)
assert_eq "$got" "$want" "nm -D --defined-only matches the map, symbol and version node"
assert_contains "$want" "hs_version@@HOTSWAP_REWRITE_0.1" "0.1 symbols stay in their node"

run_capture readelf -d "$lib"
assert_contains "$RUN_STDOUT" "Library soname: [libhotswap_rewrite.so.0]" "SONAME has the major"
assert_contains "$RUN_STDOUT" "[\$ORIGIN]" "RUNPATH is \$ORIGIN"

pc=$MIRAGE_BUILD/rewrite/hotswap-rewrite.pc
run_capture env PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --modversion hotswap-rewrite
assert_eq "$RUN_STDOUT" "$MIRAGE_VERSION" "pkg-config knows hotswap-rewrite $MIRAGE_VERSION"
run_capture env PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --libs hotswap-rewrite
assert_contains "$RUN_STDOUT" "-lhotswap_rewrite" "pkg-config --libs"

# One version (project(VERSION) in CMakeLists.txt): every place that shows it agrees.
: "${MIRAGE_VERSION:?MIRAGE_VERSION must be the project version}"
major_minor=${MIRAGE_VERSION%.*}
newest=$(sed -n 's/^\(HOTSWAP_REWRITE_[0-9.]*\)[[:space:]]*{.*/\1/p' "$map" | tail -1)
assert_eq "$newest" "HOTSWAP_REWRITE_$major_minor" "the newest map node is the project's major.minor"
run_capture readelf -d "$lib"
assert_contains "$RUN_STDOUT" "[libhotswap_rewrite.so.${MIRAGE_VERSION%%.*}]" "SONAME is the project's major"
real=$(readlink -f "$lib")
assert_eq "${real##*/}" "libhotswap_rewrite.so.$MIRAGE_VERSION" "the library file carries the version"
# A sanitizer build's library needs the sanitizer runtime of an executable of the same build.
if nm -D --undefined-only "$lib" | grep -q ' __[at]san_'; then
	skip "hs_version() through ctypes: a sanitizer build (unit/rewrite_entry checks it there)"
else
	run_capture python3 -c 'import ctypes, sys
f = ctypes.CDLL(sys.argv[1]).hs_version
f.restype = ctypes.c_char_p
print(f().decode())' "$lib"
	assert_eq "$RUN_STDOUT" "$MIRAGE_VERSION" "hs_version() is the project version"
fi
run_capture "$MIRAGE_BIN" --version
assert_eq "$RUN_STDOUT" "mirage $MIRAGE_VERSION" "mirage --version is the project version"
assert_contains "$MIRAGE_BUILD/include/hotswap/version.h" \
	"#define HS_REWRITE_VERSION_STRING \"$MIRAGE_VERSION\"" "the generated header has it"
done_testing
