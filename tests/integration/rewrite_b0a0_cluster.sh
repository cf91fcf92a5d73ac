# The B0->A0 pass keeps what B0 cluster loads compute: `mirage emulate` of a B0 fixture with
# cluster loads (off and saddr), async copies to LDS, DS two-address exchanges and
# s_barrier_signal_isfirst
# (tests/b0a0/cluster_sites.s, launch file tests/b0a0/cluster.json) gives the bytes
# tests/b0a0/cluster_expect.py computes from the input on its own, and the same buffers for
# the rewritten object, in order and shuffled.  isfirst: exactly one wave per workgroup and
# barrier phase reads SCC = 1 (wave 0 in order, any one shuffled); the rewrite's plain signal
# leaves SCC as it was, as the pass documents.
source "$(dirname "$0")/cli_lib.sh"
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
LAUNCH=$MIRAGE_SRC/tests/b0a0/cluster.json
EXPECT=$MIRAGE_SRC/tests/b0a0/cluster_expect.py
[ -x "${LLVM_MC:-}" ] && [ -x "${LD_LLD:-}" ] || skip_all "llvm-mc-22 or ld.lld-22 is not installed"
B0=$T/b0.co
assemble_fixture "$MIRAGE_SRC/tests/b0a0/cluster_sites.s" "$T/b0"

# emulate NAME OBJECT [ARGS...]: runs the launch file beside a copy of OBJECT in $T/NAME.
emulate() {
	local dir=$T/$1 co=$2
	shift 2
	mkdir -p "$dir"
	cp "$LAUNCH" "$dir/cluster.json"
	cp "$co" "$dir/cluster_sites.co"
	mirage emulate "$dir/cluster.json" "$@"
}

# expect NAME WHAT...: cluster_expect.py holds for run NAME.
expect() {
	local name=$1
	shift
	python3 "$EXPECT" "$T/$name" "$@" >"$T/expect.out" 2>&1 ||
		fail "$name: $* does not hold: $(cat "$T/expect.out")"
}

mirage --json rewrite "$B0" -o "$T/a0.co" --target gfx1250
check "B0 -> A0 of the cluster fixture" 0
[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('cluster_load','barrier_isfirst','left_saddr','ds2','in_pool')]")" = \
	"[7, 2, 4, 2, 2]" ] || fail "counts: $(cat "$OUT")"
ok "the off-form cluster loads and both isfirst patched in place, saddr forms left, exchanges in the pool"

emulate b0 "$B0"
check "mirage emulate runs the B0 original" 0
expect b0 out
ok "the original's loads and async LDS copies give the independently computed bytes"
expect b0 first 0
ok "in order, wave 0 of each workgroup is isfirst's first, in both barrier phases"
emulate b0.shuffled "$B0" --schedule shuffle:8
check "the original, shuffled" 0
cmp -s "$T/b0/out.bin" "$T/b0.shuffled/out.bin" || fail "shuffled: other out.bin"
expect b0.shuffled first
ok "shuffled: the same out.bin, and still exactly one first wave per group and phase"

emulate a0 "$T/a0.co"
check "mirage emulate runs the rewritten object" 0
cmp -s "$T/b0/out.bin" "$T/a0/out.bin" || fail "the rewritten object gives another out.bin"
ok "original and rewritten give the same out.bin"
emulate a0.shuffled "$T/a0.co" --schedule shuffle:12345
check "the rewritten object, shuffled" 0
cmp -s "$T/b0/out.bin" "$T/a0.shuffled/out.bin" || fail "shuffled: another out.bin"
ok "shuffled schedule gives the same out.bin"
expect a0 stale
ok "the rewrite's s_barrier_signal leaves SCC at its old 0 in every wave"
done_testing
