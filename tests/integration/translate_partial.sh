#!/usr/bin/env bash
# Partial objects (docs/translate.md, "Partial objects"): a gfx1250 object with a kernel the
# translator refuses (it reads the cycle counter, which has no semantics) and one it
# translates, built here by clang-22.  `mirage rewrite --target gfx942` writes every kernel,
# the refused one as an entry that traps, and exits 3 naming it and why; LLVM's tools read the
# object whole and find the refused kernel's launch contract kept; `mirage emulate` runs the
# translated kernel right (judged by Python's float32 arithmetic) and stops in the trap entry
# naming it.  `--all-kernels` keeps all or nothing.  Under `mirage run` the stand-in HSA
# client loads the object with the refusals said at load (from the cache too), and a profile
# with all_kernels refuses the load.  On a terminal (script(1)) a translating rewrite and an
# emulate show their progress, and nothing when piped.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

cd "$TEST_TMP" || exit 1
export HOME=$TEST_TMP/home XDG_CONFIG_HOME=$TEST_TMP/config XDG_CACHE_HOME=$TEST_TMP/xdg-cache
export MIRAGE_SYSFS_ROOT=$TEST_TMP/no-sysfs NO_COLOR=1
unset HSA_HOTSWAP_CACHE_DIR

cat >k.cl <<'EOF'
kernel void good(global float *c, global const float *a, uint n)
{
	uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		c[i] = a[i] * 2.0f + 1.0f;
}
kernel void timed(global ulong *c)
{
	c[__builtin_amdgcn_workitem_id_x()] = __builtin_readcyclecounter();
}
EOF
"$CLANG" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib -O2 -c k.cl -o k.o ||
	fail "clang-22 builds k.cl"
"$LD_LLD" -shared k.o -o k.co || fail "ld.lld-22 links k.co"

# ---- mirage rewrite: a partial object, exit 3 ----
run_capture "$MIRAGE_BIN" rewrite k.co --target gfx942 -o out.co
assert_eq "$RUN_STATUS" 3 "rewrite: exit 3, partial"
assert_contains "$RUN_STDOUT" "kernels:  2 found, 1 translated, 1 refused" "rewrite: the counts"
assert_contains "$RUN_STDOUT" "kernel 'good': translated" "rewrite: good is translated"
assert_contains "$RUN_STDOUT" "kernel 'timed' is refused at 0x" "rewrite: timed is refused, where"
assert_contains "$RUN_STDERR" "warning: 'out.co' is partial: 1 of 2 kernels are entries that trap" \
	"rewrite: the warning says what the object is"
assert_contains "$RUN_STDERR" "hint: --all-kernels refuses the whole object instead" "rewrite: the way out"
run_capture "$MIRAGE_BIN" --json rewrite k.co --target gfx942 -o j.co
assert_eq "$RUN_STATUS" 3 "rewrite --json: exit 3"
assert_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); t=d["translation"]; print(t["translated"], t["refused"], t["partial"], [(k["name"], k["translated"]) for k in d["kernel_results"]])' "$RUN_STDOUT_FILE")" \
	"1 1 True [('good', True), ('timed', False)]" "rewrite --json: partial, and each kernel's verdict"
cmp -s out.co j.co && ok "the same object both ways" || fail "the --json run wrote another object"

# LLVM's tools: decoded whole; the trap entry; both kernels' metadata, timed's contract kept.
"$LLVM_OBJDUMP" -d --mcpu=gfx942 out.co >dis.txt 2>od.err || fail "llvm-objdump-22 -d"
[ ! -s od.err ] && ! grep -q '<unknown>' dis.txt && ok "llvm-objdump-22 --mcpu=gfx942 decodes it whole" ||
	fail "llvm-objdump-22 does not decode out.co whole: $(head -3 od.err)"
assert_eq "$(grep -A1 '^[0-9a-f]* <timed>:' dis.txt | sed -n 2p | awk '{print $1, $2}')" "s_trap 2" \
	"the refused kernel's entry is s_trap 2"
grep -q '^[0-9a-f]* <good>:' dis.txt && ! grep -A400 '^[0-9a-f]* <good>:' dis.txt |
	sed '/^$/q' | grep -q s_trap && ok "the translated kernel has no trap" ||
	fail "good is missing or traps"
"$LLVM_READELF" --notes out.co >notes.txt || fail "llvm-readelf-22 --notes"
python3 - notes.txt <<'EOF' || fail "the metadata does not carry timed's launch contract"
import re, sys
text = open(sys.argv[1]).read()
kernels = re.split(r"\n  - \.", text)
timed = [k for k in kernels if re.search(r"\.name:\s+timed\n", k)]
assert timed, "no timed"
assert re.search(r"\.kernarg_segment_size:\s+8\n", timed[0]), "kernarg size"
assert re.search(r"\.value_kind:\s+global_buffer", timed[0]), "the pointer argument"
EOF
ok "llvm-readelf-22: timed keeps its .args and kernarg size"
"$LLVM_READELF" -s out.co | grep -q ' good\.kd$' && "$LLVM_READELF" -s out.co | grep -q ' timed\.kd$' &&
	ok "both descriptors are there (good.kd, timed.kd)" || fail "a descriptor is missing"

# ---- mirage emulate of the partial object on the CPU ----
python3 -c 'import struct; open("a.bin", "wb").write(struct.pack("<256f", *[i * 0.37 - 20.0 for i in range(256)]))'
cat >good.json <<'EOF'
{"code_object": "out.co", "kernel": "good", "grid": [256], "workgroup": [64],
 "buffers": {"c": {"size": 1024, "init": "zero", "output": "c.bin"},
             "a": {"size": 1024, "init": "file:a.bin"}},
 "args": [{"buffer": "c"}, {"buffer": "a"}, {"u32": 250}]}
EOF
run_capture "$MIRAGE_BIN" emulate good.json
assert_eq "$RUN_STATUS" 0 "emulate: the translated kernel of the partial object runs ($(head -c 300 "$RUN_STDERR_FILE"))"
python3 - <<'EOF' || fail "emulate: c is not a*2+1 for i < 250"
import struct
f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
a = struct.unpack("<256f", open("a.bin", "rb").read())
c = struct.unpack("<256f", open("c.bin", "rb").read())
want = tuple(f32(f32(a[i] * 2.0) + 1.0) if i < 250 else 0.0 for i in range(256))
raise SystemExit(c != want)
EOF
ok "emulate: good gives a*2+1 (Python's float32 arithmetic)"
cat >timed.json <<'EOF'
{"code_object": "out.co", "kernel": "timed", "grid": [64], "workgroup": [64],
 "buffers": {"c": {"size": 512, "init": "zero"}}, "args": [{"buffer": "c"}]}
EOF
run_capture "$MIRAGE_BIN" emulate timed.json
assert_eq "$RUN_STATUS" 1 "emulate: the trap entry stops"
assert_contains "$RUN_STDERR" "kernel timed:" "emulate: the message names the kernel"
assert_contains "$RUN_STDERR" "s_trap" "emulate: and the trap"

# ---- progress: on a terminal only (util-linux's script gives it one) ----
run_capture "$MIRAGE_BIN" rewrite k.co --target gfx942 -o piped.co
assert_not_contains "$RUN_STDERR" "translating for" "rewrite, stderr not a terminal: no progress"
if command -v script >/dev/null; then
	script -qec "'$MIRAGE_BIN' rewrite k.co --target gfx942 -o tty.co" /dev/null >tty.txt 2>&1
	assert_contains "$(cat tty.txt)" "mirage: translating for gfx942: kernel 1 of 2, 00:00:0" \
		"rewrite on a terminal: the first kernel's progress"
	assert_contains "$(cat tty.txt)" "kernel 2 of 2, 00:00:0" "rewrite on a terminal: and the last"
	cmp -s tty.co out.co && ok "rewrite on a terminal: the same object" || fail "tty.co differs"
	script -qec "'$MIRAGE_BIN' --json rewrite k.co --target gfx942 -o tty2.co" /dev/null >tty2.txt 2>&1
	assert_not_contains "$(cat tty2.txt)" "translating for" "rewrite --json on a terminal: no progress"
	script -qec "'$MIRAGE_BIN' emulate good.json" /dev/null >tty3.txt 2>&1
	assert_contains "$(cat tty3.txt)" "mirage: emulating: workgroup 4 of 4, 00:00:0" \
		"emulate on a terminal: the workgroups' progress"
else
	skip "no script(1) to give rewrite a terminal"
fi

# ---- mirage inspect --target: what would load ----
run_capture "$MIRAGE_BIN" inspect k.co --target gfx942
assert_eq "$RUN_STATUS" 0 "inspect --target: exit 0"
assert_contains "$RUN_STDOUT" "for gfx942: translates partially: 1 of 2 kernels translate (the refused ones as entries that trap)" \
	"inspect --target: the object would load partially"
run_capture "$MIRAGE_BIN" --json inspect k.co --target gfx942
grep -Eq '"verdict":[[:space:]]*"translates partially"' "$RUN_STDOUT_FILE" &&
	ok "inspect --json: the verdict" || fail "inspect --json: no partial verdict: $(head -c 300 "$RUN_STDOUT_FILE")"

# ---- --all-kernels: all or nothing ----
run_capture "$MIRAGE_BIN" rewrite k.co --target gfx942 --all-kernels -o all.co
assert_eq "$RUN_STATUS" 1 "rewrite --all-kernels: exit 1"
assert_contains "$RUN_STDERR" "cannot translate 'k.co' for gfx942: 1 of 2 kernels refused" \
	"rewrite --all-kernels: the whole object refused, and why"
[ ! -e all.co ] && ok "rewrite --all-kernels: no output" || fail "rewrite --all-kernels wrote all.co"

# ---- under mirage run: the stand-in HSA client on a gfx942 agent ----
export STANDIN_AGENT_GFX=gfx942
run_capture "$MIRAGE_BIN" profile create mi300 --target gfx942
assert_eq "$RUN_STATUS" 0 "profile mi300 created"
for pass in miss hit; do
	fresh_rec
	run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" k.co
	assert_eq "$RUN_STATUS" 0 "mirage run ($pass): the partial object loads"
	assert_contains "$RUN_STDERR" "hotswap_cache: $pass (gfx1250 -> gfx942) kernels=2" "mirage run: a cache $pass"
	assert_contains "$RUN_STDERR" ": for gfx942, kernel 'timed' is refused at 0x" \
		"mirage run ($pass): the refused kernel named at load, with why"
	assert_contains "$RUN_STDERR" "with 1 of 2 kernels refused, each an entry that traps" \
		"mirage run ($pass): what the load is"
	assert_eq "$(recorded)" 1 "mirage run ($pass): the loader received one object"
	"$LLVM_OBJDUMP" -d --mcpu=gfx942 "$REC/load-1.co" | grep -A1 '^[0-9a-f]* <timed>:' | grep -q 's_trap 2' &&
		ok "mirage run ($pass): the loaded object's timed traps" || fail "mirage run ($pass): timed does not trap"
done
run_capture "$MIRAGE_BIN" profile create whole --target gfx942 --all-kernels
assert_eq "$RUN_STATUS" 0 "profile whole (all_kernels) created"
fresh_rec
run_capture "$MIRAGE_BIN" run -p whole -- "$CLIENT" k.co
assert_eq "$RUN_STATUS" 1 "all_kernels: the load is refused (the client exits 1)"
assert_contains "$RUN_STDERR" "refusing the load (gfx1250 code cannot run on this agent)" \
	"all_kernels: refused, and why"
assert_eq "$(recorded)" 0 "all_kernels: nothing loaded"
done_testing
