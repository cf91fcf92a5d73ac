#!/usr/bin/env bash
# Installs every Debian 12 package that building mirage and running its whole
# test suite needs.  Idempotent: when everything is present it only checks and
# returns (no apt-get update, no network).  Must run as root (or with sudo).
set -euo pipefail

packages=(
	# build
	build-essential cmake pkg-config ninja-build git ca-certificates file
	# libraries (see README "Dependencies")
	libelf-dev libcjson-dev libinih-dev libcurl4-openssl-dev libarchive-dev
	libmsgpack-dev libssl-dev libzstd-dev zlib1g-dev libcmocka-dev
	libhsa-runtime-dev
	# LLVM 22: the C API for MC, and the tools that build and judge fixtures
	llvm-22 llvm-22-dev clang-22 lld-22 libclang-rt-22-dev
	# lld as a library: the translator links in process (translate/amdgcn/amdgcn_lld.cpp)
	liblld-22-dev
	# clang-offload-bundler: clang -x hip builds fat binaries with it (tests/integration/hip_*)
	clang-tools-22
	# tests: shells for completions, python for the runtime adapter
	bash bash-completion zsh fish python3 binutils clang-format
	# tests: tracing and TLS/JSON tools some integration tests use
	strace openssl jq util-linux
	# tests: POCL, the kernel suite's second CPU reference (tests/kernels)
	pocl-opencl-icd ocl-icd-opencl-dev opencl-headers
	# tests: libclc's amdgcn builtin library, for the builtin differential test (tests/builtins)
	libclc-22
	# tests: Open MPI, whose ranks share one translation (integration/intercept_cache_mpi)
	openmpi-bin
	# tests: the man pages rendered as man(1) shows them (integration/man_pages)
	groff-base man-db
	# tests: a single-node Slurm the test starts itself (integration/intercept_cache_slurm)
	munge slurmctld slurmd slurm-client
	# the Debian package: lintian judges it, debootstrap makes the clean root it is installed
	# into (tests/install/check_deb.sh)
	lintian debootstrap
)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "setup: all ${#packages[@]} packages present"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		exec sudo "$0" "$@"
	fi
	echo "setup: missing packages: ${missing[*]}" >&2
	echo "setup: run this script as root to install them" >&2
	exit 1
fi

echo "setup: installing ${#missing[@]} package(s): ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
for p in "${missing[@]}"; do
	if ! apt-cache show "$p" >/dev/null 2>&1; then
		echo "setup: package '$p' is not available from the configured apt sources" >&2
		echo "hint: mirage needs Debian 12 (bookworm) with bookworm-security enabled (LLVM 22 comes from there)" >&2
		exit 1
	fi
done
apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
