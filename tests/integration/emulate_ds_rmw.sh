#!/usr/bin/env bash
# The LDS read-modify-writes ds_rsub_u32/u64, ds_sub_clamp_u32, ds_cond_sub_u32 and
# ds_mskor_b32/b64 (each with its _rtn form) and global_atomic_{cond_sub,sub_clamp}_u32
# (tests/raise/ds_rmw.s, assembled here by llvm-mc-22) run by `mirage emulate` on gfx1250 and
# through the gfx942 and gfx950 translations, against the ISA's pseudocode for each, computed
# here (docs/raiser.md, "The IR", LDS read-modify-writes): rsub memory = data - memory;
# sub_clamp memory = memory < data ? 0 : memory - data; cond_sub memory = memory >= data ?
# memory - data : memory; mskor memory = (memory & ~data0) | data1; a _rtn form returns the
# value before.  A lane EXEC leaves out changes neither memory nor its VGPR.  Random values,
# with memory equal to data in a lane; deterministic and shuffled schedules.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
assemble_fixture "$MIRAGE_SRC/tests/raise/ds_rmw.s" ds_rmw

python3 -c '
import random, struct
rnd = random.Random(2727)
w = [rnd.getrandbits(32) for _ in range(512)]
g = [rnd.getrandbits(32) for _ in range(64)]
# lane 0: memory equal to the subtrahend (v21 is word 11) for sub_clamp and cond_sub, and in g
for k in (2, 3, 4, 5):
    w[k] = w[11]
g[0] = g[1] = w[11]
# lane 1: small memory words, so that both branches are taken whatever the data
for k in (2, 3, 4, 5):
    w[16 + k] = k
open("in.bin", "wb").write(struct.pack("<512I", *w))
open("g.bin", "wb").write(struct.pack("<64I", *g))' || fail "the inputs"
cat >launch.json <<'JSON'
{"code_object": "ds_rmw.co", "kernel": "ds_rmw", "grid": [32], "workgroup": [32],
 "buffers": {"in": {"size": 2048, "init": "file:in.bin"},
             "out": {"size": 4096, "init": "zero", "output": "out.bin"},
             "g": {"size": 256, "init": "file:g.bin", "output": "g_out.bin"}},
 "args": [{"buffer": "in"}, {"buffer": "out"}, {"buffer": "g"}]}
JSON

judge() {
	python3 - <<'PY'
import struct, sys
w = struct.unpack("<512I", open("in.bin", "rb").read())
g = list(struct.unpack("<64I", open("g.bin", "rb").read()))
out = open("out.bin", "rb").read()
g_out = struct.unpack("<64I", open("g_out.bin", "rb").read())
M32, M64 = 0xffffffff, 0xffffffffffffffff
rsub = lambda m, d, mask: (d - m) & mask
sub_clamp = lambda m, d: 0 if m < d else m - d
cond_sub = lambda m, d: m - d if m >= d else m
mskor = lambda m, k, d: (m & ~k) | d
bad = []
for t in range(32):
    m = list(w[16 * t:16 * t + 16])
    v = m[:]  # v[10:25] = words 0..15
    v20, v21, v22, v23 = v[10], v[11], v[12], v[13]
    q = lambda i: m[i] | m[i + 1] << 32
    d64 = v[14] | v[15] << 32
    mask64, or64 = v20 | v21 << 32, v22 | v23 << 32
    ret = {}
    m[0] = rsub(m[0], v20, M32)
    ret[30], m[1] = m[1], rsub(m[1], v20, M32)
    m[2] = sub_clamp(m[2], v21)
    ret[31], m[3] = m[3], sub_clamp(m[3], v21)
    m[4] = cond_sub(m[4], v21)
    ret[32], m[5] = m[5], cond_sub(m[5], v21)
    m[6] = mskor(m[6], v22, v23)
    ret[33], m[7] = m[7], mskor(m[7], v22, v23)
    x = rsub(q(8), d64, M64); m[8], m[9] = x & M32, x >> 32
    r64, x = q(10), rsub(q(10), d64, M64); m[10], m[11] = x & M32, x >> 32
    ret[34], ret[35] = r64 & M32, r64 >> 32
    x = mskor(q(12), mask64, or64); m[12], m[13] = x & M32, x >> 32
    r64, x = q(14), mskor(q(14), mask64, or64); m[14], m[15] = x & M32, x >> 32
    ret[36], ret[37] = r64 & M32, r64 >> 32
    if t < 24:  # lanes 0 to 23 only: word 1 again
        ret[38], m[1] = m[1], rsub(m[1], v20, M32)
    else:
        ret[38] = v20
    ret[56], ret[57] = g[2 * t], g[2 * t + 1]
    gw = [cond_sub(g[2 * t], v21), sub_clamp(g[2 * t + 1], v21)]
    want = m + [ret[k] for k in range(30, 39)] + [ret[56], ret[57]]
    got = struct.unpack_from("<27I", out, 128 * t)
    names = ["LDS word %d" % k for k in range(16)] + ["v%d" % k for k in range(30, 39)] + ["v56", "v57"]
    for k in range(27):
        if got[k] != want[k]:
            bad.append("lane %d %s: 0x%08x, want 0x%08x" % (t, names[k], got[k], want[k]))
    for k in range(2):
        if g_out[2 * t + k] != gw[k]:
            bad.append("lane %d g[%d]: 0x%08x, want 0x%08x" % (t, 2 * t + k, g_out[2 * t + k], gw[k]))
if bad:
    sys.exit("%d differ, first: %s" % (len(bad), "; ".join(bad[:4])))
PY
}

translate_fixture ds_rmw
for co in ds_rmw.co ds_rmw.gfx942.co ds_rmw.gfx950.co; do
	sed "s/\"ds_rmw.co\"/\"$co\"/" launch.json >l.json
	for schedule in deterministic shuffle:7; do
		rm -f out.bin g_out.bin
		run_capture "$MIRAGE_BIN" emulate l.json --schedule "$schedule"
		assert_eq "$RUN_STATUS" 0 "$co, $schedule: mirage emulate runs it ($(head -c 300 "$RUN_STDERR_FILE"))"
		judge || fail "$co, $schedule: a result differs from the rule"
		ok "$co, $schedule: every read-modify-write is the ISA's"
	done
done
done_testing
