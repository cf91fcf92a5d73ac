#!/usr/bin/env bash
# An object linked from two inputs carries one AMDGPU metadata note per input
# (tests/fixtures: two_notes = ka + kb).  The translator's code-object reader
# (codeobj/code_object.c) merges them as the rewriter and the loader do
# (codeobj/meta_merge.h): `mirage raise` sees both kernels, `mirage emulate` runs the second
# note's kernel, and `mirage rewrite --target gfx942` translates both, its kb emulated again.
# A note of another amdhsa.version (two_versions) is left out, and its kernel is named as such.
# shellcheck source=lib.sh
source "$TEST_LIB"

co=$FIXTURES/two_notes.co
[ -f "$co" ] || skip_all "fixtures are not built (target 'fixtures')"
cd "$TEST_TMP" || exit 1
cp "$co" two_notes.co

run_capture "$MIRAGE_BIN" raise two_notes.co --json
assert_eq "$RUN_STATUS" 0 "mirage raise reads an object with two metadata notes: $RUN_STDERR"
assert_eq "$(python3 -c 'import json,sys; print(" ".join(k["kernel"] for k in json.load(sys.stdin)["kernels"]))' <<<"$RUN_STDOUT")" \
	"ka kb" "both notes' kernels are raised, in order"

for co in two_notes kb.gfx942; do
	cat >"$co.json" <<-JSON
		{"code_object": "$co.co", "kernel": "kb", "grid": [32, 1, 1], "workgroup": [32, 1, 1],
		 "buffers": {"out": {"size": 4, "init": "zero", "output": "$co.out"}},
		 "args": [{"buffer": "out"}]}
	JSON
	if [ "$co" = kb.gfx942 ]; then
		run_capture "$MIRAGE_BIN" rewrite two_notes.co -o kb.gfx942.co --target gfx942
		assert_eq "$RUN_STATUS" 0 "mirage rewrite --target gfx942 translates both notes' kernels: $RUN_STDERR"
		assert_contains "$RUN_STDOUT" "kernels:  2 found, 2 translated, 0 refused" "ka and kb are translated"
	fi
	run_capture "$MIRAGE_BIN" emulate "$co.json"
	assert_eq "$RUN_STATUS" 0 "mirage emulate runs kb, the second note's kernel ($co): $RUN_STDERR"
	assert_eq "$(od -An -tu4 "$co.out" | tr -d ' ')" 42 "kb stores 42 ($co)"
done

cp "$FIXTURES/two_versions.co" .
run_capture "$MIRAGE_BIN" raise two_versions.co --json
assert_eq "$RUN_STATUS" 0 "mirage raise reads an object whose second note is left out"
assert_not_contains "$RUN_STDOUT" '"kv"' "the left-out note's kernel is not raised"
run_capture "$MIRAGE_BIN" rewrite two_versions.co -o tv.co --target gfx942
assert_eq "$RUN_STATUS" 1 "a kernel whose note is left out is not translated"
assert_contains "$RUN_STDERR" "kernel 'kv' has no entry in the AMDGPU metadata, so it cannot be translated: the object carries 1 more metadata note(s) whose amdhsa.version" \
	"the message says which kernel and why"
[ ! -e tv.co ] || fail "no output is written"
done_testing
