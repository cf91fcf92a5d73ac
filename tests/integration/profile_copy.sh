# `profile copy`, `profile rename`, `profile delete A B C` and `profile import --name/--force`:
# every key and [env] entry carried over, nothing overwritten without --force, and each error
# with its message and exit code.
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
P="$MIRAGE_CONFIG/profiles"

mirage profile create a --emulator native --env X=1 --description "the first"
check "setup" 0
mirage profile copy a b
check "copy" 0
expect_out "copied profile 'a' as 'b' ($P/b.ini)"
mirage profile show b
expect_out "description        = the first"
expect_out "env X=1"
mirage profile show a
check "copy leaves the source" 0
mirage profile copy a b
check "copy onto an existing profile" 1 "profile 'b' already exists at '$P/b.ini'"
expect_err "hint: pass --force to replace it"
mirage profile edit a --set description=changed
mirage profile copy a b --force
check "copy --force" 0
mirage profile show b
expect_out "description        = changed"
mirage profile rename b c
check "rename" 0
expect_out "renamed profile 'b' as 'c' ($P/c.ini)"
[ ! -e "$P/b.ini" ] && [ -f "$P/c.ini" ] && ok "the old file is gone, the new one there" ||
	fail "rename left $(ls "$P")"
grep -q '^name = c$' "$P/c.ini" && ok "and the file says its new name" || fail "c.ini: $(cat "$P/c.ini")"
mirage profile rename c c
check "rename onto itself" 2 "'c' and 'c' are the same profile"
mirage profile rename nosuch d
check "rename of a missing profile" 1 "profile 'nosuch' not found in '$P'"
mirage profile copy a B
check "copy to a mixed-case name" 2 "invalid profile name 'B': profiles are stored lowercase"
mirage profile copy a
check "copy without DST" 2
mirage --json profile rename c e
check "rename --json" 0
json_ok "$OUT"
[ "$(json_get "$OUT" "d['name']")" = e ] || fail "rename --json: $(cat "$OUT")"
ok "--json prints the renamed profile"

mirage profile export a -o "$T/a.json"
mirage profile import "$T/a.json"
check "import over an existing profile" 1 "profile 'a' already exists"
expect_err "hint: pass --force to replace it, or --name to import it as another"
mirage profile import "$T/a.json" --name f
check "import --name" 0
expect_out "imported profile 'f' ($P/f.ini)"
mirage profile import "$T/a.json" --name F
check "import --name of a mixed-case name" 2 "invalid profile name 'F'"
mirage profile import "$T/a.json" --force
check "import --force" 0

mirage profile delete -f a e nosuch f
check "delete several, one missing" 1 "profile 'nosuch' not found in '$P'"
expect_out "deleted profile 'a'"
expect_out "deleted profile 'f'"
[ -z "$(ls "$P"/*.ini 2>/dev/null)" ] && ok "every existing one is gone" || fail "left: $(ls "$P")"
mirage profile create g --emulator native
mirage profile create h --emulator native
mirage --json profile delete -f g h
check "delete several --json" 0
json_ok "$OUT"
[ "$(json_get "$OUT" "[x['name'] for x in d if x['deleted']]")" = "['g', 'h']" ] || fail "json: $(cat "$OUT")"
ok "--json gives one object per name"
done_testing
