# The gfx1250 B0->A0 pass through `mirage rewrite`, judged by LLVM's tools: llvm-objdump-22
# -d shows no B0-only mnemonic at a patched site, the exact sequence of every trampoline and
# its branch back landing at site + size; no other .text byte changes; llvm-readelf-22 -a
# is clean and the notes show the retag.
source "$(dirname "$0")/run_lib.sh"
OBJDUMP=${LLVM_OBJDUMP:-llvm-objdump-22}
READELF=${LLVM_READELF:-llvm-readelf-22}
OBJCOPY=${LLVM_OBJCOPY:-llvm-objcopy-22}
JUDGE="python3 $(dirname "$0")/b0a0_judge.py $OBJDUMP $OBJCOPY"
ROWS=$MIRAGE_SRC/tests/b0a0/rows.expect
command -v "$OBJCOPY" >/dev/null || skip_all "no $OBJCOPY"

readelf_clean() {
	"$READELF" -a "$1" >/dev/null 2>"$T/re" && [ ! -s "$T/re" ] || fail "llvm-readelf warns on $1: $(cat "$T/re")"
}

# judged NAME IN OUT EXPECT: the judge's verdict on OUT (left in $T/judge), llvm-readelf
# clean, and a second B0->A0 rewrite of OUT a byte-identical copy.
judged() {
	$JUDGE "$2" "$3" "$4" >"$T/judge" || fail "$1: $(cat "$T/judge")"
	readelf_clean "$3"
	mirage rewrite "$3" -o "$3.again" --target gfx1250
	[ "$RC" = 0 ] && cmp -s "$3" "$3.again" || fail "$1: the second rewrite changed bytes"
}

for rev in b0 untagged; do
	mirage --json rewrite "$FIXTURES/b0a0_$rev.co" -o "$T/$rev.co" --target gfx1250
	check "$rev: B0 -> A0" 0
	[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('cluster_load','barrier_isfirst','ds2','addtid','in_pool','left_saddr','left_isfirst_register','ds2_declined')]")" = \
		"[7, 1, 15, 2, 17, 2, 1, 0]" ] || fail "$rev: counts: $(cat "$OUT")"
	$JUDGE "$FIXTURES/b0a0_$rev.co" "$T/$rev.co" "$ROWS" >"$T/judge" || fail "$rev: $(cat "$T/judge")"
	ok "$rev: llvm-objdump shows every site rewritten exactly ($(cat "$T/judge"))"
	"$OBJDUMP" -d --mcpu=gfx1250 "$T/$rev.co" >"$T/dis"
	grep -q "cluster_load_b32 v1, v2, s\[4:5\]" "$T/dis" || fail "$rev: the saddr form was touched"
	grep -q "s_barrier_signal_isfirst m0" "$T/dis" || fail "$rev: the m0 form was touched"
	readelf_clean "$T/$rev.co"
	mirage rewrite "$T/$rev.co" -o "$T/$rev.again.co" --target gfx1250
	check "$rev: a second B0 -> A0 rewrite" 0
	cmp -s "$T/$rev.co" "$T/$rev.again.co" || fail "$rev: the second rewrite changed bytes"
	ok "$rev: the saddr and m0 forms are left alone; a second rewrite is byte-identical"
done
"$READELF" --notes "$T/b0.co" >"$T/notes"
[ "$(grep -c '\.gfx1250_revision: A0' "$T/notes")" = 2 ] || fail "the tags were not retagged"
grep -q '\.gfx1250_revision: B0' "$T/notes" && fail "a B0 tag is left"
# The provenance note: version 1, transforms B0A0 (2), state A0 (1).
grep -q "description data: 01 00 00 00 02 00 00 00 01 00 00 00" "$T/notes" ||
	fail "the provenance note does not record state A0: $(grep -A1 0x48535750 "$T/notes")"
ok "the notes show both tags retagged to A0 and the provenance state A0"
# The pool section is 256-byte aligned as the spec says, also when it holds only the
# trampolines, which need 4 (tools that relink it read the alignment).
for o in "$T/b0.co" "$T/both.co"; do
	[ -f "$o" ] || mirage rewrite "$FIXTURES/b0a0_b0.co" -o "$o" --target gfx1250 --entry-trampolines
	al=$("$READELF" -S --wide "$o" | awk '$2 == ".hotswap.text" {print $NF}')
	[ "$al" = 256 ] || fail "${o##*/}: .hotswap.text has addralign '$al', not 256"
done
ok ".hotswap.text has addralign 256 (llvm-readelf-22 -S), trampolines only or with stubs"

mirage rewrite "$FIXTURES/b0a0_a0.co" -o "$T/a0.co" --target gfx1250
check "an all-A0 object" 0
expect_out "unchanged (byte-identical copy)"
expect_out "b0a0:     every kernel is tagged A0: left alone"
mirage --json rewrite "$FIXTURES/b0a0_mixed.co" -o "$T/mixed.co" --target gfx1250
check "mixed tags (B0 and A0)" 0
[ "$(json_get "$OUT" "d['b0a0']['retagged'], d['b0a0']['ds2'], d['b0a0']['certified_a0']")" = "1 15 0" ] ||
	fail "mixed: $(cat "$OUT")"
$JUDGE "$FIXTURES/b0a0_mixed.co" "$T/mixed.co" "$ROWS" >"$T/judge" || fail "mixed: $(cat "$T/judge")"
ok "mixed tags: not certified, every site rewritten, the B0 tag retagged"

mirage rewrite "$FIXTURES/b0a0_b0.co" -o "$T/both.co" --target gfx1250 --entry-trampolines
check "B0 -> A0 with entry trampolines" 0
expect_out "passes:   validate, entry-trampolines, stub-symbols, b0a0, metadata"
expect_out "kernels:  2 found, 2 stubbed"
$JUDGE "$FIXTURES/b0a0_b0.co" "$T/both.co" "$ROWS" >"$T/judge" || fail "both: $(cat "$T/judge")"
"$OBJDUMP" -d --mcpu=gfx1250 "$T/both.co" | grep -q "<rows.stub>:" || fail "no rows.stub"
readelf_clean "$T/both.co"
mirage rewrite "$T/both.co" -o "$T/both.again.co" --target gfx1250 --entry-trampolines
check "the combined output again" 0
cmp -s "$T/both.co" "$T/both.again.co" || fail "the second combined rewrite changed bytes"
ok "entry stubs and B0->A0 trampolines share one pool; the second rewrite is byte-identical"

# Placement: a NOP sled of the site's function (no control flow reaches it) before the pool.
mirage --json rewrite "$FIXTURES/b0a0_place.co" -o "$T/place.co" --target gfx1250
check "NOP sleds" 0
[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('ds2','addtid','in_sled','in_pool','long_jump')]")" = \
	"[7, 1, 2, 6, 0]" ] || fail "sleds: counts: $(cat "$OUT")"
judged sleds "$FIXTURES/b0a0_place.co" "$T/place.co" "$MIRAGE_SRC/tests/b0a0/place.expect"
grep -q "(2 in sleds, 0 by far jumps through no pair)" "$T/judge" || fail "sleds: $(cat "$T/judge")"
"$OBJDUMP" -d --mcpu=gfx1250 "$T/place.co" >"$T/dis"
# sled+0 and sled+0x10 go into the sled after s_endpgm (sled+0x1c, +0x34); every other
# site (a 20-byte sled, a sled cut by a branch target, s_nop reached by fall-through,
# another function's sled, a function symbol's leading s_nop) goes to the pool.
grep -q "BFA00006 <sled+0x1c>" "$T/dis" && grep -q "BFA00008 <sled+0x34>" "$T/dis" ||
	fail "sleds: the sites are not in the sled: $(grep -A4 '<sled>:' "$T/dis")"
ok "sleds: sites in the sled ($(cat "$T/judge")); too short, cut, reached, foreign or called sleds are not used"

# Beyond s_branch reach of the pool: the far jump through a free SGPR pair, never
# s_add_pc_i64 (LLVM relaxes with it for gfx1251 only).  The two adjacent sites share one; a
# lone site reaches one through a gateway in a short NOP sled.
mirage --json rewrite "$FIXTURES/b0a0_far.co" -o "$T/far.co" --target gfx1250
check "sites beyond s_branch reach" 0
[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('ds2','addtid','in_sled','in_pool','long_jump','far_jumps','far_pair_kernels','far_pair_low','far_pair_high','ds2_declined')]")" = \
	"[3, 1, 0, 1, 3, 2, 1, 8, 8, 0]" ] || fail "far: counts: $(cat "$OUT")"
judged far "$FIXTURES/b0a0_far.co" "$T/far.co" "$MIRAGE_SRC/tests/b0a0/far.expect"
grep -q "(0 in sleds, 3 by far jumps through s\[8:9\])" "$T/judge" || fail "far: $(cat "$T/judge")"
"$OBJDUMP" -d --mcpu=gfx1250 "$T/far.co" >"$T/dis"
grep -q s_add_pc_i64 "$T/dis" && fail "far: the output holds s_add_pc_i64"
# The exact sequence at the site (.text+0, vaddr 0x1500) and its modelled target: the address
# after s_get_pc_i64 (0x1504) plus the literal is the pool's first trampoline.
grep -A3 "<far>:$" "$T/dis" | sed -n 2,4p | sed 's/ *\/\/.*//; s/^\s*//' >"$T/seq"
lit=$(sed -n 2p "$T/seq" | sed -n 's/^s_add_nc_u64 s\[8:9\], s\[8:9\], 0x\([0-9a-f]*\)$/\1/p')
[ -n "$lit" ] && [ "$(sed -n 1p "$T/seq")" = "s_get_pc_i64 s[8:9]" ] && [ "$(sed -n 3p "$T/seq")" = "s_set_pc_i64 s[8:9]" ] ||
	fail "far: the site is not the far jump: $(cat "$T/seq")"
pool=$("$READELF" -S -W "$T/far.co" | awk '$2 == ".hotswap.text" {print $4}')
[ "$(printf '%x' $((0x1504 + 0x$lit)))" = "$(printf '%x' $((0x$pool)))" ] ||
	fail "far: 0x1504 + 0x$lit is not the pool at 0x$pool"
# .sgpr_count rises to cover s[8:9] and VCC: 12.
[ "$("$READELF" --notes "$T/far.co" | awk '/\.sgpr_count:/{print $2}')" = 12 ] ||
	fail "far: .sgpr_count: $("$READELF" --notes "$T/far.co" | grep sgpr_count)"
mirage rewrite "$FIXTURES/b0a0_far.co" -o "$T/far.txt.co" --target gfx1250
expect_out "b0a0:     2 far jumps (3 sites) through s[8:9] in 1 kernel(s)"
ok "far sites: two share a far jump through s[8:9] to 0x$pool and land back past both, a lone one goes through a gateway ($(cat "$T/judge")); .sgpr_count 12"

# No pair left: the same sites in a kernel whose instructions name every SGPR (s0..s105).
mirage rewrite "$FIXTURES/b0a0_far_nopair.co" -o "$T/nopair.co" --target gfx1250
check "far sites with no free SGPR pair" 1 \
	"kernel 'full': ds_load_2addr_b32 at .text+0x0 (vaddr 0x1500): its far jump needs an even SGPR pair above those its function names (s0..s105) and its .sgpr_count 106, and none is left below s106; the edit is required, so the rewrite fails closed"
[ ! -e "$T/nopair.co" ] || fail "nopair: a failed rewrite left its output behind"
mirage --json rewrite "$FIXTURES/b0a0_far_nopair.co" -o "$T/nopair.co" --target gfx1250 --best-effort
check "no free SGPR pair, --best-effort" 0
[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('ds2','addtid','ds2_declined','addtid_declined','long_jump','far_jumps','far_pair_kernels')]")" = \
	"[1, 0, 1, 1, 0, 0, 0]" ] || fail "nopair: counts: $(cat "$OUT")"
"$OBJDUMP" -d --mcpu=gfx1250 "$T/nopair.co" | grep -A2 "<full>:" | grep -q "ds_load_2addr_b32" ||
	fail "nopair: the declined site was changed"
[ "$("$READELF" --notes "$T/nopair.co" | awk '/\.sgpr_count:/{print $2}')" = 106 ] ||
	fail "nopair: .sgpr_count changed"
readelf_clean "$T/nopair.co"
ok "no free pair: refused (exit 1, kernel, offset and why); --best-effort declines both far sites and counts them"

# The ADDTID store's scratch VGPR: .vgpr_count rises; RSRC1's granules too when the scratch
# VGPR is past them (llvm-objdump decodes the descriptor: next_free_vgpr is granules x 16).
kd_vgprs() { "$OBJDUMP" -d --mcpu=gfx1250 -j .rodata "$1" | awk '/kd>:/{k=$2} /next_free_vgpr/{printf "%s%s ", k, $2}'; }
mirage rewrite "$FIXTURES/b0a0_vgpr.co" -o "$T/vgpr.co" --target gfx1250
check "the scratch VGPR at a granule boundary" 0
[ "$(kd_vgprs "$FIXTURES/b0a0_vgpr.co")" = "<edge.kd>:16 <inside.kd>:32 " ] || fail "vgpr input: $(kd_vgprs "$FIXTURES/b0a0_vgpr.co")"
[ "$(kd_vgprs "$T/vgpr.co")" = "<edge.kd>:32 <inside.kd>:32 " ] || fail "vgpr: RSRC1: $(kd_vgprs "$T/vgpr.co")"
[ "$("$READELF" --notes "$T/vgpr.co" | awk '/\.vgpr_count:/{printf "%s ", $2}')" = "17 21 " ] ||
	fail "vgpr: .vgpr_count: $("$READELF" --notes "$T/vgpr.co" | grep vgpr_count)"
judged vgpr "$FIXTURES/b0a0_vgpr.co" "$T/vgpr.co" "$MIRAGE_SRC/tests/b0a0/vgpr.expect"
ok "the scratch VGPR: RSRC1 rises a granule past a boundary, not inside one; .vgpr_count rises"

mirage rewrite "$FIXTURES/b0a0_occupancy.co" -o "$T/occ.co" --target gfx1250
check "a scratch VGPR that would lower occupancy below the launch's" 1 \
	"kernel 'tight': ds_store_addtid_b32 at .text+0x0 (vaddr 0x1600): its scratch VGPR v128 would raise RSRC1 to 144 VGPRs, 7 waves per SIMD, below the 8 a workgroup of 1024 (.max_flat_workgroup_size) needs; the edit is required, so the rewrite fails closed"
[ ! -e "$T/occ.co" ] || fail "occupancy: a failed rewrite left its output behind"
mirage --json rewrite "$FIXTURES/b0a0_occupancy.co" -o "$T/occ.co" --target gfx1250 --best-effort
check "occupancy, --best-effort" 0
[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('addtid','addtid_declined')]")" = "[1, 1]" ] ||
	fail "occupancy: counts: $(cat "$OUT")"
[ "$(kd_vgprs "$T/occ.co")" = "<tight.kd>:128 <roomy.kd>:144 " ] || fail "occupancy: RSRC1: $(kd_vgprs "$T/occ.co")"
"$OBJDUMP" -d --mcpu=gfx1250 "$T/occ.co" | grep -A1 "<tight>:" | grep -q ds_store_addtid_b32 ||
	fail "occupancy: the declined site was changed"
readelf_clean "$T/occ.co"
ok "occupancy: refused (exit 1, the message) when the launch needs more waves; --best-effort declines that site only"

# Many kernels in one object (the bench's generator): every site judged, sleds and pool.
mirage --json rewrite "$FIXTURES/b0a0_many.co" -o "$T/many.co" --target gfx1250
check "40 kernels" 0
[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('cluster_load','barrier_isfirst','ds2','addtid','left_saddr','in_sled','in_pool','retagged')]")" = \
	"[40, 40, 40, 40, 10, 30, 50, 40]" ] || fail "many: counts: $(cat "$OUT")"
judged many "$FIXTURES/b0a0_many.co" "$T/many.co" "$FIXTURES/b0a0_many.expect"
ok "40 kernels in one object: $(cat "$T/judge")"

# No way to the pool: a 2.25 GiB .bss puts it past a 32-bit literal, so the far jump would
# take 20 bytes, more than the lone 8-byte site.
mirage rewrite "$FIXTURES/b0a0_unreachable.co" -o "$T/unreach.co" --target gfx1250
check "a required site with no way to the pool" 1 \
	"kernel 'far': ds_load_2addr_b32 at .text+0x0 (vaddr 0x1500): the pool is beyond s_branch reach, the far jump (20 bytes: s_get_pc_i64, s_add_nc_u64, s_set_pc_i64) is longer than the site and the growing sites right after it, and no NOP sled in its function has room for the site's body or for a 16-byte gateway to the far jump; the edit is required, so the rewrite fails closed"
[ ! -e "$T/unreach.co" ] || fail "unreachable: a failed rewrite left its output behind"
mirage --json rewrite "$FIXTURES/b0a0_unreachable.co" -o "$T/unreach.co" --target gfx1250 --best-effort
check "no way to the pool, --best-effort" 0
[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('ds2','ds2_declined','retagged')]")" = "[0, 1, 1]" ] ||
	fail "unreachable: counts: $(cat "$OUT")"
readelf_clean "$T/unreach.co"
ok "a site no jump reaches: fails closed (exit 1, the message); --best-effort declines and counts it"

# A tag that is not the string A0 or B0: refused, naming the kernel and the field.
mirage rewrite "$FIXTURES/b0a0_badint.co" -o "$T/bad.co" --target gfx1250
check "a non-string tag" 1 \
	"kernel 'plain': metadata field '.gfx1250_revision' is not a string (\"A0\" or \"B0\"); refusing to guess the stepping"
mirage rewrite "$FIXTURES/b0a0_badstr.co" -o "$T/bad.co" --target gfx1250
check "an unknown tag" 1 \
	"kernel 'plain': metadata field '.gfx1250_revision' is \"C0\", neither \"A0\" nor \"B0\"; refusing to guess the stepping"
[ ! -e "$T/bad.co" ] || fail "a refused tag left an output behind"
mirage rewrite "$FIXTURES/b0a0_badint.co" -o "$T/bad.co" --target gfx1250 --no-b0a0
check "a malformed tag with --no-b0a0" 0
ok "malformed tags: HS_INVALID_ARGUMENT (exit 1) naming kernel and field; --no-b0a0 gets past it"

mirage rewrite "$FIXTURES/b0a0_decline.co" -o "$T/decline.co" --target gfx1250
check "an unplaceable required site" 1 \
	"kernel 'far': ds_load_2addr_stride64_b64 at .text+0x0 (vaddr 0x1500): a half's byte offset exceeds 0xffff; the edit is required, so the rewrite fails closed"
[ ! -e "$T/decline.co" ] || fail "a failed rewrite left its output behind"
mirage rewrite "$FIXTURES/b0a0_decline.co" -o "$T/decline.co" --target gfx1250 --strict
check "an unplaceable required site, --strict" 1 "the edit is required"
mirage rewrite "$FIXTURES/b0a0_decline.co" -o "$T/decline.co" --target gfx1250 --best-effort --strict
check "--best-effort with --strict" 2 "--best-effort and --strict contradict each other"
[ ! -e "$T/decline.co" ] || fail "a refused command line left an output behind"
mirage --json rewrite "$FIXTURES/b0a0_decline.co" -o "$T/decline.co" --target gfx1250 --best-effort
check "--best-effort declines what it cannot place" 0
[ -s "$T/decline.co" ] || fail "--best-effort wrote no output"
[ "$(json_get "$OUT" "[d['b0a0'][k] for k in ('ds2_declined','ds2','long_jump','far_jumps')]")" = "[2, 2, 2, 1]" ] ||
	fail "--best-effort: counts: $(cat "$OUT")"
readelf_clean "$T/decline.co"
ok "--best-effort: required sites that cannot be placed are declined and counted, never with --strict"

# inspect lists what B0->A0 would change, per kernel, without rewriting.
cp "$FIXTURES/b0a0_b0.co" "$T/in.co"
mirage --json inspect "$T/in.co"
check "inspect a B0 object" 0
[ "$(json_get "$OUT" "[(k['name'], sorted(set((s['b0a0'], sum(1 for t in k.get('b0a0_sites', []) if t['b0a0'] == s['b0a0'])) for s in k.get('b0a0_sites', [])))) for k in d['kernels']]")" = \
	"[('rows', [('in place', 8), ('left alone', 3), ('trampoline', 17)]), ('plain', [])]" ] ||
	fail "inspect sites: $(cat "$OUT")"
cmp -s "$T/in.co" "$FIXTURES/b0a0_b0.co" || fail "inspect changed its input"
[ "$(json_get "$OUT" "d['kernels'][0]['b0a0_sites'][1]")" = \
	"{'vaddr': '0x1608', 'text_offset': '0x8', 'instruction': 'cluster_load_b32', 'b0a0': 'in place'}" ] ||
	fail "inspect site: $(cat "$OUT")"
mirage inspect "$T/b0.co"
check "inspect the rewritten object" 0
expect_out "B0-only sites (3):"
ok "inspect lists B0-only sites per kernel; after the rewrite only the forms left alone remain"

mirage rewrite "$FIXTURES/gfx1251.co" -o "$T/1251.co" --target gfx1251
check "gfx1251" 0
expect_out "passes:   validate"
grep -q "passes:.*b0a0" "$OUT" && fail "the B0->A0 pass ran on gfx1251"
ok "gfx1251: the pass does not run"
done_testing
