#!/usr/bin/env bash
# Writes the coverage report into tests/kernels/README.md ("Coverage") and its lines into the
# README: the decoder rows' (tests/coverage/rows.py, from this build's mirage and isa_dump) and
# the builtin kernels' (tests/coverage/builtins.py, from tests/builtins/run.py's runs).
#
#   tests/coverage/update.sh [BUILD]      (default: build; what `--target coverage-update` runs)
#
# Environment: LLVM_MC, LD_LLD, CLANG, LLVM_OBJDUMP (default llvm-mc-22, ld.lld-22, clang-22 and
# llvm-objdump-22 on PATH), PYTHON (python3), POCL_BATCH (default BUILD's builtins_pocl_batch).
# COVERAGE_BUILTINS=no leaves the builtins part as it is (it takes minutes: the runs below).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)
py=${PYTHON:-python3}
export LLVM_MC=${LLVM_MC:-$(command -v llvm-mc-22)}
export LD_LLD=${LD_LLD:-$(command -v ld.lld-22)}
export MIRAGE_BIN=$build/bin/mirage TEST_TOOLS=$build/tests/tools
out=$build/coverage
mkdir -p "$out"

"$py" "$src/tests/coverage/rows.py" "$out"
"$py" "$src/tests/coverage/sections.py" write "$src/tests/kernels/README.md" "rows=$out/rows.md"
"$py" "$src/tests/coverage/sections.py" write "$src/README.md" "rows-line=$out/rows-line.md"

[ "${COVERAGE_BUILTINS:-yes}" != no ] || exit 0
# The builtin kernels: gen.py's default set, every level and both round trips.
# integration/builtins_diff makes the same runs and checks the report (builtins.py check).
pocl=${POCL_BATCH:-$build/tests/builtins/builtins_pocl_batch}
bsrc=$src/tests/builtins
b=$out/builtins
if [ ! -x "$pocl" ]; then
	echo "update.sh: no POCL reference ($pocl): the builtins part is left as it is" >&2
	exit 0
fi
export POCL_CACHE_DIR=$build/tests/builtins/pocl-cache
mkdir -p "$POCL_CACHE_DIR"
rm -rf "$b"
"$py" "$bsrc/gen.py" "$b/gen"
# run NAME ARGS...: one run.py run, its kernel report $b/NAME.json.  A mismatch xfail.txt does
# not list (exit 1) is written into the report as such; any other exit stops.
run() {
	local name=$1 rc=0
	shift
	"$py" "$bsrc/run.py" --gen "$b/gen" --work "$b/$name" --mirage "$MIRAGE_BIN" \
		--pocl-batch "$pocl" --clang "${CLANG:-clang-22}" --lld "$LD_LLD" \
		--objdump "${LLVM_OBJDUMP:-llvm-objdump-22}" --xfail "$bsrc/xfail.txt" --jobs 2 \
		--kernel-report "$b/$name.json" "$@" || rc=$?
	case $rc in
	0 | 1) ;;
	*) echo "update.sh: run.py $name exited $rc" >&2 && exit 1 ;;
	esac
}
run o2o3 --levels O2,O3 --targets gfx942,gfx950
run o0 --levels O0 --targets gfx942,gfx950
"$py" "$src/tests/coverage/builtins.py" write "$out/builtins.md" "$b/o2o3.json" "$b/o0.json"
"$py" "$src/tests/coverage/sections.py" write "$src/tests/kernels/README.md" "builtins=$out/builtins.md"
"$py" "$src/tests/coverage/sections.py" write "$src/README.md" "builtins-line=$out/builtins-line.md"
