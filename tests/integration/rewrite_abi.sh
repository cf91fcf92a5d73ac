# libhotswap_rewrite: exports exactly its version script's globals, each in its node, SONAME and pkg-config file.
source "$TEST_LIB"

lib=$MIRAGE_BUILD/hotswap/lib/libhotswap_rewrite.so
map=$MIRAGE_SRC/rewrite/lib/libhotswap_rewrite.map
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

pc=$MIRAGE_BUILD/rewrite/lib/hotswap-rewrite.pc
run_capture env PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --modversion hotswap-rewrite
assert_eq "$RUN_STDOUT" "0.1.0" "pkg-config knows hotswap-rewrite 0.1.0"
run_capture env PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --libs hotswap-rewrite
assert_contains "$RUN_STDOUT" "-lhotswap_rewrite" "pkg-config --libs"
done_testing
