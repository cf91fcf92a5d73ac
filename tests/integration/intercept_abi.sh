# libhotswap_intercept exports exactly the globals of its version script: the HSA tools
# interface and the HIP entries it interposes (docs/hip.md).
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

map=$MIRAGE_SRC/intercept/shim/libhotswap_intercept.map
want=$(sed -n '/global:/,/local:/p' "$map" | grep -o '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*;' |
	tr -d ' \t;' | sort)
got=$(nm -D --defined-only "$INTERCEPT" | awk '{print $3}' | sed 's/@.*//' | sort)
assert_eq "$got" "$want" "nm -D --defined-only matches the map"
assert_eq "$(echo "$want" | LC_ALL=C sort | tr '\n' ' ')" \
	"HSA_AMD_TOOL_PRIORITY OnLoad OnUnload __hipRegisterFatBinary hipGetProcAddress hipModuleLoad hipModuleLoadData hipModuleLoadDataEx " \
	"the map lists the HSA tools interface and the five HIP entries"
done_testing
