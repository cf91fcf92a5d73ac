#!/usr/bin/env bash
# Checks (default) or applies (--fix) clang-format on every C/C++ source git knows about.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files --cached --others --exclude-standard '*.c' '*.h' '*.cpp' | grep -v '^fuzz/corpus/')
[ ${#files[@]} -gt 0 ] || exit 0
if [ "${1:-}" = --fix ]; then
	clang-format -i "${files[@]}"
else
	clang-format --dry-run --Werror "${files[@]}"
	echo "format: ${#files[@]} files clean"
fi
