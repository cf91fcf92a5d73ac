#!/usr/bin/env bash
# Quick-start command 2: install what is missing; build the default preset, run
# its suite, install it into a temp prefix and try the install from outside
# (tests/install); build under AddressSanitizer + UndefinedBehaviorSanitizer
# (clang 22) and run the whole suite (unit, integration, shells, python, a short
# fuzz run); then the concurrency tests under ThreadSanitizer.  Exits non-zero on
# the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc 2>/dev/null || echo 2)

scripts/setup.sh

echo "== build: default preset"
cmake --preset default >/dev/null
cmake --build --preset default -j "$jobs"

echo "== test: default preset"
ctest --preset default

echo "== install: default build into a temp prefix, used by a pkg-config consumer and mirage"
tests/install/check_install.sh build

echo "== build: sanitize preset (ASan + UBSan)"
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize -j "$jobs"

echo "== test: sanitize preset"
ctest --preset sanitize

echo "== build: tsan preset (ThreadSanitizer)"
cmake --preset tsan >/dev/null
cmake --build --preset tsan -j "$jobs"

echo "== test: tsan preset (concurrency tests)"
ctest --preset tsan
