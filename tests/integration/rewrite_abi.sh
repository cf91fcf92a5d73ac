# libhotswap_rewrite: exports exactly its version script's globals, SONAME and pkg-config file.
source "$TEST_LIB"

lib=$MIRAGE_BUILD/hotswap/lib/libhotswap_rewrite.so
map=$MIRAGE_SRC/rewrite/lib/libhotswap_rewrite.map
[ -e "$lib" ] || fail "no $lib (build the hotswap_rewrite target)"

want=$(sed -n '/global:/,/local:/p' "$map" | grep -o '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*;' |
	tr -d ' \t;' | sort)
got=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^HOTSWAP_REWRITE_' |
	sed 's/@.*//' | sort)
assert_eq "$got" "$want" "nm -D --defined-only matches the map"

versions=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^HOTSWAP_REWRITE_' |
	sed -n 's/.*@@*//p' | sort -u)
assert_eq "$versions" "HOTSWAP_REWRITE_0.1" "every export is in node HOTSWAP_REWRITE_0.1"

run_capture readelf -d "$lib"
assert_contains "$RUN_STDOUT" "Library soname: [libhotswap_rewrite.so.0]" "SONAME has the major"
assert_contains "$RUN_STDOUT" "[\$ORIGIN]" "RUNPATH is \$ORIGIN"

pc=$MIRAGE_BUILD/rewrite/lib/hotswap-rewrite.pc
run_capture env PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --modversion hotswap-rewrite
assert_eq "$RUN_STDOUT" "0.1.0" "pkg-config knows hotswap-rewrite 0.1.0"
run_capture env PKG_CONFIG_PATH="$(dirname "$pc")" pkg-config --libs hotswap-rewrite
assert_contains "$RUN_STDOUT" "-lhotswap_rewrite" "pkg-config --libs"
done_testing
