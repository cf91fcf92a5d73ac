#!/usr/bin/env bash
# shellcheck disable=SC2154 # hashcat_opts: set by hashcat_options.sh
# tests/kernels/corpus/run.sh, the README's run-correctness figures: hashcat's options for a
# source with and without an attack; one hashcat source built by corpus.sh, two of its kernels
# through mirage emulate and POCL (correct, and the summary's format); two helper kernels of
# shared.cl whose outputs change (the global offset prelude.h reads); the same run with a
# mirage that corrupts an output byte (counted as a mismatch naming the buffer and offset) and
# one that faults (counted as an emulate fault with its reason); resuming, and the errors (no
# objects, a bad flag) with message and exit code.
# shellcheck source=/dev/null
. "$TEST_LIB"

CORPUS=$MIRAGE_SRC/tests/kernels/corpus
RUN=$CORPUS/run.sh
TOOLS=$KERNELS_BIN
SOURCE=m00000_a3-optimized
KERNELS='m00000_[ms]04'

run_capture bash "$RUN" --frobnicate
assert_eq "$RUN_STATUS" 2 "a bad flag: exit 2"
assert_contains "$RUN_STDERR" "usage: run.sh" "a bad flag: the usage"
run_capture bash "$RUN" --grid many
assert_eq "$RUN_STATUS" 2 "a bad number: exit 2"
assert_contains "$RUN_STDERR" "run.sh: --limit, --grid, --timeout and --jobs take a number" \
	"a bad number: named"

# One option list for both builds; a slow hash's source (no _aN) is hash mode N, attack 0.
# shellcheck source=/dev/null
. "$CORPUS/hashcat_options.sh"
hashcat_options /h/m00400-pure.cl /h
assert_contains "${hashcat_opts[*]}" "-D KERN_TYPE=400 -D ATTACK_EXEC=11 -D ATTACK_KERN=0" \
	"options: a source without an attack"
hashcat_options /h/m01500_a3-pure.cl /h
assert_contains "${hashcat_opts[*]}" "-D KERN_TYPE=1500 -D ATTACK_EXEC=11 -D ATTACK_KERN=3" \
	"options: a source with an attack"
assert_contains "${hashcat_opts[*]}" "-I /h -D INCLUDE_PATH=/h" "options: the include path"

mkdir -p "$TEST_TMP/empty/objects"
run_capture bash "$RUN" --corpus "$TEST_TMP/empty" --mirage "$MIRAGE_BIN" --tools "$TOOLS"
assert_eq "$RUN_STATUS" 1 "no objects: exit 1"
assert_contains "$RUN_STDERR" "run.sh: no code objects matching '*' in '$TEST_TMP/empty/objects'" \
	"no objects: named"
assert_contains "$RUN_STDERR" "hint: build some first" "no objects: the fix"

# The first raiser bug the corpus run found: v_bfe_u32 kept the bits above its field.
cat >"$TEST_TMP/bitfield.json" <<'EOF'
{"code_object": "bitfield.co", "kernel": "bitfield", "grid": [128], "workgroup": [64],
 "buffers": {"out": {"size": 1024, "init": "zero", "output": "bitfield.bin"}},
 "args": [{"buffer": "out"}]}
EOF
if ! "${CLANG:-clang-22}" -x cl -cl-std=CL1.2 -cl-no-stdinc -include \
	"$KERNELS_SRC/prelude/amdgcn.h" -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib -O2 \
	-c "$CORPUS/regress/bitfield.cl" -o "$TEST_TMP/bitfield.o" ||
	! "${LD_LLD:-ld.lld-22}" -shared "$TEST_TMP/bitfield.o" -o "$TEST_TMP/bitfield.co"; then
	fail "bitfield.cl builds"
fi
run_capture "$MIRAGE_BIN" emulate "$TEST_TMP/bitfield.json"
assert_eq "$RUN_STATUS" 0 "bitfield: mirage emulate runs it"
want=$(python3 -c 'print(" ".join(str((g >> 2) & 3) for g in range(128)),
	" ".join(str(((g & 3 << 2) >> 2) - ((g & 8) >> 1)) for g in range(128)))')
got=$(python3 -c 'import struct, sys; v = struct.unpack("<256i", open(sys.argv[1], "rb").read())
print(" ".join(map(str, v[:128])), " ".join(map(str, v[128:])))' "$TEST_TMP/bitfield.bin")
assert_eq "$got" "$want" "bitfield: v_bfe_u32 and v_bfe_i32 extract only their field"

if [ ! -d /usr/share/hashcat/OpenCL ] || [ ! -f /usr/lib/clc/amdgcn-amd-amdhsa.bc ]; then
	skip_all "hashcat-data or libclc-22 is not installed (corpus.sh installs them as root)"
fi
[ -x "$TOOLS/pocl_ref" ] || skip_all "pocl_ref is not built (no OpenCL headers/library)"

run_capture bash "$CORPUS/corpus.sh" --out "$TEST_TMP/corpus" --filter "$SOURCE.cl"
[ "$RUN_STATUS" -eq 0 ] || fail "corpus.sh builds $SOURCE"
ok "corpus.sh builds $SOURCE"

run_capture bash "$RUN" --corpus "$TEST_TMP/corpus" --kernels "$KERNELS" --mirage "$MIRAGE_BIN" \
	--tools "$TOOLS"
assert_eq "$RUN_STATUS" 0 "a run: exit 0"
assert_contains "$RUN_STDOUT" "run: 1 objects, 2 kernels, 2 raised (100.0%)" "a run: share raised"
assert_contains "$RUN_STDOUT" \
	"run: 2 judged against POCL (2 raised, 0 POCL could not run, 0 no launch)" "a run: judged"
assert_contains "$RUN_STDOUT" "run: 2 run correct (100.0% of judged), " "a run: share correct"
assert_eq "$(cat "$TEST_TMP/corpus/run/summary.txt")" "$(cat "$RUN_STDOUT_FILE")" \
	"a run: summary.txt is the summary"
rows=$(awk -F'\t' 'NR > 1 { print $1, $2, $3 }' "$TEST_TMP/corpus/run/results.tsv")
assert_eq "$rows" "m00000_m04 $SOURCE correct
m00000_s04 $SOURCE correct" "a run: one row per kernel in results.tsv"

run_capture bash "$RUN" --corpus "$TEST_TMP/corpus" --kernels "$KERNELS" --mirage "$MIRAGE_BIN" \
	--tools "$TOOLS"
assert_contains "$RUN_STDERR" "2 kernels already run, 0 raised ones to run" "a rerun resumes"
assert_contains "$RUN_STDOUT" "run: 2 run correct" "a rerun: the same figures"

# hashcat's helper kernels write what they compute: gpu_memset and gpu_atinit's outputs
# change, and agree with POCL only when get_global_id reads the code-object-v5 global offset
# (prelude.h; libclc's reads hidden_block_count_y there, every id one too high).
run_capture bash "$CORPUS/corpus.sh" --out "$TEST_TMP/corpus" --filter shared.cl
[ "$RUN_STATUS" -eq 0 ] || fail "corpus.sh builds shared"
ok "corpus.sh builds shared"
run_capture bash "$RUN" --corpus "$TEST_TMP/corpus" --out "$TEST_TMP/shared" --filter shared \
	--kernels 'gpu_[ma][et]*' --mirage "$MIRAGE_BIN" --tools "$TOOLS"
assert_contains "$RUN_STDOUT" \
	"run: 2 run correct (100.0% of judged), 2 of them with an output changed from its input" \
	"helper kernels: correct, and their outputs changed"

# A mirage whose emulate corrupts one byte of m04's pws output and faults on s04.
cat >"$TEST_TMP/mirage" <<EOF
#!/usr/bin/env bash
[ "\$1" = emulate ] || exec "$MIRAGE_BIN" "\$@"
case \$(cat "\$2") in
*'"m00000_s04"'*) echo "mirage: error: kernel 'm00000_s04': fault at 0x1234" >&2; exit 1 ;;
esac
"$MIRAGE_BIN" "\$@" || exit
printf '\x5a' | dd of="\$(dirname "\$2")/emulate/pws.bin" bs=1 seek=7 conv=notrunc 2>/dev/null
EOF
chmod +x "$TEST_TMP/mirage"
run_capture bash "$RUN" --corpus "$TEST_TMP/corpus" --out "$TEST_TMP/bad" --kernels "$KERNELS" \
	--mirage "$TEST_TMP/mirage" --tools "$TOOLS"
assert_eq "$RUN_STATUS" 0 "a wrong result: exit 0 (counted, not an error)"
assert_contains "$RUN_STDOUT" "run: 0 run correct (0.0% of judged)" "a wrong result: not correct"
assert_contains "$RUN_STDOUT" "run: 1 mismatch: buffers.pws" "a wrong result: a mismatch by buffer"
assert_contains "$RUN_STDOUT" "run: 1 emulate-fault: fault at 0x_" \
	"a fault: counted by its reason (not by kernel or address)"
assert_contains "$(cat "$TEST_TMP/bad/results.tsv")" "kernel 'm00000_s04': fault at 0x1234" \
	"a fault: its row keeps the whole message"
row=$(awk -F'\t' '$1 == "m00000_m04" { print $3 ": " $4 }' "$TEST_TMP/bad/results.tsv")
assert_contains "$row" "mismatch: buffers.pws[7] (u8): " "a wrong result: the first difference"
[ -f "$TEST_TMP/bad/work/$SOURCE.m00000_m04/emulate/pws.bin" ] ||
	fail "a mismatch keeps both outputs"
ok "a mismatch keeps both outputs"
done_testing
