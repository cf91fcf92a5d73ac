# A profile whose source and target have no route (common/gfx_route.h) is refused where it is
# made (create, edit, import: exit 2, naming the pair and the routes that exist) and failed by
# doctor when a file written by hand holds one; emulators lists only the targets with a route.
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
P="$MIRAGE_CONFIG/profiles"
routes="hint: the routes mirage has: gfx1250 -> gfx942, gfx1250 -> gfx950, gfx1250 -> gfx1250, gfx1251 -> gfx1251"

mirage profile create g51 --target gfx1251
check "gfx1250 code onto gfx1251 is refused" 2 "profile 'g51': there is no route from gfx1250 code to gfx1251"
expect_err "$routes"
[ ! -e "$P/g51.ini" ] || fail "a refused profile was written"
mirage profile create g51 --source-target gfx1251:32 --target gfx942
check "gfx1251 code onto gfx942 is refused" 2 "there is no route from gfx1251 code to gfx942"
mirage profile create g42 --source-target gfx942:64 --target gfx1250
check "gfx942 code onto gfx1250 is refused" 2 "there is no route from gfx942 code to gfx1250"
mirage profile create own --source-target gfx1251:32 --target gfx1251
check "gfx1251 onto itself is a route" 0
mirage profile create ok --target gfx942
check "gfx1250 onto gfx942 is a route" 0
mirage profile create nat --emulator native --target gfx1251
check "a native profile has no route to check" 0

mirage profile edit ok --set target=gfx1251
check "edit to a pair without a route" 2 "profile 'ok': there is no route from gfx1250 code to gfx1251"
grep -q '^target = gfx942$' "$P/ok.ini" || fail "a refused edit changed the file"
mirage profile edit own --set source_target=gfx1250:32
check "edit of the source to a pair without a route" 2 "there is no route from gfx1250 code to gfx1251"

printf '{"name": "imp", "emulator": "hotswap", "hotswap": {"target": "gfx1251"}}\n' >"$T/imp.json"
mirage profile import "$T/imp.json"
check "import of a pair without a route" 2 "profile 'imp': there is no route from gfx1250 code to gfx1251"
[ ! -e "$P/imp.ini" ] || fail "a refused import was written"

# A file edited by hand: doctor fails the profile with the same words.
sed 's/^name = ok$/name = hand/; s/^target = gfx942$/target = gfx1251/' "$P/ok.ini" >"$P/hand.ini"
mirage doctor --profile hand
check "doctor fails a profile without a route" 1
expect_out "FAIL  profile 'hand': there is no route from gfx1250 code to gfx1251"
mirage run -p hand -- true
check "run refuses a profile without a route before the workload starts" 1 \
	"profile 'hand': there is no route from gfx1250 code to gfx1251"

mirage emulators
check "emulators" 0
expect_out "runs gfx1250 code on gfx942, gfx950, gfx1250"
done_testing
