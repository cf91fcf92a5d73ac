#!/usr/bin/env bash
# shellcheck disable=SC2154 # hashcat_opts: set by hashcat_options.sh
# tests/kernels/corpus/run.sh, the README's run-correctness figures: hashcat's options for a
# source with and without an attack; one hashcat source built by corpus.sh, two of its kernels
# through mirage emulate and POCL (correct, and the summary's format); two helper kernels of
# shared.cl whose outputs change (the global offset prelude.h reads); the same run with a
# mirage that corrupts an output byte (counted as a mismatch naming the buffer and offset) and
# one that faults (counted as an emulate fault with its reason); resuming, and the errors (no
# objects, a bad flag) with message and exit code.  --translate gfx942: a kernel correct through
# the translation, and an object with a kernel the translator refuses (more LDS than gfx942
# has), whose kernels are counted as translate-refused, each with its reason.
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
run_capture bash "$RUN" --translate gfx90a
assert_eq "$RUN_STATUS" 2 "a bad target: exit 2"
assert_contains "$RUN_STDERR" "run.sh: --translate takes gfx942 or gfx950, not 'gfx90a'" \
	"a bad target: named"

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
# build_cl SOURCE.cl OUT.co: a gfx1250 code object of an OpenCL source (or the test fails).
build_cl() {
	if ! "${CLANG:-clang-22}" -x cl -cl-std=CL1.2 -cl-no-stdinc -include \
		"$KERNELS_SRC/prelude/amdgcn.h" -target amdgcn-amd-amdhsa -mcpu=gfx1250 -nogpulib -O2 \
		-c "$1" -o "$2.o" || ! "${LD_LLD:-ld.lld-22}" -shared "$2.o" -o "$2"; then
		fail "$(basename "$1") builds"
	fi
}
build_cl "$CORPUS/regress/bitfield.cl" "$TEST_TMP/bitfield.co"
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

# --translate gfx942: mirage emulate runs the translated object, POCL the source; the helper
# kernels translate (proven, not in whole-wave mode) and compute the same bytes.
run_capture bash "$RUN" --corpus "$TEST_TMP/corpus" --out "$TEST_TMP/gfx942" --filter shared \
	--kernels 'gpu_[ma][et]*' --translate gfx942 --mirage "$MIRAGE_BIN" --tools "$TOOLS"
assert_eq "$RUN_STATUS" 0 "--translate: exit 0"
assert_contains "$RUN_STDOUT" \
	"run: mirage emulate runs the objects translated for gfx942, POCL the source" \
	"--translate: the summary states the target"
assert_contains "$RUN_STDOUT" "run: 2 translated for gfx942 (100.0% of raised; 0 in objects" \
	"--translate: the share translated"
assert_contains "$RUN_STDOUT" \
	"run: 2 run correct (100.0% of judged), 2 of them with an output changed from its input" \
	"--translate: correct through the translation"
assert_eq "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["code_object"])' \
	"$TEST_TMP/gfx942/work/shared.gpu_memset/launch.json")" \
	"$TEST_TMP/gfx942/translate/shared.co" "--translate: mirage emulate runs the translated object"

# An object the translator refuses for gfx942: big_lds has more LDS than gfx942's 64 KiB, so
# small, which alone would translate, is not run either.
mkdir -p "$TEST_TMP/lds/objects"
cat >"$TEST_TMP/lds.cl" <<'EOF'
__kernel void big_lds(__global uint *out)
{
	__local uint lds[24576];
	lds[get_local_id(0)] = (uint)get_global_id(0);
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = lds[get_local_size(0) - 1 - get_local_id(0)];
}
__kernel void small(__global uint *out) { out[get_global_id(0)] = 1; }
EOF
build_cl "$TEST_TMP/lds.cl" "$TEST_TMP/lds/objects/lds.co"
run_capture bash "$RUN" --corpus "$TEST_TMP/lds" --out "$TEST_TMP/gfx942" --translate gfx942 \
	--mirage "$MIRAGE_BIN" --tools "$TOOLS"
assert_eq "$RUN_STATUS" 0 "translate-refused: exit 0 (counted, not an error)"
assert_contains "$RUN_STDERR" "0 kernels already run, 0 raised ones to run" \
	"translate-refused: not run"
assert_contains "$RUN_STDOUT" "run: 2 objects, 4 kernels, 4 raised (100.0%)" \
	"translate-refused: raised, and the earlier rows kept"
assert_contains "$RUN_STDOUT" \
	"run: 2 translated for gfx942 (50.0% of raised; 2 in objects that did not translate whole)" \
	"translate-refused: the share translated"
assert_contains "$RUN_STDOUT" \
	"run: 2 judged against POCL (4 raised, 0 POCL could not run, 0 no launch, 2 not translated)" \
	"translate-refused: not judged"
assert_contains "$RUN_STDOUT" "run: 1 translate-refused (not run): lds-limit" \
	"translate-refused: counted by its reason"
assert_contains "$RUN_STDOUT" \
	"run: 1 translate-refused (not run): another kernel of the object was refused: NAME lds-limit" \
	"translate-refused: the other kernel, by the reason"
rows=$(awk -F'\t' '$2 == "lds" { print $1 ": " $3 ": " $4 }' "$TEST_TMP/gfx942/results.tsv")
assert_eq "$rows" "big_lds: translate-refused: lds-limit
small: translate-refused: another kernel of the object was refused: big_lds lds-limit" \
	"translate-refused: each row names the reason (and the kernel refused)"

# A translator that crashes (or hangs): the object's kernels are translate-refused, naming why.
cat >"$TEST_TMP/mirage-crash" <<EOF
#!/usr/bin/env bash
[ "\$2" = rewrite ] || exec "$MIRAGE_BIN" "\$@"
kill -SEGV \$\$
EOF
chmod +x "$TEST_TMP/mirage-crash"
run_capture bash "$RUN" --corpus "$TEST_TMP/lds" --out "$TEST_TMP/crash" --translate gfx942 \
	--mirage "$TEST_TMP/mirage-crash" --tools "$TOOLS"
assert_eq "$RUN_STATUS" 0 "a translator crash: exit 0 (counted, not an error)"
assert_contains "$RUN_STDOUT" "run: 2 translate-refused (not run): mirage rewrite: crash (signal 11)" \
	"a translator crash: counted, named"
# One that hangs: bounded by --timeout too.
sed -i 's/^kill -SEGV .*/exec sleep 60/' "$TEST_TMP/mirage-crash"
run_capture bash "$RUN" --corpus "$TEST_TMP/lds" --out "$TEST_TMP/hang" --translate gfx942 \
	--timeout 1 --mirage "$TEST_TMP/mirage-crash" --tools "$TOOLS"
assert_contains "$RUN_STDOUT" "run: 2 translate-refused (not run): mirage rewrite: timeout (over 1s)" \
	"a translator that hangs: stopped, counted, named"

# One directory, one target: a translated run does not resume a run of the source.
run_capture bash "$RUN" --corpus "$TEST_TMP/corpus" --kernels "$KERNELS" --translate gfx942 \
	--out "$TEST_TMP/corpus/run" --mirage "$MIRAGE_BIN" --tools "$TOOLS"
assert_eq "$RUN_STATUS" 1 "another target's directory: exit 1"
assert_contains "$RUN_STDERR" \
	"run.sh: '$TEST_TMP/corpus/run' holds a run of the source objects, not of gfx942" \
	"another target's directory: named"
assert_contains "$RUN_STDERR" "hint: give this run another --out" \
	"another target's directory: the fix"
done_testing
