#!/usr/bin/env bash
# Parallel translation (docs/translate.md, "Parallel translation"): objects of 24 and 64
# kernels, built here by clang-22, are cut into 3 and 8 chunks and translated for gfx942 on
# 1, 2 and 3 threads (HSA_HOTSWAP_JOBS) and with values that are not a thread count: every
# translation is the same bytes.  The 24-kernel object has a refused kernel in its middle
# chunk (an entry that traps) and two kernels that read the object's own constant table from
# different chunks (the image is carried once).  A spawned ld.lld-22 (MIRAGE_LLD) links the same
# bytes as lld in process.  LLVM's tools read the result whole, one
# metadata note per chunk; `mirage emulate` of kernels from the first and last chunks gives
# the gfx1250 original's bytes; under `mirage run` an inherited HSA_HOTSWAP_JOBS reaches the
# intercept, and the stand-in HSA client loads the split translation.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

cd "$TEST_TMP" || exit 1
export HOME=$TEST_TMP/home XDG_CONFIG_HOME=$TEST_TMP/config XDG_CACHE_HOME=$TEST_TMP/xdg-cache
export MIRAGE_SYSFS_ROOT=$TEST_TMP/no-sysfs NO_COLOR=1

# k24.cl: kernels k0..k23; k3 and k19 read one __constant table, k12 reads the cycle counter
# (no semantics: refused).
python3 - <<'EOF'
def simple(k):
    return (f"kernel void k{k}(global float *c, global const float *a, uint n) {{ uint i = ID; "
            f"if (i < n) c[i] = a[i] * {k + 1}.0f + {k}.0f; }}")
def table(k):
    return (f"kernel void k{k}(global uint *c, global const uint *a, uint n) {{ uint i = ID; "
            f"if (i < n) c[i] = tab[a[i] & 15u] ^ tab[(a[i] >> 4) & 15u] ^ {k}u; }}")
head = ["#define ID (__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x())",
        "__constant uint tab[16] = {" + ", ".join("0x%08xu" % (0x5eed0000 + 0x01010101 * i * 7)
                                              for i in range(16)) + "};"]
k24 = head + [table(k) if k in (3, 19) else
              f"kernel void k{k}(global ulong *c) {{ c[ID] = __builtin_readcyclecounter(); }}"
              if k == 12 else simple(k) for k in range(24)]
open("k24.cl", "w").write("\n".join(k24) + "\n")
open("k64.cl", "w").write("\n".join(head[:1] + [simple(k) for k in range(64)]) + "\n")
EOF
for o in k24 k64; do
	"$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib -O2 -c $o.cl \
		-o $o.o || fail "clang-22 builds $o.cl"
	"$LD_LLD" -shared $o.o -o $o.co || fail "ld.lld-22 links $o.co"
done

# ---- the same bytes on any number of threads; bad values are the default ----
for o in k24 k64; do
	want=$([ $o = k24 ] && echo 3 || echo 0)
	for jobs in unset 1 2 3 0 abc 999 -2 " 2"; do
		if [ "$jobs" = unset ]; then
			run_capture env -u HSA_HOTSWAP_JOBS "$MIRAGE_BIN" rewrite $o.co --target gfx942 -o "$o.$jobs.co"
		else
			run_capture env HSA_HOTSWAP_JOBS="$jobs" "$MIRAGE_BIN" rewrite $o.co --target gfx942 -o "$o.$jobs.co"
		fi
		assert_eq "$RUN_STATUS" "$want" "$o, HSA_HOTSWAP_JOBS=$jobs: exit $want"
		if cmp -s "$o.unset.co" "$o.$jobs.co"; then
			ok "$o, HSA_HOTSWAP_JOBS=$jobs: the same bytes as the default's"
		else
			fail "$o, HSA_HOTSWAP_JOBS=$jobs: the translation differs from the default's"
		fi
	done
done
assert_contains "$(cat "$RUN_STDOUT_FILE")" "kernels:  64 found, 64 translated, 0 refused" "k64: every kernel translated"
# The linker in this process (lld's library) and ld.lld-22 spawned link the same bytes.
run_capture env MIRAGE_LLD="$LD_LLD" "$MIRAGE_BIN" rewrite k24.co --target gfx942 -o k24.spawned.co
assert_eq "$RUN_STATUS" 3 "k24 linked by a spawned ld.lld-22: exit 3"
cmp -s k24.unset.co k24.spawned.co && ok "k24: the spawned linker's object is the same bytes" ||
	fail "k24: the spawned linker's object differs from the one linked in process"

# ---- LLVM's tools: one metadata note per chunk, decoded whole, the refused kernel traps ----
for o in k24:3 k64:8; do
	name=${o%:*} chunks=${o#*:}
	"$LLVM_READELF" --notes "$name.1.co" >notes.txt || fail "llvm-readelf-22 --notes $name"
	assert_eq "$(grep -c 'NT_AMDGPU_METADATA' notes.txt)" "$chunks" "$name: $chunks metadata notes, one per chunk"
	"$LLVM_OBJDUMP" -d --mcpu=gfx942 "$name.1.co" >dis.txt 2>od.err || fail "llvm-objdump-22 -d $name"
	[ ! -s od.err ] && ! grep -q '<unknown>' dis.txt && ok "$name: llvm-objdump-22 --mcpu=gfx942 decodes it whole" ||
		fail "$name: llvm-objdump-22 does not decode it whole: $(head -3 od.err)"
done
"$LLVM_OBJDUMP" -d --mcpu=gfx942 k24.1.co >dis.txt
assert_eq "$(grep -A1 '^[0-9a-f]* <k12>:' dis.txt | sed -n 2p | awk '{print $1, $2}')" "s_trap 2" \
	"k24: the refused kernel k12 is an entry that traps"
run_capture "$MIRAGE_BIN" --json inspect k24.1.co
assert_eq "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ks = d["metadata"]["amdhsa.kernels"]
print(len(d["kernels"]), len(ks), sorted({len(k[".args"]) for k in ks}))' "$RUN_STDOUT_FILE" 2>&1)" "24 24 [1, 3]" \
	"k24: inspect reads 24 kernels and their metadata across the notes, each with its carried .args"

# The source image is carried once although k3 and k19 sit in different chunks.
assert_eq "$(python3 -c '
import struct, sys
tab = b"".join(struct.pack("<I", 0x5eed0000 + 0x01010101 * i * 7) for i in range(16))
print(open(sys.argv[1], "rb").read().count(tab))' k24.1.co)" 1 "k24: the object image (its table) is in the translation once"

# ---- the translation runs as the original does: first and last chunks, and both tables ----
for k in k3 k19 k23; do
	for co in k24.co k24.2.co; do
		cat >"l.$k.$co.json" <<EOF
{"code_object": "$co", "kernel": "$k", "grid": [256], "workgroup": [64],
 "buffers": {"c": {"size": 1024, "init": "zero", "output": "c.$k.$co.bin"},
             "a": {"size": 1024, "init": "random:7"}},
 "args": [{"buffer": "c"}, {"buffer": "a"}, {"u32": 250}]}
EOF
		run_capture "$MIRAGE_BIN" emulate "l.$k.$co.json"
		assert_eq "$RUN_STATUS" 0 "emulate $k of $co"
	done
	cmp -s "c.$k.k24.co.bin" "c.$k.k24.2.co.bin" && ok "$k: the translation gives the original's bytes" ||
		fail "$k: the translation's output differs from the gfx1250 original's"
done

# ---- under mirage run: an inherited HSA_HOTSWAP_JOBS reaches the workload ----
export STANDIN_AGENT_GFX=gfx942
run_capture "$MIRAGE_BIN" profile create mi300 --target gfx942
assert_eq "$RUN_STATUS" 0 "profile mi300 created"
# envdump (built like mirage, so the preloaded shim loads in it under the sanitizers too)
HSA_HOTSWAP_JOBS=2 run_capture "$MIRAGE_BIN" run -p mi300 -- "$TEST_TOOLS/envdump" 0
assert_contains "$RUN_STDOUT" "HSA_HOTSWAP_JOBS=2" "mirage run passes an inherited HSA_HOTSWAP_JOBS on"
fresh_rec
HSA_HOTSWAP_JOBS=2 run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" k64.co
assert_eq "$RUN_STATUS" 0 "mirage run: the stand-in client loads the 64-kernel object"
assert_contains "$RUN_STDERR" "hotswap_cache: miss (gfx1250 -> gfx942) kernels=64" "mirage run: translated at load"
"$LLVM_READELF" --notes "$REC/load-1.co" | grep -c NT_AMDGPU_METADATA >n.txt
assert_eq "$(cat n.txt)" 8 "mirage run: the loaded translation is the split one"

done_testing
