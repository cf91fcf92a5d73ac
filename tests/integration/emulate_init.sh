# `mirage emulate --init CODE_OBJECT [--kernel K] [-o FILE]` writes a launch file from the
# kernel's metadata by docs/emulate.md's rule, and `mirage emulate` runs it as written and
# once edited.  The results are held to Python's float32 arithmetic on the recorded buffers.
# Bad uses are refused with the reason and exit code.
source "$TEST_LIB"

EX=$MIRAGE_BUILD/examples/vector_add.co
[ -f "$EX" ] || fail "missing build output '$EX'"
cd "$TEST_TMP" || fail "cd"

# ---- an object with two kernels needs --kernel ----
run_capture "$MIRAGE_BIN" emulate --init "$EX"
assert_eq "$RUN_STATUS" 1 "two kernels, no --kernel: exit 1"
assert_contains "$RUN_STDERR" "mirage: '$EX' has 2 kernels: vector_add, saxpy" "two kernels: named"
assert_contains "$RUN_STDERR" "hint: say which with --kernel" "two kernels: the hint"
run_capture "$MIRAGE_BIN" emulate --init "$EX" --kernel nosuch
assert_eq "$RUN_STATUS" 1 "--kernel nosuch: exit 1"
assert_contains "$RUN_STDERR" "has no kernel 'nosuch'; its kernels: vector_add, saxpy" "--kernel nosuch: the kernels listed"

# ---- vector_add: the file, by the rule ----
run_capture "$MIRAGE_BIN" emulate --init "$EX" --kernel vector_add
assert_eq "$RUN_STATUS" 0 "--init vector_add: exit 0 ($RUN_STDERR)"
assert_contains "$RUN_STDOUT" "wrote vector_add.launch.json: kernel vector_add, grid 1024 x 1 x 1, workgroup 256 x 1 x 1" \
	"--init: says what it wrote"
assert_contains "$RUN_STDOUT" "then: mirage emulate vector_add.launch.json" "--init: says what to run"
python3 - "$TEST_TMP/vector_add.launch.json" "$EX" <<'EOF' || fail "the launch file does not follow the rule"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["code_object"] == sys.argv[2], d["code_object"]
assert d["kernel"] == "vector_add"
assert d["workgroup"] == [256, 1, 1] and d["grid"] == [1024, 1, 1], (d["grid"], d["workgroup"])
b = d["buffers"]
assert b["arg0"] == {"size": 4096, "init": "random:1"}, b["arg0"]
assert b["arg1"] == {"size": 4096, "init": "random:2"}, b["arg1"]
assert b["arg2"] == {"size": 4096, "init": "zero", "output": "vector_add.launch.arg2.bin"}, b["arg2"]
assert d["args"] == [{"buffer": "arg0"}, {"buffer": "arg1"}, {"buffer": "arg2"}, {"u32": 1024}], d["args"]
assert d["dynamic_lds"] == 0
EOF
ok "--init vector_add: 4 workgroups of the required 256, const float* inputs, the float* output, n = 1024"

# ---- it runs as written, and says what it wrote ----
run_capture "$MIRAGE_BIN" emulate vector_add.launch.json
assert_eq "$RUN_STATUS" 0 "emulate of the new launch file: exit 0 ($RUN_STDERR)"
assert_contains "$RUN_STDERR" "mirage: wrote vector_add.launch.arg2.bin" "emulate: says what it wrote"
assert_eq "$(stat -c %s vector_add.launch.arg2.bin)" 4096 "emulate: the output has the buffer's size"
# Edited as a user would: the inputs written out too, so the sum can be checked.
python3 - vector_add.launch.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["buffers"]["arg0"]["output"] = "a.bin"
d["buffers"]["arg1"]["output"] = "b.bin"
json.dump(d, open(sys.argv[1], "w"))
EOF
run_capture "$MIRAGE_BIN" emulate vector_add.launch.json
assert_eq "$RUN_STATUS" 0 "emulate of the edited file: exit 0"
python3 - <<'EOF' || fail "vector_add's output is not a + b"
import struct
f32 = lambda x: struct.unpack("<f", struct.pack("<f", x))[0]
a, b, c = (struct.unpack("<1024f", open(n, "rb").read()) for n in ("a.bin", "b.bin", "vector_add.launch.arg2.bin"))
assert a != b, "the two inputs are the same"
# Random bits hold NaNs: a NaN sum is any NaN (its payload is the hardware's choice).
for i in range(1024):
    want = f32(a[i] + b[i])
    assert c[i] == want or (want != want and c[i] != c[i]), (i, a[i], b[i], c[i])
EOF
ok "the edited launch gives c = a + b (Python's float32 sums)"

# ---- saxpy into another directory: a scalar float, outputs beside the file ----
mkdir -p sub
run_capture "$MIRAGE_BIN" emulate --init "$EX" --kernel saxpy -o sub/s.json
assert_eq "$RUN_STATUS" 0 "--init saxpy -o sub/s.json: exit 0"
assert_contains "$RUN_STDOUT" "arg0   f32 1.0 (float)" "saxpy: the float scalar is 1.0"
run_capture "$MIRAGE_BIN" emulate sub/s.json
assert_eq "$RUN_STATUS" 0 "emulate sub/s.json: exit 0 ($RUN_STDERR)"
[ -f sub/s.arg2.bin ] || fail "saxpy's output is not beside its launch file"
python3 - <<'EOF' || fail "saxpy with a = 1 and y = 0 does not give y = x"
import json, struct
d = json.load(open("sub/s.json"))
assert d["buffers"]["arg1"]["init"] == "random:2"
d["buffers"]["arg1"]["output"] = "x.bin"
json.dump(d, open("sub/s.json", "w"))
EOF
run_capture "$MIRAGE_BIN" emulate sub/s.json
python3 - <<'EOF' || fail "saxpy with a = 1 and y = 0 does not give y = x"
import struct
x, y = (struct.unpack("<1024f", open(n, "rb").read()) for n in ("sub/x.bin", "sub/s.arg2.bin"))
assert all(x[i] == y[i] or (x[i] != x[i] and y[i] != y[i]) for i in range(1024))
EOF
ok "saxpy's launch file gives y = 1 * x + 0"

# ---- --json: the file and what is in it ----
run_capture "$MIRAGE_BIN" --json emulate --init "$EX" --kernel saxpy -o j.json
assert_eq "$RUN_STATUS" 0 "--json --init: exit 0"
assert_eq "$(printf '%s' "$RUN_STDOUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["wrote"], d["launch"]["kernel"], d["launch"]["args"][3])')" \
	"j.json saxpy {'u32': 1024}" "--json --init: the path and the launch"

# ---- refusals ----
run_capture "$MIRAGE_BIN" emulate --init "$EX" --kernel vector_add
assert_eq "$RUN_STATUS" 1 "an existing file: exit 1"
assert_contains "$RUN_STDERR" "'vector_add.launch.json' exists; a launch file is never overwritten" "an existing file: said"
assert_contains "$RUN_STDERR" "hint: remove it, or name another file with -o" "an existing file: the hint"
run_capture "$MIRAGE_BIN" emulate --init /etc/passwd
assert_eq "$RUN_STATUS" 1 "not a code object: exit 1"
assert_contains "$RUN_STDERR" "'/etc/passwd' is not a code object mirage can read" "not a code object: said"
run_capture "$MIRAGE_BIN" emulate --init "$TEST_TMP/nosuch.co"
assert_eq "$RUN_STATUS" 1 "a missing object: exit 1"
assert_contains "$RUN_STDERR" "nosuch.co" "a missing object: named"
run_capture "$MIRAGE_BIN" emulate --init - </dev/null
assert_eq "$RUN_STATUS" 2 "--init -: exit 2"
assert_contains "$RUN_STDERR" "--init: give the code object's file" "--init -: said"
# Planted metadata: a by-value argument of a megabyte is refused, not written out.
python3 "$MIRAGE_SRC/tests/fixtures/expand.py" "$MIRAGE_SRC/tests/raise/pk16.s" |
	sed '0,/\.size: 8/s//.size: 1000000/; 0,/value_kind: global_buffer/s//value_kind: by_value/' >big.s
grep -q "size: 1000000" big.s || fail "the planted metadata was not written"
"$LLVM_MC" -triple amdgcn-amd-amdhsa -mcpu=gfx1250 -filetype=obj big.s -o big.o || fail "llvm-mc-22 big.s"
"$LD_LLD" -shared big.o -o big.co || fail "ld.lld big.co"
run_capture "$MIRAGE_BIN" emulate --init big.co
assert_eq "$RUN_STATUS" 1 "a megabyte by value: exit 1"
assert_contains "$RUN_STDERR" "argument 0 is 1000000 bytes by value, which no launch file gives" \
	"a megabyte by value: said"
[ ! -e pk16.launch.json ] || fail "a refused --init left a file"
run_capture "$MIRAGE_BIN" emulate vector_add.launch.json --kernel vector_add
assert_eq "$RUN_STATUS" 2 "--kernel without --init: exit 2"
assert_contains "$RUN_STDERR" "--kernel goes with --init CODE_OBJECT" "--kernel without --init: said"
run_capture "$MIRAGE_BIN" emulate --init "$EX" --kernel saxpy -o k.json --schedule shuffle:1
assert_eq "$RUN_STATUS" 2 "--schedule with --init: exit 2"
assert_contains "$RUN_STDERR" "--schedule goes with a launch file, not with --init" "--schedule with --init: said"
done_testing
