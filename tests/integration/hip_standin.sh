# The stand-in HIP runtime (tests/standin/hip) follows the HIP runtime's rules (docs/hip.md),
# judged on HIP programs clang-22 builds here: a gfx1250-only program on a gfx942 device gets
# hipErrorNoBinaryForGpu at its launch; a gfx942 one launches, and what it records is the
# gfx942 entry byte for byte (as llvm-objdump-22 --offloading extracts it); the xnack/sramecc
# rule; hipModuleLoadData's second gate refuses a bare gfx1250 object and takes mirage's gfx942
# translation of it, which llvm-objdump-22 decodes whole.
source "$(dirname "$0")/cli_lib.sh"
source "$(dirname "$0")/hip_lib.sh"
OBJDUMP=${LLVM_OBJDUMP:-llvm-objdump-22}
S=$HIP_STANDIN
[ -f "$S/libamdhip64.so.6" ] || fail "no stand-in HIP runtime at $S (build the default targets)"
cd "$T" || fail "cannot cd to $T"
# OUT ARCH...: hip_app.hip built for the ARCHs.
app() {
	local out=$1 a archs=()
	shift
	for a in "$@"; do archs+=("--offload-arch=$a"); done
	hip_app "$out" "${archs[@]}"
}
app app1250 gfx1250
app app942 gfx942
app appx gfx942:xnack+
mkdir rec
export STANDIN_RECORD_DIR=$T/rec

run ./app1250
check "a gfx1250-only program on a gfx942 device" 1 "hipLaunchKernel: hipErrorNoBinaryForGpu (209)"
expect_err "no kernel image is available for execution on the device"
[ -z "$(ls rec | grep hip-launch)" ] && ok "and nothing was launched" || fail "a launch was recorded"
STANDIN_HIP_DEVICE=gfx1250 run ./app1250
check "the same program on a gfx1250 device" 0

run ./app942
check "a gfx942 program on a gfx942 device" 0
assert_contains "$(cat rec/hip-launch-1.txt)" "kernel vector_add
grid 4 1 1
block 64 1 1" "the launch is recorded"
cp app942 od && "$OBJDUMP" --offloading od >/dev/null 2>&1 || fail "llvm-objdump-22 --offloading"
cmp -s rec/hip-launch-1.co od.0.hipv4-amdgcn-amd-amdhsa--gfx942 && ok "the recorded object is the gfx942 entry" ||
	fail "the recorded object is not the program's gfx942 entry"
rm rec/*
run ./appx
check "an entry for xnack+ on an xnack- device" 1 "hipErrorNoBinaryForGpu (209)"
STANDIN_HIP_DEVICE=gfx942:sramecc-:xnack+ run ./appx
check "the same on an xnack+ device" 0

# hipModuleLoadData: the second gate, on a bare object.
"$OBJDUMP" --offloading app1250 >/dev/null 2>&1 || fail "llvm-objdump-22 --offloading app1250"
co=app1250.0.hipv4-amdgcn-amd-amdhsa--gfx1250
run ./app942 data "$co"
check "a bare gfx1250 object through hipModuleLoadData" 1 "The program ISA (e_flags machine 0x49) is not compatible with the device ISA gfx942:sramecc+:xnack-"
mirage rewrite "$co" -o k942.co --target gfx942
check "mirage translates it for gfx942" 0
run ./app942 data k942.co
check "hipModuleLoadData of the translation" 0
cmp -s rec/hip-launch-1.co k942.co && ok "the recorded object is the translation" || fail "recorded another object"
"$OBJDUMP" -d --mcpu=gfx942 rec/hip-launch-1.co >dis 2>err && [ ! -s err ] || fail "llvm-objdump-22: $(cat err)"
grep -q '<vector_add>:' dis && ! grep -q '<unknown>' dis && ok "llvm-objdump-22 decodes it whole for gfx942" ||
	fail "llvm-objdump-22 does not decode the recorded object"
done_testing
