# The B0->A0 pass keeps B0 semantics: `mirage emulate` of a B0 fixture whose DS two-address
# and ADDTID sites feed global stores (tests/b0a0/exec.s, launch file
# tests/b0a0/exec.json) gives the same buffers for the original object (the raiser models
# B0) and for the rewritten one (its trampolines run from a NOP sled, from the pool, and
# through far jumps), in order and shuffled.
source "$(dirname "$0")/cli_lib.sh"
LAUNCH=$MIRAGE_SRC/tests/b0a0/exec.json

# emulate NAME OBJECT [ARGS...]: runs the launch file beside a copy of OBJECT in $T/NAME.
emulate() {
	local dir=$T/$1 co=$2
	shift 2
	mkdir -p "$dir"
	cp "$LAUNCH" "$dir/exec.json"
	cp "$co" "$dir/exec_sites.co"
	mirage emulate "$dir/exec.json" "$@"
}

mirage --json rewrite "$FIXTURES/b0a0_exec.co" -o "$T/a0.co" --target gfx1250
check "B0 -> A0 of the exec fixture" 0
[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('ds2','addtid','in_sled','in_pool','ds2_declined','addtid_declined')]")" = \
	"[6, 2, 2, 6, 0, 0]" ] || fail "counts: $(cat "$OUT")"
ok "every DS two-address and ADDTID site is moved: the first two fill the sled after s_endpgm, the rest go to the pool"

emulate b0 "$FIXTURES/b0a0_exec.co"
check "mirage emulate runs the B0 original" 0
emulate a0 "$T/a0.co"
check "mirage emulate runs the rewritten object (through its trampolines)" 0
cmp -s "$T/b0/out.bin" "$T/a0/out.bin" || fail "the rewritten object gives other buffers than the original"
ok "original and rewritten give the same out.bin"
emulate a0.shuffled "$T/a0.co" --schedule shuffle:12345
check "the rewritten object, shuffled" 0
cmp -s "$T/b0/out.bin" "$T/a0.shuffled/out.bin" || fail "shuffled: other buffers"
ok "shuffled schedule gives the same out.bin"

# The same kernel with 160 KiB of code after it (fixture b0a0_exec_far): the pool is beyond
# s_branch reach, so the adjacent sites share far jumps (s_get_pc_i64, s_add_nc_u64,
# s_set_pc_i64 through s[8:9]), the ADDTID load fills the sled and the ADDTID store reaches
# its far jump through a gateway in the rest of the sled; never s_add_pc_i64.
mirage --json rewrite "$FIXTURES/b0a0_exec_far.co" -o "$T/far.co" --target gfx1250
check "B0 -> A0 of the far exec fixture" 0
[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('in_sled','in_pool','long_jump','far_jumps','far_pair_low','ds2_declined','addtid_declined')]")" = \
	"[1, 0, 7, 4, 8, 0, 0]" ] || fail "far counts: $(cat "$OUT")"
"${LLVM_OBJDUMP:-llvm-objdump-22}" -d --mcpu=gfx1250 "$T/far.co" | grep -q s_add_pc_i64 &&
	fail "the far output holds s_add_pc_i64"
ok "far fixture: one site in the sled, seven by four far jumps through s[8:9], no s_add_pc_i64"
# The raiser follows the far jumps (s_set_pc_i64 of s_get_pc_i64 + a constant, direct or
# through a gateway) into the pool and back, so the far-jumped object runs too.
emulate far "$T/far.co"
check "mirage emulate runs the far-jumped object" 0
cmp -s "$T/b0/out.bin" "$T/far/out.bin" || fail "the far-jumped object gives other buffers than the original"
ok "the far-jumped object gives the original's out.bin"

# The comparison sees a wrong trampoline: the overlapping load's halves issued first half first
# (the ordering rule broken) change the buffer.
python3 - "$T/a0.co" "$T/wrong.co" <<'PY' || fail "no overlapping-load trampoline to break"
import sys
b = open(sys.argv[1], "rb").read()
second = bytes.fromhex("0000d8d80a00000b")  # ds_load_b32 v11, v10
first = bytes.fromhex("0001d8d80a00000a")   # ds_load_b32 v10, v10 offset:256
i = b.find(second + first)
if i < 0:
    sys.exit(1)
open(sys.argv[2], "wb").write(b[:i] + first + second + b[i + 16:])
PY
emulate wrong "$T/wrong.co"
check "mirage emulate runs the broken object" 0
cmp -s "$T/b0/out.bin" "$T/wrong/out.bin" && fail "a broken ordering gives the same buffers"
ok "a trampoline that breaks the ordering rule gives other buffers"
done_testing
