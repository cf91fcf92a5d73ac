# Hostile cache entries cost nothing: a FIFO planted as an entry never blocks the load, a 3 GiB
# sparse entry is rejected by its size without being read, the debug line says why an entry was
# invalid, and temp files a killed writer left behind are swept once they are stale.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

export STANDIN_ASIC_REV=1 HSA_HOTSWAP_ENTRY_TRAMPOLINES=1 HSA_HOTSWAP_CACHE_DEBUG=1
export HSA_TOOLS_LIB=$INTERCEPT
sha8=$(sha256sum "$HELLO" | cut -c1-8)
invalid="hotswap_cache: invalid (gfx1250 -> gfx1250) kernels=1 $sha8"

load() { # [ENV...]: runs the client on hello.co (20 s at most) with a fresh record dir
	fresh_rec
	run_capture timeout 20 env "$@" "$CLIENT" "$HELLO"
}

load
assert_eq "$RUN_STDERR" "hotswap_cache: miss (gfx1250 -> gfx1250) kernels=1 $sha8" "first load: miss"
entry=$(find "$CACHE" -name '*.co')
key=$(basename "$entry" .co)
sidecar=${entry%.co}.json
cp "$entry" "$TEST_TMP/good.co"
cp "$sidecar" "$TEST_TMP/good.json"
size=$(stat -c %s "$entry")
restore() {
	cp "$TEST_TMP/good.co" "$entry"
	cp "$TEST_TMP/good.json" "$sidecar"
}

# A FIFO as the object or as the sidecar: the load goes on (no writer ever opens it).
for which in co json; do
	restore
	victim=${entry%.co}.$which
	rm -f "$victim"
	mkfifo "$victim"
	load
	assert_eq "$RUN_STATUS" 0 "FIFO as the .$which: the load completes"
	assert_eq "$RUN_STDERR" "$invalid ('$key.$which' is not a regular file of uid $(id -u))" \
		"FIFO as the .$which: invalid, says why"
	assert_has_stubs "$REC/load-1.co" "FIFO as the .$which"
	[ -f "$victim" ] || fail "FIFO as the .$which: not replaced by a real entry"
	ok "FIFO as the .$which: replaced by a real entry"
done

# A 3 GiB sparse object: rejected by fstat, never read (max RSS stays small).
restore
truncate -s 3G "$entry"
fresh_rec
run_capture timeout 20 /usr/bin/time -f 'maxrss_kib=%M' -o "$TEST_TMP/time.out" "$CLIENT" "$HELLO"
assert_eq "$RUN_STATUS" 0 "3 GiB sparse object: the load completes"
assert_eq "$RUN_STDERR" "$invalid ('$key.co' is 3221225472 bytes, its sidecar says $size)" \
	"3 GiB sparse object: invalid, says why"
assert_has_stubs "$REC/load-1.co" "3 GiB sparse object"
rss=$(sed -n 's/^maxrss_kib=//p' "$TEST_TMP/time.out")
[ -n "$rss" ] && [ "$rss" -lt $((1024 * 1024)) ] ||
	fail "3 GiB sparse object: max RSS ${rss:-?} KiB (was it read?)"
ok "3 GiB sparse object: max RSS $rss KiB, under 1 GiB: never read"
assert_eq "$(stat -c %s "$entry")" "$size" "3 GiB sparse object: replaced by the real entry"

# A huge sidecar is not read either; a symlinked entry is not followed.
restore
truncate -s 3G "$sidecar"
load
assert_eq "$RUN_STDERR" "$invalid (cannot read '$key.json': larger than expected)" \
	"3 GiB sidecar: invalid, says why"
restore
mv "$entry" "$TEST_TMP/elsewhere.co"
ln -s "$TEST_TMP/elsewhere.co" "$entry"
load
assert_eq "$RUN_STDERR" "$invalid ('$key.co' is a symbolic link)" "symlinked entry: invalid, says why"
[ -f "$TEST_TMP/elsewhere.co" ] || fail "symlinked entry: its target was removed"
ok "symlinked entry: its target is left alone"

# A writer killed between writing its temp file and renaming it leaves <name>.tmp.* behind.
restore
rm -f "$entry"
if command -v strace >/dev/null && strace -f -qq -e trace=none true 2>/dev/null; then
	fresh_rec
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -o /dev/null -e trace=rename,renameat,renameat2 \
		-e inject=rename,renameat,renameat2:signal=KILL:when=2 "$CLIENT" "$HELLO" \
		2>"$TEST_TMP/kill.err"
	temps=$(find "$CACHE" -name '*.tmp.*' | wc -l)
	assert_eq "$temps" 1 "killed mid-store: one temp file left"
	tmp=$(find "$CACHE" -name '*.tmp.*')
	assert_eq "$(stat -c %a "$tmp")" 600 "temp files are 0600"
	# A fresh leftover may be a live writer's: kept.
	load
	assert_contains "$RUN_STDERR" "hotswap_cache: miss" "after the kill: miss"
	[ -f "$tmp" ] || fail "a fresh temp file was swept"
	ok "a fresh temp file (maybe a live writer's) is kept"
	# Once stale: swept by the next store into its shard; stale links and FIFOs are not touched.
	touch -d '-1 hour' "$tmp"
	ln -s "$TEST_TMP/good.co" "${entry}.tmp.1.1"
	mkfifo "${entry}.tmp.1.2"
	touch -h -d '-1 hour' "${entry}.tmp.1.1" "${entry}.tmp.1.2"
	rm -f "$entry"
	load
	assert_contains "$RUN_STDERR" "hotswap_cache: miss" "stale temp: miss"
	[ -e "$tmp" ] && fail "a stale temp file was not swept"
	ok "a stale temp file is swept"
	[ -L "${entry}.tmp.1.1" ] && [ -p "${entry}.tmp.1.2" ] ||
		fail "a stale symlink or FIFO named *.tmp.* was removed"
	ok "symlinks and FIFOs named *.tmp.* are left alone"
	[ -f "$TEST_TMP/good.co" ] || fail "the symlink's target was removed"
else
	skip "no usable strace: cannot kill a writer mid-store"
fi
done_testing
