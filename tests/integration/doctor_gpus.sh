# Host GPU detection on fixture KFD topologies, and the target each profile gets:
# a missing GPU is a FAIL only for a profile that needs one.
source "$(dirname "$0")/discovery_lib.sh"

export HOTSWAP_HOME=$T/tree
stage_native "$HOTSWAP_HOME"
nodes() { echo "$1/class/kfd/kfd/topology/nodes"; }

# no KFD at all, no profiles: warnings only
export MIRAGE_SYSFS_ROOT=$(sysfs_fixture none)
mirage doctor
expect_rc 0 "doctor, no GPU, no profiles"
expect_line "^warn  no KFD topology at '$(nodes "$MIRAGE_SYSFS_ROOT")': no AMD GPU is visible here$"
expect_line '^warn  a profile with target auto would fail: no GPU to retarget gfx1250 code onto: this host has no KFD topology \(no amdgpu driver\)$'
expect_line "^      fix: HotSwap retargets gfx1250 onto gfx942, gfx950, gfx1250; run on such a GPU, set the profile's target, or export HSA_HOTSWAP_ISA_OVERRIDE=<gfx> if this host can run it$"
# hotswap works here without a GPU (named targets, offline rewrite and emulate): no GPU is said
# in the reason, not as "not supported"
mirage emulators
expect_line '^hotswap\* +yes +yes '
mirage emulators -l
expect_out "supported: yes (for a profile that names its target: gfx942, gfx950, gfx1250; rewrite and emulate offline; --target auto finds none: no GPU to retarget gfx1250 code onto"

# a profile with a fixed target does not need a GPU
write_profile fixed gfx950
mirage doctor
expect_rc 0 "doctor, no GPU, fixed-target profile"
expect_line "^ok    profile 'fixed' would target gfx950 \(from profile\)$"

# a profile with target auto does: FAIL, and only that line
write_profile auto1 auto
mirage doctor
expect_rc 1 "doctor, no GPU, auto profile"
expect_line "^FAIL  profile 'auto1': no GPU to retarget gfx1250 code onto: this host has no KFD topology \(no amdgpu driver\)$"
[ "$(printf '%s\n' "$OUT" | grep -c '^FAIL')" = 1 ] || fail "expected exactly one FAIL line"
mirage doctor --profile fixed
expect_rc 0 "doctor --profile fixed"
expect_no_out "auto1"

# ... unless HSA_HOTSWAP_ISA_OVERRIDE names the target
HSA_HOTSWAP_ISA_OVERRIDE=gfx942 mirage doctor
expect_rc 0 "doctor, override"
expect_line "^ok    profile 'auto1' would target gfx942 \(from HSA_HOTSWAP_ISA_OVERRIDE\)$"
expect_line '^ok    HSA_HOTSWAP_ISA_OVERRIDE=gfx942 is set: mirage uses it as an input$'

# CPU-only topology
export MIRAGE_SYSFS_ROOT=$(sysfs_fixture cpu)
mirage doctor
expect_rc 1 "doctor, CPU only"
expect_line "^warn  KFD topology at '$(nodes "$MIRAGE_SYSFS_ROOT")' lists no GPU$"
expect_line "^FAIL  profile 'auto1': no GPU to retarget gfx1250 code onto: the KFD topology lists none$"

# one gfx942
export MIRAGE_SYSFS_ROOT=$(sysfs_fixture gfx942)
mirage doctor
expect_rc 0 "doctor, gfx942"
expect_line "^ok    1 GPU\(s\) in '$(nodes "$MIRAGE_SYSFS_ROOT")'$"
expect_line '^ok    GPU 0: gfx942, ASIC revision 1 \(node 1, device 0x74a1, render minor 128\)$'
expect_line "^ok    profile 'auto1' would target gfx942 \(from detected GPU 0\)$"
mirage emulators
expect_line '^hotswap\* +yes +yes '
mirage emulators -l
expect_out "supported: yes (target gfx942 from detected GPU 0)"

# gfx942 + gfx950, with the first one hidden from workloads
export MIRAGE_SYSFS_ROOT=$(sysfs_fixture gfx942+gfx950)
ROCR_VISIBLE_DEVICES=1 mirage doctor
expect_rc 0 "doctor, two GPUs, ROCR_VISIBLE_DEVICES=1"
expect_line "^ok    2 GPU\(s\) in '.*', filtered by ROCR_VISIBLE_DEVICES$"
expect_line '^ok    GPU 0: gfx942, ASIC revision 0 \(node 1, .*\), hidden$'
expect_line '^ok    GPU 1: gfx950, ASIC revision 0 \(node 2, device 0x74a1, render minor 129\)$'
expect_line "^ok    profile 'auto1' would target gfx950 \(from detected GPU 1\)$"
mirage doctor
expect_line "^ok    profile 'auto1' would target gfx942 \(from detected GPU 0\)$"

# gfx1250 A0 and B0: the ASIC revision tells the steppings apart
export MIRAGE_SYSFS_ROOT=$(sysfs_fixture gfx1250-a0b0)
mirage --json doctor
expect_rc 0 "doctor, gfx1250 A0 + B0"
mirage doctor
expect_line '^ok    GPU 0: gfx1250, ASIC revision 0 \(A0\) \(node 1, '
expect_line '^ok    GPU 1: gfx1250, ASIC revision 1 \(B0\) \(node 2, '
expect_line "^ok    profile 'auto1' would target gfx1250 \(from detected GPU 0\)$"

# malformed properties: a warning naming file and line; the node is skipped, others kept
export MIRAGE_SYSFS_ROOT=$(sysfs_fixture malformed)
mirage doctor
expect_rc 0 "doctor, malformed node"
expect_line "^warn  $(nodes "$MIRAGE_SYSFS_ROOT")/2/properties:2: malformed line 'gfx_target_version nine' \(expected 'key <decimal>'\); node skipped$"
expect_line '^ok    GPU 0: gfx942, '
expect_no_out "GPU 1:"

finish
