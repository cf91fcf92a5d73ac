#!/usr/bin/env bash
# A kernel with calls is raised with the helper functions it reaches and no others
# (translate/raise/raise_reach.c): the instructions `mirage --json raise` counts for each kernel
# are those of an object that holds it and its callees alone, and those llvm-objdump-22 shows
# in the functions it calls.  tests/raise/reach.cl at
# -O0 (callees through s_get_pc_i64 plus a constant, kept in VGPR lanes across calls) runs on
# gfx1250 and through the gfx942 translation against the values its source computes;
# tests/raise/reach.s has a call by label, and one through a loaded address, which no scan can
# follow, so that kernel is raised with every function of the object, as before.  Each return
# switches over the return sites of the calls to its own function.
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
# Each return switches over the sites of the calls to its own function: in kb's raised IR, the
# return of fb over the two calls in fb2, that of fb2 over the one in
# __clang_ocl_kern_imp_kb, that of __clang_ocl_kern_imp_kb over the one in kb (the other
# cases are function entries).  A return is the switch whose fault names an s_set_pc_i64.
run_capture "$MIRAGE_BIN" raise reach.co --kernel kb -o kb.ll
assert_eq "$RUN_STATUS" 0 "mirage raise kb ($(head -c 300 "$RUN_STDERR_FILE"))"
"$LLVM_READELF" -sW reach.co >syms.txt || fail "llvm-readelf-22 -s reach.co"
"$LLVM_OBJDUMP" -d reach.co >dis.txt || fail "llvm-objdump-22 -d reach.co"
run_capture python3 - <<'PY'
import re
funcs = {}
for line in open("syms.txt"):
    f = line.split()
    if len(f) >= 8 and f[3] == "FUNC":
        funcs[f[7]] = (int(f[1], 16), int(f[2]))
def owner(a):
    return next((n for n, (s, z) in funcs.items() if s <= a < s + z), None)
setpc = {int(m.group(1), 16) for m in re.finditer(r"s_set_pc_i64.*// ([0-9A-F]+):", open("dis.txt").read())}
ll = open("kb.ll").read()
fault = {m.group(1): int(m.group(2)) for m in re.finditer(r"\n(bad_pc\d*):.*\n\s*call void @mx.fault\(i32 \d+, i32 (\d+)\)", ll)}
entries = {s for s, _ in funcs.values()}
got = {}
for m in re.finditer(r"switch i64 %\w+, label %(bad_pc\d*) \[(.*?)\]", ll, re.S):
    at = fault[m.group(1)]
    if at not in setpc:
        continue
    sites = sorted(int(c) for c in re.findall(r"i64 (\d+), label", m.group(2)) if int(c) not in entries)
    got.setdefault(owner(at), []).append([owner(a) for a in sites])
want = {"fb": [["fb2", "fb2"]], "fb2": [["__clang_ocl_kern_imp_kb"]],
        "__clang_ocl_kern_imp_kb": [["kb"]]}
print("return sites by function: %s" % got)
assert got == want, "want %s" % want
PY
echo "$RUN_STDOUT" | sed 's/^/# /'
assert_eq "$RUN_STATUS" 0 "each return of kb's functions switches over its own callers' sites ($(tail -c 300 "$RUN_STDERR_FILE"))"

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
read -r got want < <(count reach_asm.co k_loaded k_loaded f_one f_two | tr '\n' ' ')
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
done_testing
