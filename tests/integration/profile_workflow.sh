# The profile workflow through the real binary: create, list, show, edit, export, import, delete.
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
P="$MIRAGE_CONFIG/profiles"

mirage profile list
check "list an empty store" 0 "no profiles in '$P'"
[ ! -s "$OUT" ] || fail "an empty list printed names"

mirage profile create rdna --emulator hotswap --source-target gfx1250:32 --target gfx942 \
	--policy triton --no-strict --entry-trampolines --stepping b0 --cache-dir "$T/cache" \
	--env FOO=bar --env EMPTY= --description "gfx1250 on MI300"
check "create with every flag" 0
expect_out "created profile 'rdna'"
expect_file_has "$P/rdna.ini" "target = gfx942"
expect_file_has "$P/rdna.ini" "adapter_policy = triton"
expect_file_has "$P/rdna.ini" "strict = false"
expect_file_has "$P/rdna.ini" "entry_trampolines = true"
expect_file_has "$P/rdna.ini" "stepping = b0"
expect_file_has "$P/rdna.ini" "FOO = bar"
ok "the INI file holds every key"

mirage profile create plain --emulator native
check "create a native profile" 0
[ "$(ls -A "$P" | sort | tr '\n' ' ')" = "plain.ini rdna.ini " ] || fail "stray files in $P"
ok "no temporary files left behind"

mirage profile list
check "list" 0
[ "$(cat "$OUT")" = "$(printf 'plain\nrdna')" ] || fail "list is not the sorted names"
ok "list prints sorted names"
mirage profile list -l
check "list -l" 0
expect_out "rdna                     hotswap  gfx942   gfx1250 on MI300"
grep -qx 'plain                    native   -' "$OUT" || fail "list -l pads a line with no description: $(grep plain "$OUT" | cat -A)"
grep -q ' $' "$OUT" && fail "list -l leaves trailing spaces"
ok "list -l lines end at their last column"
mirage --json profile list -l
check "list -l --json" 0
json_ok "$OUT"
[ "$(json_get "$OUT" "d[1]['target']")" = gfx942 ] || fail "json list lacks the target"
ok "list --json parses"

mirage profile show rdna
check "show" 0
expect_out "target             = gfx942"
expect_out "env FOO=bar"
# Looked up by the rule of create: what cannot be created is not found by another name.
mirage profile show RDNA
check "show a mixed-case name" 2 "invalid profile name 'RDNA': profiles are stored lowercase"
expect_err "hint: use 'rdna' instead"
mirage run -p RDNA --dry-run -- true
check "run -p a mixed-case name" 2 "invalid profile name 'RDNA': profiles are stored lowercase"
mirage profile show plain
check "show a profile with empty values" 0
expect_out 'description        = ""  (default)'
grep -q '= *(default)$\|= $' "$OUT" && fail "an empty value shows as nothing: $(cat "$OUT")"
ok "an empty value shows as \"\""
mirage profile show rdna --json
check "show --json" 0
json_ok "$OUT"
[ "$(json_get "$OUT" "d['hotswap']['strict']")" = False ] || fail "strict is not false"
[ "$(json_get "$OUT" "d['env']['EMPTY']")" = "" ] || fail "empty env value lost"
ok "show --json has typed values"

mirage profile edit rdna --set target=gfx950 --set hotswap.strict=yes --set env.NEW=1 --unset env.FOO \
	--unset stepping
check "edit" 0
mirage --json profile show rdna
[ "$(json_get "$OUT" "d['hotswap']['target'], d['hotswap']['strict'], d['hotswap']['stepping'], sorted(d['env'])")" = \
	"gfx950 True auto ['EMPTY', 'NEW']" ] || fail "edit did not apply: $(cat "$OUT")"
ok "edit applied every --set and --unset"

mirage profile export rdna -o "$T/rdna.json"
check "export -o" 0 "exported profile 'rdna' to '$T/rdna.json'"
json_ok "$T/rdna.json"
sed 's/"rdna"/"copy"/' "$T/rdna.json" >"$T/copy.json"
mirage profile import "$T/copy.json"
check "import our JSON" 0
expect_out "imported profile 'copy'"
mirage profile export copy
sed 's/"copy"/"rdna"/' "$OUT" >"$T/back.json"
cmp -s "$T/back.json" "$T/rdna.json" || fail "export/import round trip changed the profile"
ok "export -> import -> export is lossless"

cat >"$T/ref.json" <<'JSON'
{"name": "mi350x", "description": "from the reference mirage",
 "emulator": {"emulator": "hotswap", "plugins": {}, "exec_mode": "Functional",
              "options": {"entry_trampolines": true},
              "topology": {"num_nodes": 1, "gpus_per_node": 1, "agent": "mi350x"}}}
JSON
RUN_STDIN="$T/ref.json" mirage profile import -
check "import the reference mirage's shape from stdin" 0
mirage --json profile show mi350x
[ "$(json_get "$OUT" "d['hotswap']['target'], d['hotswap']['entry_trampolines']")" = "gfx950 True" ] ||
	fail "reference import did not map agent and options"
ok "reference agent maps to its gfx target"

printf 'n\n' >"$T/no"
RUN_STDIN="$T/no" mirage profile delete copy
check "declined delete is a usage exit" 2
expect_err "delete profile 'copy'? [y/N]"
expect_out "profile 'copy' not deleted"
[ -f "$P/copy.ini" ] || fail "declined delete removed the file"
printf 'yes\n' >"$T/yes"
RUN_STDIN="$T/yes" mirage profile delete copy
check "confirmed delete" 0
[ ! -e "$P/copy.ini" ] || fail "profile file still there"
mirage profile delete mi350x -f
check "delete -f does not ask" 0
[ ! -s "$ERR" ] || fail "delete -f asked anyway"
ok "delete -f is silent"

mirage profile create --help
check "create --help" 0
expect_out "usage: mirage profile create [options] NAME"
expect_out "--[no-]entry-trampolines"
done_testing
