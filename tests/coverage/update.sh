#!/usr/bin/env bash
# Writes the coverage report into tests/kernels/README.md ("Coverage") and its line into the
# README: the decoder rows' (tests/coverage/rows.py, from this build's mirage and isa_dump).
#
#   tests/coverage/update.sh [BUILD]      (default: build; what `--target coverage-update` runs)
#
# Environment: LLVM_MC, LD_LLD (default llvm-mc-22 and ld.lld-22 on PATH), PYTHON (python3).
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
