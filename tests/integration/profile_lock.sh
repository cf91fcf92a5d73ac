# Concurrent edits of one profile: the store lock keeps every change; a planted lock is refused.
source "$(dirname "$0")/cli_lib.sh"
export MIRAGE_CONFIG="$T/cfg"
P="$MIRAGE_CONFIG/profiles"

mirage profile create race --emulator native
check "setup" 0

# 32 editors, each adding its own variable: without the lock most changes are lost.
N=32
for i in $(seq $N); do
	("$MIRAGE_BIN" profile edit race --set "env.K$i=v$i" >"$T/out.$i" 2>"$T/err.$i" </dev/null
		echo $? >"$T/rc.$i") &
done
wait
for i in $(seq $N); do
	[ "$(cat "$T/rc.$i")" -eq 0 ] || fail "editor $i exited $(cat "$T/rc.$i"): $(cat "$T/err.$i")"
done
ok "all $N concurrent edits exit 0"
mirage --json profile show race
check "the edited profile parses" 0
kept=$(json_get "$OUT" "sum(1 for i in range(1, $N + 1) if d['env'].get(f'K{i}') == f'v{i}')")
[ "$kept" -eq "$N" ] || fail "only $kept of $N concurrent edits survived"
ok "every one of $N concurrent edits survived"

# Concurrent deletes and edits: an edit never brings a deleted profile back.
for round in 1 2 3 4 5; do
	mirage profile create gone --emulator native
	for i in 1 2 3 4; do
		"$MIRAGE_BIN" profile edit gone --set "env.E$i=x" >/dev/null 2>&1 </dev/null &
	done
	"$MIRAGE_BIN" profile delete gone -f >/dev/null 2>"$T/del.err" </dev/null
	rc=$?
	wait
	[ "$rc" -eq 0 ] || fail "round $round: delete exited $rc: $(cat "$T/del.err")"
	[ ! -e "$P/gone.ini" ] || fail "round $round: an edit brought the deleted profile back"
done
ok "an edit racing a delete never resurrects the profile"

# An editor waits for the lock's holder instead of writing past it.
mkfifo "$T/release"
flock "$P/.lock" sh -c 'read x <"$0"' "$T/release" &
holder=$!
sleep 0.2
"$MIRAGE_BIN" profile edit race --set description=waited >"$T/w.out" 2>"$T/w.err" </dev/null &
editor=$!
sleep 0.5
kill -0 "$editor" 2>/dev/null || fail "the edit did not wait for the lock holder"
grep -qF "description = waited" "$P/race.ini" && fail "the edit wrote while another held the lock"
echo go >"$T/release"
wait "$holder"
wait "$editor" || fail "the waiting edit failed: $(cat "$T/w.err")"
expect_file_has "$P/race.ini" "description = waited"
ok "an edit waits for the lock's holder, then writes"

# A lock file planted as a symlink is refused, and what it points at is left alone.
rm -f "$P/.lock"
ln -s "$T/victim" "$P/.lock"
mirage profile edit race --set description=planted
check "a symlinked lock file is refused" 1 "cannot lock the profiles: '$P/.lock' is a symbolic link"
expect_err "hint: remove '$P/.lock'; mirage makes it again"
[ ! -e "$T/victim" ] || fail "the lock followed the planted symlink"
ok "the symlink's target was not created"
rm -f "$P/.lock"
mkfifo "$P/.lock"
run timeout 10 "$MIRAGE_BIN" profile edit race --set description=fifo
check "a FIFO as the lock file is refused without blocking" 1 "'$P/.lock' is not a regular file"
rm -f "$P/.lock"
mirage profile edit race --set description=again
check "the lock is made again once the planted one is gone" 0
done_testing
