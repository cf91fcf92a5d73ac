# `mirage inspect --target T`: whether a code object runs on T as it is, which of its kernels
# translate (each refusal with its instruction and reason), that a bundle with an entry for T
# is left alone (the HIP runtime takes that entry), and a bad T refused with exit 2.
source "$(dirname "$0")/cli_lib.sh"
# shellcheck source=kernel_asm.sh
source "$(dirname "$0")/kernel_asm.sh"
cd "$T" || fail "cannot cd to $T"
store='s_load_b64 s[2:3], s[0:1], 0x0; s_wait_kmcnt 0; v_mov_b32 v0, 42; v_mov_b32 v1, 0; global_store_b32 v1, v0, s[2:3]'
kernel plain "$store; s_endpgm"
kernel refused "$store; buffer_load_b32 v2, v1, s[4:7], s8 offen; s_endpgm"

mirage inspect plain.co --target gfx942
check "a kernel that translates" 0
expect_out "for gfx942: translates: 1 of 1 kernels translate"
expect_out "  kernel 'k': translated"
mirage inspect plain.co --target gfx1250
check "its own processor" 0
expect_out "for gfx1250: runs as it is (its own processor)"
mirage inspect refused.co --target gfx950
check "a refused kernel is said, and is not inspect's failure" 0
expect_out "for gfx950: refused: 0 of 1 kernels translate"
expect_out "kernel 'k' is refused at 0x"
expect_out "(buffer_load_b32): unsupported-instruction"
mirage --json inspect refused.co --target gfx942
check "--json" 0
json_ok "$OUT"
[ "$(json_get "$OUT" "d['target']['verdict'], d['target']['kernel_results'][0]['reason']")" = \
	"refused unsupported-instruction" ] || fail "target in JSON: $(head -c 400 "$OUT")"
ok "--json has the verdict and each kernel's refusal"
mirage inspect plain.co --target gfx1251
check "no route" 0
expect_out "for gfx1251: no route: "
mirage inspect plain.co --target gfx9999
check "an unknown target" 2 "invalid value 'gfx9999' for '--target': not a processor mirage knows"
expect_err "hint: a target mirage reaches from gfx1250 code: gfx942, gfx950, gfx1250"

# A bundle with an entry for the target: left alone, as the HIP runtime takes that entry.
"$TEST_TOOLS/bundle_write" both.bundle host-x86_64-unknown-linux-gnu-= \
	hipv4-amdgcn-amd-amdhsa--gfx1250=plain.co hipv4-amdgcn-amd-amdhsa--gfx942=plain.co ||
	fail "bundle_write"
mirage inspect both.bundle --target gfx942:sramecc+:xnack-
check "a bundle with an entry for the target" 0
expect_out "  for gfx942:sramecc+:xnack-: entry 2 is made for it, so the HIP runtime takes that one and the bundle is left alone"
grep -q "kernels translate" "$OUT" && fail "a bundle with an entry for the target was translated"
ok "and nothing of it is translated"
"$TEST_TOOLS/bundle_write" only.bundle hipv4-amdgcn-amd-amdhsa--gfx1250=plain.co || fail "bundle_write"
mirage inspect only.bundle --target gfx942
check "a gfx1250-only bundle" 0
expect_out "for gfx942: translates: 1 of 1 kernels translate"
done_testing
