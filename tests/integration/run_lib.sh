# Helpers for `mirage run` tests: the in-tree HotSwap tree, fixture trees, env dumps.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

ENVDUMP="$TEST_TOOLS/envdump"
TREE="$MIRAGE_BUILD/hotswap"
[ -f "$TREE/lib/libhotswap_intercept.so" ] || fail "the in-tree HotSwap tree is not built at $TREE"
TREE=$(cd "$TREE" && pwd -P)
export HOTSWAP_HOME="$TREE"

# The stand-in HSA client and a gfx1250 fixture: a workload that shows what its loader received.
CLIENT=$MIRAGE_BUILD/tests/standin/hsa_client
HELLO=$FIXTURES/hello.co

# expect_rewritten FILE DESC: the loader received a rewritten object (.hotswap.text, by readelf).
expect_rewritten() {
	"$LLVM_READELF" -S "$1" | grep -q '\.hotswap\.text' ||
		fail "$2: no .hotswap.text in what the loader received ('$1')"
	ok "$2"
}

# val NAME: the value NAME had in the last env dump ($OUT), or "<unset>".
val() {
	local line
	line=$(grep -m1 "^$1=" "$OUT") || {
		echo "<unset>"
		return
	}
	echo "${line#*=}"
}

# expect_val NAME VALUE
expect_val() {
	local got
	got=$(val "$1")
	[ "$got" = "$2" ] || fail "$1 is '$got', expected '$2'"
}

# stage_reference_tree DIR: a reference-flavour tree (patched ROCr + COMGR) made of stand-in libraries.
stage_reference_tree() {
	local fx="$MIRAGE_BUILD/tests/unit/discovery_fx"
	mkdir -p "$1/lib" "$1/llvm-tools" "$1/runtime/hotswap_py"
	cp "$fx/libfx_intercept.so" "$1/lib/libhotswap_intercept.so"
	cp "$fx/libfx_hsa.so" "$1/lib/libhsa-runtime64.so.1"
	cp "$fx/libfx_comgr.so" "$1/lib/libamd_comgr.so.3"
	for t in llc llvm-mc lld ld.lld; do ln -s "$(command -v true)" "$1/llvm-tools/$t"; done
	: >"$1/runtime/hotswap_py/sitecustomize.py"
}

# gpu_sysfs DIR GFX_TARGET_VERSION [CAPABILITY]: a one-GPU KFD topology for MIRAGE_SYSFS_ROOT.
gpu_sysfs() {
	local node="$1/class/kfd/kfd/topology/nodes"
	mkdir -p "$node/0" "$node/1"
	printf 'cpu_cores_count 8\nsimd_count 0\ngfx_target_version 0\n' >"$node/0/properties"
	printf 'simd_count 304\ngfx_target_version %s\ncapability %s\n' "$2" "${3:-0}" >"$node/1/properties"
}
