# `mirage --json doctor` is one valid JSON document with the same checks as the text output.
source "$(dirname "$0")/discovery_lib.sh"

export HOTSWAP_HOME=$T/tree
stage_native "$HOTSWAP_HOME"
write_profile auto1 auto
export HSA_HOTSWAP_STRICT=1

mirage doctor
text_rc=$RC
text_lines=$(printf '%s\n' "$OUT" | grep -Ec '^(ok  |warn|FAIL)')

mirage --json doctor
expect_rc "$text_rc" "--json doctor exit status equals the text one"
printf '%s' "$OUT" | python3 -m json.tool >/dev/null || fail "doctor --json is not valid JSON"
[ -z "$ERR" ] || fail "doctor --json wrote to stderr: $ERR"
expect_json "len(d['checks']) == $text_lines"
expect_json 'd["ok"] is False and d["counts"]["fail"] == 1'
expect_json 'sum(d["counts"].values()) == len(d["checks"])'
expect_json 'all(c["status"] in ("ok", "warn", "fail") for c in d["checks"])'
expect_json 'all("fix" in c for c in d["checks"] if c["status"] != "ok")'
expect_json '{"config", "profile:auto1", "discovery", "tree", "part:lib/libhotswap_intercept.so", "part:lib/libhotswap_rewrite.so", "part:lib/libhotswap_intercept_core.so", "part:llvm-tools/llc", "part:runtime/hotswap_py/sitecustomize.py", "gpus", "target:auto1", "env:HSA_HOTSWAP_STRICT", "self-test"} <= {c["check"] for c in d["checks"]}'
expect_json '[c for c in d["checks"] if c["check"] == "discovery"][0]["details"][0].startswith("found ")'
# Details are text for programs: single spaces, not the text view's column padding.
expect_json 'all("  " not in t for c in d["checks"] for t in c.get("details", []))'
expect_json '[c for c in d["checks"] if c["check"] == "self-test"][0]["status"] == "ok"'
if command -v jq >/dev/null; then
	printf '%s' "$OUT" | jq -e '.checks[] | select(.check == "target:auto1") | .status == "fail"' \
		>/dev/null || fail "jq: target:auto1 is not a failure"
fi

finish
