#!/usr/bin/env bash
# A kernel with calls is raised with the helper functions it reaches and no others
# (translate/raise/raise_reach.c): the instructions `mirage --json raise` counts for each kernel
# are those of an object that holds it and its callees alone, and those llvm-objdump-22 shows
# in the functions it calls.  tests/raise/reach.cl at -O0 (callees through s_get_pc_i64 plus a
# constant, kept in VGPR lanes across calls) runs on gfx1250 and through the gfx942 translation
# against the values its source computes.  Its calls are raised inline
# (translate/raise/raise_inline.c): each call its own copy of its callee, each copy's return
# back to that call's site alone.  tests/raise/reach.s has a call by label, one through a loaded
# address, which no scan can follow, so that kernel is raised with every function of the object
# and its bodies shared; a recursive function, whose bodies are shared and whose returns switch
# over its own call sites; and a return to a site not its call's, which faults once inlined.
# A doubling call tree is inlined up to the limit, and shared past it.
# shellcheck source=lib.sh
source "$TEST_LIB"

[ -x "${LLVM_MC:-}" ] || skip_all "llvm-mc-22 is not installed"
CLANG=${CLANG:-clang-22}
command -v "$CLANG" >/dev/null || skip_all "clang-22 is not installed"
cd "$TEST_TMP" || exit 1
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"

# count OBJECT KERNEL FUNCTION...: KERNEL's instructions as `mirage raise` counts them, then the
# instructions of the FUNCTIONs as llvm-objdump-22 disassembles them, each up to its one
# s_set_pc_i64 or s_endpgm (the fixture's functions have one).
count() {
	local co=$1 kernel=$2
	shift 2
	"$MIRAGE_BIN" --json raise "$co" >raise.json || fail "mirage raise $co"
	python3 - "$kernel" <<'PY'
import json, sys
doc = json.load(open("raise.json"))
print(next(k["instructions"] for k in doc["kernels"] if k["kernel"] == sys.argv[1]))
PY
	"$LLVM_OBJDUMP" -d "$co" | python3 -c '
import re, sys
want, n, inside = set(sys.argv[1:]), 0, False
for line in sys.stdin:
    m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
    if m:
        inside = m.group(1) in want
    elif inside and re.search(r"// [0-9A-F]+:", line):
        n += 1
        # the padding after the last instruction is no part of the function
        inside = not re.match(r"\s*(s_set_pc_i64|s_endpgm)\b", line)
print(n)' "$@"
}

for only in "" -DONLY_KA; do
	"$CLANG" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib -O0 $only -c \
		"$MIRAGE_SRC/tests/raise/reach.cl" -o "reach$only.o" || fail "clang-22 builds reach.cl $only"
	"$LD_LLD" -shared "reach$only.o" -o "reach$only.co" || fail "ld.lld links reach$only.co"
done
# ka as raised from the object of both kernels, and from the object that holds ka and fa alone
# (where every function is reached): the same instructions.
read -r both _ < <(count reach.co ka | tr '\n' ' ')
read -r alone _ < <(count reach-DONLY_KA.co ka | tr '\n' ' ')
assert_eq "$both" "$alone" "ka is raised with the functions it reaches, not kb's"
assert_ne "$both" "" "mirage raise counts ka's instructions"
# Each call raises its own copy of its callee, whose return goes back to that call's site
# alone: in kb's raised IR, fb has two copies, one returning to each of its calls in fb2; fb2
# one, to its call in __clang_ocl_kern_imp_kb; that one one, to its call in kb.  A return is
# the switch whose fault names an s_set_pc_i64.
run_capture "$MIRAGE_BIN" raise reach.co --kernel kb -o kb.ll
assert_eq "$RUN_STATUS" 0 "mirage raise kb ($(head -c 300 "$RUN_STDERR_FILE"))"
"$LLVM_READELF" -sW reach.co >syms.txt || fail "llvm-readelf-22 -s reach.co"
"$LLVM_OBJDUMP" -d reach.co >dis.txt || fail "llvm-objdump-22 -d reach.co"
# return_sites KERNEL.ll: the cases of each return switch, by the function that returns.
cat >sites.py <<'PY'
import re, sys
funcs = {}
for line in open("syms.txt"):
    f = line.split()
    if len(f) >= 8 and f[3] == "FUNC":
        funcs[f[7]] = (int(f[1], 16), int(f[2]))
def owner(a):
    return next((n for n, (s, z) in funcs.items() if s <= a < s + z), None)
setpc = {int(m.group(1), 16) for m in re.finditer(r"s_set_pc_i64.*// ([0-9A-F]+):", open("dis.txt").read())}
ll = open(sys.argv[1]).read()
fault = {m.group(1): int(m.group(2)) for m in re.finditer(r"\n(bad_pc\d*):.*\n\s*call void @mx.fault\(i32 \d+, i32 (\d+)\)", ll)}
got = {}
for m in re.finditer(r"switch i64 %[\w.]+, label %(bad_pc\d*) \[(.*?)\]", ll, re.S):
    at = fault[m.group(1)]
    if at in setpc:
        got.setdefault(owner(at), []).append(sorted(int(c) for c in re.findall(r"i64 (\d+), label", m.group(2))))
PY
run_capture python3 - <<'PY'
exec(open("sites.py").read().replace("sys.argv[1]", "'kb.ll'"))
print("return sites by function: %s" % {f: [[owner(a) for a in c] for c in cs] for f, cs in got.items()})
by_owner = {f: sorted(owner(c[0]) for c in cs) for f, cs in got.items()}
assert all(len(c) == 1 for cs in got.values() for c in cs), "a return with more than one site"
assert by_owner == {"fb": ["fb2", "fb2"], "fb2": ["__clang_ocl_kern_imp_kb"],
                    "__clang_ocl_kern_imp_kb": ["kb"]}, by_owner
fb_sites = sorted(c[0] for c in got["fb"])
assert fb_sites[0] != fb_sites[1], "both copies of fb return to the same site %s" % fb_sites
PY
echo "$RUN_STDOUT" | sed 's/^/# /'
assert_eq "$RUN_STATUS" 0 "each copy of kb's functions returns to its own call's site ($(tail -c 300 "$RUN_STDERR_FILE"))"

translate_fixture reach gfx942
for co in reach.co reach.gfx942.co; do
	for k in ka kb; do
		cat >l.json <<JSON
{"code_object": "$co", "kernel": "$k", "grid": [32], "workgroup": [32],
 "buffers": {"out": {"size": 128, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "out"}]}
JSON
		run_capture "$MIRAGE_BIN" emulate l.json --schedule shuffle:3
		assert_eq "$RUN_STATUS" 0 "$co $k: mirage emulate runs it ($(head -c 300 "$RUN_STDERR_FILE"))"
		python3 - "$k" <<'PY' || fail "$co $k: a value differs from the source's"
import struct, sys
got = struct.unpack("<32i", open("out.bin", "rb").read())
fb = lambda x: (x ^ 5) - 2
want = [3 * i + 1 if sys.argv[1] == "ka" else fb(i) + fb(i + 1) for i in range(32)]
if list(got) != want:
    sys.exit("got %s, want %s" % (got[:4], want[:4]))
PY
		ok "$co $k: every lane's value is the source's"
	done
done

assemble_fixture "$MIRAGE_SRC/tests/raise/reach.s" reach_asm
read -r got want < <(count reach_asm.co k_label k_label f_one | tr '\n' ' ')
assert_eq "$got" "$want" "a call by label: k_label is raised with f_one only"
read -r got want < <(count reach_asm.co k_loaded k_loaded f_one f_two f_down f_detour | tr '\n' ' ')
assert_eq "$got" "$want" "a call through a loaded address: k_loaded is raised with every function"
# A jump through a loaded address may enter a function (a tail call, which returns to its
# jumper's callers): each return of k_jump's functions keeps both of its call sites.
run_capture "$MIRAGE_BIN" raise reach_asm.co --kernel k_jump -o k_jump.ll
assert_eq "$RUN_STATUS" 0 "mirage raise k_jump ($(head -c 300 "$RUN_STDERR_FILE"))"
"$LLVM_READELF" -sW reach_asm.co >syms.txt || fail "llvm-readelf-22 -s reach_asm.co"
"$LLVM_OBJDUMP" -d reach_asm.co >dis.txt || fail "llvm-objdump-22 -d reach_asm.co"
run_capture python3 - <<'PY'
import re
funcs = {}
for line in open("syms.txt"):
    f = line.split()
    if len(f) >= 8 and f[3] == "FUNC":
        funcs[f[7]] = (int(f[1], 16), int(f[2]))
start, size = funcs["k_jump"]
calls = [a + 4 for a in (int(m.group(1), 16) for m in re.finditer(r"s_call_i64.*// ([0-9A-F]+):", open("dis.txt").read()))
         if start <= a < start + size]
entries = {a for a, _ in funcs.values()}
ll = open("k_jump.ll").read()
for m in re.finditer(r"switch i64 %\w+, label %bad_pc\d* \[(.*?)\]", ll, re.S):
    cases = {int(c) for c in re.findall(r"i64 (\d+), label", m.group(1))}
    if cases - entries:  # a return: it has return sites
        assert len(calls) == 2 and set(calls) <= cases, "a return with %s, want both sites %s" % (sorted(cases), calls)
print("every return keeps the sites %s" % calls)
PY
echo "$RUN_STDOUT" | sed 's/^/# /'
assert_eq "$RUN_STATUS" 0 "after a jump the scan cannot follow, every return keeps every site ($(tail -c 300 "$RUN_STDERR_FILE"))"

# A recursive function is not inlined: k_rec is raised with f_down once, and f_down's return
# switches over its two call sites (k_rec's and its own), no function's entry.
read -r got want < <(count reach_asm.co k_rec k_rec f_down | tr '\n' ' ')
assert_eq "$got" "$want" "a recursive call: k_rec is raised with one body of f_down"
run_capture "$MIRAGE_BIN" raise reach_asm.co --kernel k_rec -o k_rec.ll
assert_eq "$RUN_STATUS" 0 "mirage raise k_rec ($(head -c 300 "$RUN_STDERR_FILE"))"
run_capture python3 - <<'PY'
exec(open("sites.py").read().replace("sys.argv[1]", "'k_rec.ll'"))
want = sorted(a + 4 for a in (int(m.group(1), 16) for m in re.finditer(r"s_call_i64.*// ([0-9A-F]+):", open("dis.txt").read()))
              if owner(a) in ("k_rec", "f_down"))
print("f_down's returns: %s, its call sites %s" % (got.get("f_down"), want))
assert len(want) == 2 and got == {"f_down": [want]}, got
PY
echo "$RUN_STDOUT" | sed 's/^/# /'
assert_eq "$RUN_STATUS" 0 "f_down's return switches over its own two call sites ($(tail -c 300 "$RUN_STDERR_FILE"))"
translate_fixture reach_asm gfx942
# launch CO KERNEL: KERNEL of CO on one wave of 32, its result in out.bin
launch() {
	cat >l.json <<JSON
{"code_object": "$1", "kernel": "$2", "grid": [32], "workgroup": [32],
 "buffers": {"out": {"size": 128, "init": "zero", "output": "out.bin"}},
 "args": [{"buffer": "out"}, {"buffer": "out"}]}
JSON
	rm -f out.bin
	run_capture "$MIRAGE_BIN" emulate l.json
}
for co in reach_asm.co reach_asm.gfx942.co; do
	launch "$co" k_rec
	assert_eq "$RUN_STATUS" 0 "$co k_rec runs ($(head -c 300 "$RUN_STDERR_FILE"))"
	assert_eq "$(od -An -tu4 -N4 out.bin | tr -d ' ')" 4 "$co k_rec: four levels of f_down add 4"
done
# Inlined, f_detour's return (to the site of the second call, from the first) is not its
# call's site: the run stops there, naming the s_set_pc_i64, and writes nothing.
setpc=$("$LLVM_OBJDUMP" -d reach_asm.co | python3 -c '
import re, sys
d = sys.stdin.read()
print("%x" % int(re.search(r"<f_detour>:\n(?:.*\n)*?.*s_set_pc_i64.*// ([0-9A-F]+):", d).group(1), 16))')
launch reach_asm.co k_detour
assert_eq "$RUN_STATUS" 1 "k_detour: a return to another call's site stops the run"
assert_contains "$RUN_STDERR" "kernel k_detour: instruction at 0x$setpc: an indirect branch to an address the raised code does not know (a function's entry; for a return, the site of its call)" "the fault names f_detour's s_set_pc_i64"
assert_eq "$(od -An -tu4 -N4 out.bin 2>/dev/null | tr -d ' ')" "" "k_detour writes no output"

# Calls are inlined up to 150,000 raised instructions in all (raise.c's INLINE_LIMIT): a call
# tree that doubles at each of D levels (f0 calls f1 twice, ..., f(D-1) calls fD twice) has
# 2^D copies of fD.  At D = 3 every copy is raised (each function's instructions times its
# copies); at D = 17 the copies would pass the limit, and each function is raised once,
# shared.  Both add 2^D.  fN keeps s[30:31] in lane N of v2 and v3 across its calls.
# fan D: fan_D.s, kernel k_fan
fan() {
	local d=$1 n
	{
		echo '	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"'
		echo '	.text'
		echo "function f$d"
		echo ".Lf$d:"
		echo "	v_add_nc_u32 v1, 1, v1"
		echo "	s_set_pc_i64 s[30:31]"
		for ((n = 0; n < d; n++)); do
			echo "function f$n"
			echo ".Lf$n:"
			echo "	v_writelane_b32 v2, s30, $n"
			echo "	v_writelane_b32 v3, s31, $n"
			echo "	s_call_i64 s[30:31], .Lf$((n + 1))"
			echo "	s_call_i64 s[30:31], .Lf$((n + 1))"
			echo "	v_readlane_b32 s30, v2, $n"
			echo "	v_readlane_b32 s31, v3, $n"
			echo "	s_set_pc_i64 s[30:31]"
		done
		echo "kernel k_fan vgprs=8 sgprs=40 args=2"
		echo "	s_load_b64 s[4:5], s[0:1], 0x0"
		echo "	v_mov_b32 v1, 0"
		echo "	s_call_i64 s[30:31], .Lf0"
		echo "	v_mov_b32 v0, 0"
		echo "	s_wait_kmcnt 0"
		echo "	global_store_b32 v0, v1, s[4:5]"
		echo "	s_endpgm"
	} >"fan_$d.src"
	assemble_fixture "fan_$d.src" "fan_$d"
}
for d in 3 17; do
	fan "$d"
	"$MIRAGE_BIN" --json raise "fan_$d.co" >raise.json || fail "mirage raise fan_$d.co"
	got=$(python3 -c 'import json; print(json.load(open("raise.json"))["kernels"][0]["instructions"])')
	# each function of the object once (the kernel's 7 instructions, fD's 2, 7 per fN), and
	# each times its copies (2^N of fN)
	shared=$((7 + 2 + 7 * d)) inlined=$((7 + 2 * (1 << d) + 7 * ((1 << d) - 1)))
	if [ "$d" = 3 ]; then
		assert_eq "$got" "$inlined" "a tree of 2^$d calls is raised inline, a copy per call"
	else
		assert_eq "$got" "$shared" "a tree of 2^$d calls would pass the limit: each function is raised once"
	fi
	launch "fan_$d.co" k_fan
	assert_eq "$RUN_STATUS" 0 "fan_$d runs ($(head -c 300 "$RUN_STDERR_FILE"))"
	assert_eq "$(od -An -tu4 -N4 out.bin | tr -d ' ')" "$((1 << d))" "fan_$d: 2^$d calls of f$d add $((1 << d))"
done
done_testing
