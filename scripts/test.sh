#!/usr/bin/env bash
# Quick-start command 2: install what is missing; build the default preset, run
# its suite, install it into a temp prefix and try the install from outside, build
# the Debian package and install it into a clean Debian 12 chroot (tests/install);
# build under AddressSanitizer + UndefinedBehaviorSanitizer
# (clang 22) and run the whole suite (unit, integration, shells, python, a short
# fuzz run); then the concurrency tests under ThreadSanitizer.  Exits non-zero on
# the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."

jobs=$(nproc 2>/dev/null || echo 2)

scripts/setup.sh

# build_and_test PRESET WHAT: configure, build and run one preset's suite.
build_and_test() {
	echo "== build: $1 preset ($2)"
	cmake --preset "$1" >/dev/null
	cmake --build --preset "$1" -j "$jobs"
	echo "== test: $1 preset"
	ctest --preset "$1"
}

build_and_test default "RelWithDebInfo"

echo "== install: default build into a temp prefix, used by a pkg-config consumer and mirage"
tests/install/check_install.sh build

echo "== package: the Debian package, judged by lintian, installed into a clean Debian 12 chroot"
tests/install/check_deb.sh build

build_and_test sanitize "ASan + UBSan"
build_and_test tsan "ThreadSanitizer: the concurrency tests"
