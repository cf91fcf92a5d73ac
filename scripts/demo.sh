#!/usr/bin/env bash
# Quick-start command 1: install what is missing, build mirage and its HotSwap
# tree, and run mirage's main job on the bundled example (an OpenCL kernel
# compiled for gfx1250 by clang-22, without the entry prologue the gfx1250
# erratum needs); then run the example on the CPU with `mirage emulate` and
# check its output, and translate it for gfx942 and run that on the CPU too; read the fat
# binary of a HIP build of it; and run a gfx1250-only HIP program on a gfx942 device (the
# tests' stand-in HIP runtime) through the intercept's HIP hooks.  Leaves your own mirage config alone: everything it
# creates lives in a temp dir that is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "built: build/bin/mirage and the HotSwap tree in build/hotswap"

M=$PWD/build/bin/mirage
CO=$PWD/build/examples/vector_add.co
CLIENT=$PWD/build/tests/standin/hsa_client
demo=$(mktemp -d "${TMPDIR:-/tmp}/mirage-demo.XXXXXX")
trap 'rm -rf "$demo"' EXIT
export MIRAGE_CONFIG=$demo/config XDG_CACHE_HOME=$demo/cache

# Bold headings on a terminal only, and never under NO_COLOR.
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold= plain=; fi
step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
# The command line goes to the script's own stdout (fd 3), so a filter after show keeps it.
exec 3>&1
show() { printf '$ %s\n' "$*" >&3; "$@"; }

step "1. what this machine has (no GPU here: the GPU checks say so)"
show "$M" doctor || true

step "2. the example: two gfx1250 kernels, no entry prologue"
show "$M" inspect "$CO"

step "3. retrofit the erratum fix: entry trampolines + <kernel>.stub symbols"
show "$M" rewrite "$CO" -o "$demo/vector_add.fixed.co" --entry-trampolines \
	--target amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific+
show llvm-objdump-22 -d --mcpu=gfx1250 "$demo/vector_add.fixed.co" | sed -n '/<vector_add.stub>:/,/s_code_end/p'

step "4. a profile, and the environment 'mirage run' gives a workload"
show "$M" profile create demo --target gfx1250 --stepping b0 --entry-trampolines \
	--description "gfx1250 B0 code on a B0 board, erratum fix on"
show "$M" run --profile demo --dry-run -- "$CLIENT" "$CO" | grep -E '^#.*(HSA_|LD_PRELOAD|HOTSWAP_HOME)'

step "5. mirage run: the workload loads the example; the intercept rewrites it on the way in"
echo "(No GPU here: the workload is the small HSA client from tests/, linked against the"
echo " stand-in HSA runtime, which records what its loader receives. The intercept and the"
echo " rewriter are the real ones from build/hotswap.)"
mkdir -p "$demo/loads"
STANDIN_AGENT_GFX=gfx1250 STANDIN_RECORD_DIR="$demo/loads" \
	show "$M" run --profile demo --env HSA_HOTSWAP_VERBOSE=1 -- "$CLIENT" "$CO"
echo "what the runtime's loader received:"
show llvm-objdump-22 -d --mcpu=gfx1250 "$demo/loads/load-1.co" | sed -n '/<vector_add.stub>:/,/s_set_pc_i64/p'

step "6. a second run hits the translation cache"
STANDIN_AGENT_GFX=gfx1250 STANDIN_RECORD_DIR="$demo/loads" \
	show "$M" run --profile demo -- "$CLIENT" "$CO"

step "7. mirage emulate: the example's vector_add on this CPU (raised to LLVM IR, JIT-compiled)"
# n = 1000: the last of the four 256-wide workgroups is partial, as a HIP launch makes it.
# a[i] = i/2 and b[i] = 1000 - i/4 are exact in float32, and so is every sum.
python3 - "$demo" <<'PY'
import struct, sys
n = 1000
open(sys.argv[1] + "/a.bin", "wb").write(struct.pack("<%df" % n, *[i / 2 for i in range(n)]))
open(sys.argv[1] + "/b.bin", "wb").write(struct.pack("<%df" % n, *[1000 - i / 4 for i in range(n)]))
PY
cat >"$demo/vector_add.json" <<JSON
{
  "code_object": "$CO",
  "kernel": "vector_add",
  "grid": [1000],
  "workgroup": [256],
  "buffers": {
    "a": {"size": 4000, "init": "file:a.bin"},
    "b": {"size": 4000, "init": "file:b.bin"},
    "c": {"size": 4000, "init": "zero", "output": "c.bin"}
  },
  "args": [{"buffer": "a"}, {"buffer": "b"}, {"buffer": "c"}, {"u32": 1000}]
}
JSON
echo "the launch file (docs/emulate.md): a and b hold a[i] = i/2 and b[i] = 1000 - i/4"
sed 's/^/  /' "$demo/vector_add.json"
show "$M" emulate "$demo/vector_add.json" --json
python3 - "$demo" <<'PY'
import struct, sys
n = 1000
c = struct.unpack("<%df" % n, open(sys.argv[1] + "/c.bin", "rb").read())
want = [i / 2 + (1000 - i / 4) for i in range(n)]
for i in (0, 1, 255, 256, 999):
    print("c[%d] = %g (a + b = %g)" % (i, c[i], want[i]))
bad = [i for i in range(n) if c[i] != want[i]]
if bad:
    sys.exit("mismatch: %d of %d elements differ, the first at %d" % (len(bad), n, bad[0]))
print("all %d elements equal a + b" % n)
PY
echo "no launch file at hand? mirage emulate --init writes one from the kernel's metadata:"
(cd "$demo" && show "$M" emulate --init "$CO" --kernel saxpy -o saxpy.json &&
	show "$M" emulate saxpy.json)

step "8. mirage raise --json: how much of the example the raiser covers"
# Exit 1 when a kernel is refused: that is a result to show, not a failure of the demo.
show "$M" raise "$CO" --json >"$demo/raise.json" || [ $? = 1 ]
python3 - "$demo/raise.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for k in r["kernels"]:
    if k["raised"]:
        print("%-12s raised: %d instructions" % (k["kernel"], k["instructions"]))
    else:
        print("%-12s refused at %s (%s): %s" % (k["kernel"], k["offset"], k["mnemonic"],
                                               k["reason"]))
print("%d raised, %d refused" % (r["raised"], r["refused"]))
PY

step "9. gfx1250 B0 code for an A0 board: the B0->A0 pass, checked on the CPU"
echo "(The object is a test fixture, tests/b0a0/exec.s: DS two-address and ADDTID"
echo " instructions whose results it stores. A0 silicon computes them wrongly.)"
B0=$PWD/build/tests/fixtures/b0a0_exec.co
show "$M" inspect "$B0" | grep -A12 'B0-only sites'
show "$M" rewrite "$B0" -o "$demo/exec_sites.a0.co" --target gfx1250
# The same launch on the original and on the rewrite: the patches must keep B0's results.
for which in b0 a0; do
	mkdir -p "$demo/$which"
	sed 's/"exec_sites.co"/"code.co"/' tests/b0a0/exec.json >"$demo/$which/launch.json"
done
cp "$B0" "$demo/b0/code.co"
cp "$demo/exec_sites.a0.co" "$demo/a0/code.co"
show "$M" emulate "$demo/b0/launch.json"
show "$M" emulate "$demo/a0/launch.json"
if cmp -s "$demo/b0/out.bin" "$demo/a0/out.bin"; then
	echo "the rewritten object gives the original's $(wc -c <"$demo/b0/out.bin") output bytes"
else
	echo "demo: the B0->A0 rewrite changed the kernel's results" >&2
	exit 1
fi

step "10. gfx1250 code for an MI300 (gfx942): translated, judged by LLVM, run on the CPU"
show "$M" rewrite "$CO" -o "$demo/vector_add.gfx942.co" --target gfx942
echo "LLVM's view of the translation (llvm-readelf-22, llvm-objdump-22 --mcpu=gfx942):"
llvm-readelf-22 -h "$demo/vector_add.gfx942.co" | grep -E 'Flags'
llvm-readelf-22 --notes "$demo/vector_add.gfx942.co" |
	grep -E '^ +\.(name|wavefront_size|kernarg_segment_size):' | sed 's/^ */  /'
llvm-objdump-22 -d --mcpu=gfx942 "$demo/vector_add.gfx942.co" | grep -c '^\s.*//' |
	sed 's/^/  instructions decoded: /'
# The round trip: the gfx942 object raised by the gfx942 table, run as wave64 on the CPU,
# must give the gfx1250 original's bytes (step 7's c.bin).
mv "$demo/c.bin" "$demo/c.gfx1250.bin"
sed "s|\"code_object\": \"$CO\"|\"code_object\": \"$demo/vector_add.gfx942.co\"|" \
	"$demo/vector_add.json" >"$demo/vector_add.gfx942.json"
show "$M" emulate "$demo/vector_add.gfx942.json"
if cmp -s "$demo/c.bin" "$demo/c.gfx1250.bin"; then
	echo "the gfx942 translation gives the gfx1250 original's $(wc -c <"$demo/c.bin") output bytes"
else
	echo "demo: the gfx942 translation changed vector_add's results" >&2
	exit 1
fi

step "11. a HIP program's fat binary: the example as a HIP library (examples/vector_add.hip)"
echo "(The HIP runtime picks a code object out of it by the device before the loader sees"
echo " one: docs/hip.md.)"
show "$M" inspect "$PWD/build/examples/libvector_add_hip.so" | grep -E '^(bundle|  entry|kernels|  [a-z_]+$)'

step "12. a gfx1250-only HIP program on an MI300: the intercept's HIP hooks add a gfx942 entry"
echo "(The HIP runtime here is the tests' stand-in, tests/standin/hip: one gfx942 device, the"
echo " real runtime's rules for choosing a code object, and each launch recorded, not run.)"
S=$PWD/build/tests/standin/hip
clang-22 -x hip --offload-arch=gfx1250 -nogpulib -nogpuinc -no-hip-rt -O2 \
	tests/standin/hip/hip_app.hip -o "$demo/hip_app" -L"$S" -lamdhip64 -Wl,-rpath,"$S"
export STANDIN_RECORD_DIR=$demo/hip-launches
mkdir "$STANDIN_RECORD_DIR"
if show "$demo/hip_app"; then
	echo "demo: the gfx1250-only program launched on a gfx942 device without mirage" >&2
	exit 1
fi
show "$M" profile create mi300 --target gfx942 --description "gfx1250 code on MI300" >/dev/null
show "$M" run -p mi300 -- "$demo/hip_app"
echo "what the runtime launched (llvm-readelf-22 -h):"
llvm-readelf-22 -h "$STANDIN_RECORD_DIR/hip-launch-1.co" | grep -E 'Flags'
show "$M" emulate "$STANDIN_RECORD_DIR/hip-launch-1.json"
python3 - "$STANDIN_RECORD_DIR/hip-launch-1-" <<'EOF'
import struct, sys
a, b, c = (struct.unpack("<256f", open(sys.argv[1] + n, "rb").read()) for n in ("b0.bin", "b1.bin", "b2.out"))
f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
bad = [i for i in range(250) if c[i] != f32(a[i] + b[i])]
if bad:
    sys.exit(f"demo: the recorded launch gives wrong sums at {bad[:5]}")
print("that launch, run on this CPU, gives c = a + b for all 250 elements")
EOF

echo
echo "done: mirage rewrote the example on its way into the loader, and said what it did;"
echo "then ran it on this CPU and checked the result, showed that a B0->A0 rewrite keeps a"
echo "kernel's results, translated the example for gfx942 and ran that on the CPU too, read"
echo "the fat binary of a HIP build of it, and ran a gfx1250-only HIP program on a gfx942"
echo "device through the HIP hooks."
