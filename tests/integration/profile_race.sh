# Of many concurrent creates of one name, exactly one wins and the file is whole.
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
N=16
for i in $(seq $N); do
	("$MIRAGE_BIN" profile create race --emulator native --description "writer $i" \
		>"$T/out.$i" 2>"$T/err.$i"; echo $? >"$T/rc.$i") &
done
wait
wins=0
for i in $(seq $N); do
	rc=$(cat "$T/rc.$i")
	if [ "$rc" -eq 0 ]; then
		wins=$((wins + 1))
		winner=$i
	else
		[ "$rc" -eq 1 ] || fail "writer $i exited $rc"
		grep -qF "profile 'race' already exists at" "$T/err.$i" || fail "writer $i: $(cat "$T/err.$i")"
	fi
done
[ "$wins" -eq 1 ] || fail "$wins creates won, expected exactly 1"
ok "exactly one of $N racing creates won"
mirage profile show race --json
check "the winner's profile parses" 0
[ "$(json_get "$OUT" "d['description']")" = "writer $winner" ] || fail "the file is not the winner's"
ok "the stored profile is the winner's, whole"
[ "$(ls -A "$MIRAGE_CONFIG/profiles")" = "race.ini" ] || fail "temp files left: $(ls -A "$MIRAGE_CONFIG/profiles")"
ok "no temporary files left"
done_testing
