# Helpers for the tests of HIP programs (sourced after lib.sh): the one way they build
# tests/standin/hip/hip_app.hip.
# shellcheck shell=bash

HIP_STANDIN=$MIRAGE_BUILD/tests/standin/hip

# hip_app OUT CLANG_ARGS...: hip_app.hip built by clang-22 and linked to the stand-in HIP
# runtime (with the sanitizers of a sanitized build, whose stand-in needs their runtime first).
hip_app() {
	local out=$1 extra=()
	shift
	[ -z "${MIRAGE_SANITIZE:-}" ] || extra+=(-Xarch_host "-fsanitize=$MIRAGE_SANITIZE")
	"$CLANG" -x hip -nogpulib -nogpuinc -no-hip-rt -O2 "${extra[@]}" "$@" \
		"$MIRAGE_SRC/tests/standin/hip/hip_app.hip" -o "$out" -L"$HIP_STANDIN" -lamdhip64 \
		-Wl,-rpath,"$HIP_STANDIN" || fail "clang -x hip $*"
}
