# Helpers for the discovery/doctor/emulators/paths integration tests: a private
# HOME, command capture and assertions, and generators for fixture HotSwap
# trees and KFD sysfs topologies (text only; libraries come from the build).
# Sourced by discovery_*.sh and doctor_*.sh; self-contained on purpose.
set -u

: "${MIRAGE_BIN:?MIRAGE_BIN must point at the mirage binary}"
: "${MIRAGE_BUILD:?MIRAGE_BUILD must point at the build tree}"
DISC_FX_DIR=${DISC_FX_DIR:-$MIRAGE_BUILD/tests/unit/discovery_fx}

T=$(mktemp -d "${TMPDIR:-/tmp}/mirage-it-XXXXXX")
T=$(cd "$T" && pwd -P)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home
mkdir -p "$HOME"
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME MIRAGE_CONFIG MIRAGE_DATA MIRAGE_CACHE
unset HOTSWAP_HOME HSA_TOOLS_LIB ROCR_VISIBLE_DEVICES HIP_VISIBLE_DEVICES
unset LD_PRELOAD
for v in $(env | sed -n 's/^\(HSA_HOTSWAP_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export NO_COLOR=1
# No GPU unless a test builds a topology: the host's real /sys must not leak in.
export MIRAGE_SYSFS_ROOT=$T/no-sysfs

FAILS=0
fail() {
	echo "FAIL: $*" >&2
	FAILS=$((FAILS + 1))
}

# run CMD...: runs it, keeping stdout in $OUT, stderr in $ERR and the status in $RC.
run() {
	OUT=$("$@" 2>"$T/.err")
	RC=$?
	ERR=$(cat "$T/.err")
}
# mirage ARGS...: run the binary under test (MIRAGE_EXE overrides, e.g. a relocated copy).
mirage() {
	run "${MIRAGE_EXE:-$MIRAGE_BIN}" "$@"
}

expect_rc() {
	[ "$RC" = "$1" ] || fail "${2:-command}: exit $RC, expected $1${ERR:+; stderr: $ERR}"
}
expect_out() {
	case $OUT in *"$1"*) ;; *) fail "stdout lacks '$1'; got:"$'\n'"$OUT" ;; esac
}
expect_no_out() {
	case $OUT in *"$1"*) fail "stdout has '$1'; got:"$'\n'"$OUT" ;; esac
}
expect_err() {
	case $ERR in *"$1"*) ;; *) fail "stderr lacks '$1'; got:"$'\n'"$ERR" ;; esac
}
# expect_line REGEX: some stdout line matches the (grep -E) regex.
expect_line() {
	printf '%s\n' "$OUT" | grep -Eq -- "$1" || fail "no stdout line matches /$1/; got:"$'\n'"$OUT"
}
# expect_json PYTHON-EXPR: evaluates the expression with d = the parsed stdout.
expect_json() {
	printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
ok = eval(sys.argv[1])
sys.exit(0 if ok else 1)' "$1" || fail "JSON check failed: $1; got:"$'\n'"$OUT"
}

finish() {
	if [ "$FAILS" -ne 0 ]; then
		echo "$FAILS check(s) failed" >&2
		exit 1
	fi
	echo "all checks passed"
	exit 0
}

# ---- fixture HotSwap trees (stand-in libraries built by tests/unit/discovery.cmake) ----

fx() { # fx NAME: path of a stand-in library
	echo "$DISC_FX_DIR/libfx_$1.so"
}
stage_tools() { # stage_tools ROOT: llvm-tools and the python runtime
	mkdir -p "$1/llvm-tools" "$1/runtime/hotswap_py"
	for t in llc llvm-mc lld ld.lld; do
		printf '#!/bin/sh\necho "LLVM version 22.0.0 (stand-in)"\n' >"$1/llvm-tools/$t"
		chmod 755 "$1/llvm-tools/$t"
	done
	echo '# stand-in' >"$1/runtime/hotswap_py/sitecustomize.py"
}
stage_native() { # stage_native ROOT: a complete native tree
	mkdir -p "$1/lib"
	cp "$(fx intercept)" "$1/lib/libhotswap_intercept.so"
	cp "$(fx core)" "$1/lib/libhotswap_intercept_core.so"
	cp "$(fx rewrite)" "$1/lib/libhotswap_rewrite.so"
	stage_tools "$1"
}
stage_reference() { # stage_reference ROOT: a complete reference tree
	mkdir -p "$1/lib"
	cp "$(fx intercept)" "$1/lib/libhotswap_intercept.so"
	cp "$(fx hsa)" "$1/lib/libhsa-runtime64.so.1"
	cp "$(fx comgr)" "$1/lib/libamd_comgr.so.3"
	stage_tools "$1"
}

# ---- fixture KFD topologies ----

# kfd_node SYSFS N GFX_TARGET_VERSION [ASIC_REV [UNIQUE_ID]]: one node's properties file.
kfd_node() {
	local dir="$1/class/kfd/kfd/topology/nodes/$2" v=$3 rev=${4:-0} uid=${5:-0}
	mkdir -p "$dir"
	{
		echo "cpu_cores_count $([ "$v" = 0 ] && echo 64 || echo 0)"
		echo "simd_count $([ "$v" = 0 ] && echo 0 || echo 304)"
		echo "gfx_target_version $v"
		echo "vendor_id 4098"
		echo "device_id $([ "$v" = 0 ] && echo 0 || echo 29857)"
		echo "location_id $((256 * $2))"
		echo "drm_render_minor $([ "$v" = 0 ] && echo 0 || echo $((127 + $2)))"
		echo "capability $(((rev << 22) | 557056))"
		echo "unique_id $uid"
	} >"$dir/properties"
}
# sysfs_fixture NAME: builds one of the standard topologies under $T/sysfs-NAME and prints its root.
sysfs_fixture() {
	local s=$T/sysfs-$1
	mkdir -p "$s"
	case $1 in
	none) rm -rf "$s" ;;
	cpu) kfd_node "$s" 0 0 ;;
	gfx942) kfd_node "$s" 0 0 && kfd_node "$s" 1 90402 1 ;;
	gfx942+gfx950) kfd_node "$s" 0 0 && kfd_node "$s" 1 90402 && kfd_node "$s" 2 90500 ;;
	gfx1250-a0b0) kfd_node "$s" 0 0 && kfd_node "$s" 1 120500 0 && kfd_node "$s" 2 120500 1 ;;
	malformed)
		kfd_node "$s" 0 0
		kfd_node "$s" 1 90402
		mkdir -p "$s/class/kfd/kfd/topology/nodes/2"
		printf 'simd_count 304\ngfx_target_version nine\n' >"$s/class/kfd/kfd/topology/nodes/2/properties"
		;;
	*) echo "unknown sysfs fixture $1" >&2 && exit 2 ;;
	esac
	echo "$s"
}

# A profile store entry written as the INI format says (not through mirage, so a test
# can set up profiles before the tree exists).
write_profile() { # write_profile NAME TARGET [EMULATOR]
	mkdir -p "$HOME/.config/mirage/profiles"
	cat >"$HOME/.config/mirage/profiles/$1.ini" <<INI
[profile]
name = $1
description = test
emulator = ${3:-hotswap}

[hotswap]
source_target = gfx1250:32
target = $2
adapter_policy = compile
strict = true
entry_trampolines = false
stepping = auto
cache_dir =
INI
}
