# `mirage cache stats|verify|prune|clear` on a translation cache the intercept filled (the
# stand-in HSA client under `mirage run` on a gfx942 agent, this build's translator): the
# counts and bytes against find(1), a corrupted entry found by verify and removed by --fix
# (the next load translates again), prune by age and by size (oldest first), clear (entries,
# locks and leftovers), and the refusals: an untrusted root, bad sizes and ages.
source "$TEST_LIB"
source "$(dirname "$0")/intercept_common.sh"

unset HSA_HOTSWAP_CACHE_DIR
CACHE=$XDG_CACHE_HOME/mirage/hotswap
XLAT_SRC=$FIXTURES/xlat_src.co
export STANDIN_AGENT_GFX=gfx942 HSA_HOTSWAP_CACHE_DEBUG=1
run_capture "$MIRAGE_BIN" profile create mi300 --target gfx942
assert_eq "$RUN_STATUS" 0 "profile mi300 created"
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$RUN_STDOUT_FILE"; }

run_capture "$MIRAGE_BIN" paths --json
assert_eq "$(json 'd["translation_cache"]')" "$CACHE" "mirage paths names the cache mirage run fills"

# ---- an empty cache ----
run_capture "$MIRAGE_BIN" cache stats
assert_eq "$RUN_STATUS" 0 "stats of no cache: exit 0"
assert_contains "$RUN_STDOUT" "cache:   $CACHE (not created yet)" "stats of no cache: said"
assert_contains "$RUN_STDOUT" "entries: 0, 0 bytes" "stats of no cache: 0 entries"
run_capture "$MIRAGE_BIN" cache verify
assert_eq "$RUN_STATUS/$RUN_STDOUT" "0/0 entries: 0 good, 0 bad" "verify of no cache"

# ---- two entries, made by the intercept ----
for co in "$XLAT_SRC" "$HELLO"; do
	fresh_rec
	run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" "$co"
	assert_eq "$RUN_STATUS" 0 "the client loads $(basename "$co")"
done
bytes=$(find "$CACHE" \( -name '*.co' -o -name '*.json' \) -printf '%s\n' | awk '{s += $1} END {print s}')
run_capture "$MIRAGE_BIN" --json cache stats
assert_eq "$RUN_STATUS" 0 "stats --json: exit 0"
assert_eq "$(json 'd["entries"], d["bytes"], d["exists"]')" "2 $bytes True" "stats --json: 2 entries, the bytes find(1) counts"
assert_eq "$(json 'd["by_target"]["gfx942"]["entries"]')" 2 "stats --json: both for gfx942"
run_capture "$MIRAGE_BIN" cache stats
assert_contains "$RUN_STDOUT" "entries: 2, " "stats: 2 entries"
assert_contains "$RUN_STDOUT" "  gfx942: 2, " "stats: by target"
run_capture "$MIRAGE_BIN" cache verify
assert_eq "$RUN_STATUS/$RUN_STDOUT" "0/2 entries: 2 good, 0 bad" "verify: both good"

# ---- a corrupted entry ----
victim=$(find "$CACHE" -name '*.co' | head -1)
key=$(basename "$victim" .co)
python3 -c 'import sys; p = sys.argv[1]; d = bytearray(open(p, "rb").read()); d[100] ^= 1; open(p, "wb").write(d)' "$victim"
run_capture "$MIRAGE_BIN" cache verify
assert_eq "$RUN_STATUS" 1 "verify: a corrupted entry exits 1"
assert_contains "$RUN_STDOUT" "bad: ${key:0:16}: '$key.co' does not match its sidecar's output_sha256" "verify: names it and why"
assert_contains "$RUN_STDOUT" "2 entries: 1 good, 1 bad (--fix removes them)" "verify: the summary"
assert_contains "$RUN_STDERR" "mirage: 1 bad entry left in the cache" "verify: the failure"
[ -f "$victim" ] && ok "verify alone removes nothing" || fail "verify removed the entry"
run_capture "$MIRAGE_BIN" --json cache verify --fix
assert_eq "$RUN_STATUS" 0 "verify --fix: exit 0"
assert_eq "$(json 'd["good"], len(d["bad"]), d["bad"][0]["removed"]')" "1 1 True" "verify --fix --json: removed"
[ ! -e "$victim" ] && [ ! -e "${victim%.co}.json" ] && ok "verify --fix: the object and its sidecar are gone" ||
	fail "verify --fix left the entry"

# ---- prune ----
run_capture "$MIRAGE_BIN" cache prune --older-than 1d
assert_eq "$RUN_STATUS/$RUN_STDOUT" "0/removed 0 of 1 entries (0 bytes); $(
	find "$CACHE" \( -name '*.co' -o -name '*.json' \) -printf '%s\n' | awk '{s += $1} END {print s}') bytes left" \
	"prune --older-than 1d: nothing that young"
left=$(find "$CACHE" -name '*.co')
touch -d '3 days ago' "$left"
run_capture "$MIRAGE_BIN" cache prune --older-than 2d
assert_contains "$RUN_STDOUT" "removed 1 of 1 entries" "prune --older-than 2d: the old entry"
for co in "$XLAT_SRC" "$HELLO"; do
	run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" "$co"
done
assert_contains "$RUN_STDERR" "hotswap_cache: miss" "after prune: the next load translates again"
first=$(find "$CACHE" -name '*.co' -printf '%T@ %p\n' | sort -n | head -1 | cut -d' ' -f2)
touch -d '1 hour ago' "$first"
run_capture "$MIRAGE_BIN" --json cache prune --max-size 1
assert_eq "$(json 'd["removed"], d["entries_left"], d["bytes_left"]')" "2 0 0" "prune --max-size 1: everything"
for co in "$XLAT_SRC" "$HELLO"; do run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" "$co"; done
first=$(find "$CACHE" -name '*.co' -printf '%T@ %p\n' | sort -n | head -1 | cut -d' ' -f2)
touch -d '1 hour ago' "$first"
one=$(find "$CACHE" -name '*.co' -newer "$first" -printf '%s\n')
run_capture "$MIRAGE_BIN" --json cache prune --max-size $((one + 4096))
assert_eq "$(json 'd["removed"], d["entries_left"]')" "1 1" "prune --max-size: the oldest goes first"
[ ! -e "$first" ] && ok "prune --max-size: the older one is the one removed" || fail "prune removed the newer entry"
for bad in 0 lots 1Q; do
	run_capture "$MIRAGE_BIN" cache prune --max-size "$bad"
	assert_eq "$RUN_STATUS" 2 "prune --max-size $bad: exit 2"
	assert_contains "$RUN_STDERR" "--max-size: '$bad' is not a size" "prune --max-size $bad: said"
done
for bad in 3w -1d d 10dd; do
	run_capture "$MIRAGE_BIN" cache prune --older-than "$bad"
	assert_eq "$RUN_STATUS" 2 "prune --older-than $bad: exit 2"
	assert_contains "$RUN_STDERR" "--older-than: '$bad' is not an age" "prune --older-than $bad: said"
done

# ---- clear ----
: >"$(dirname "$(find "$CACHE" -name '*.co' | head -1)")/$(printf 'a%.0s' {1..64}).json.tmp.1.2"
nfiles=$(find "$CACHE" -type f | wc -l)
run_capture "$MIRAGE_BIN" cache clear
assert_eq "$RUN_STATUS/$RUN_STDOUT" "0/removed $nfiles files from $CACHE" "clear: every file of ours ($nfiles)"
assert_eq "$(find "$CACHE" -mindepth 1 | wc -l)" 0 "clear: the root is empty (shards too)"
run_capture "$MIRAGE_BIN" cache stats
assert_contains "$RUN_STDOUT" "entries: 0, 0 bytes" "after clear: 0 entries"

# ---- refusals ----
chmod 777 "$CACHE"
run_capture "$MIRAGE_BIN" cache stats
assert_eq "$RUN_STATUS" 1 "a group-writable root: exit 1"
assert_contains "$RUN_STDERR" "mirage: cache root '$CACHE' is writable by group or other (mode 777)" "a group-writable root: said"
assert_contains "$RUN_STDERR" "hint: the intercept bypasses such a cache too" "a group-writable root: the hint"
chmod 700 "$CACHE"
mkdir -p "$CACHE/ab" && chmod 777 "$CACHE/ab"
run_capture "$MIRAGE_BIN" cache stats
assert_eq "$RUN_STATUS" 0 "an untrusted shard: stats still runs"
assert_contains "$RUN_STDERR" "warning: 1 shard(s) left out: shard 'ab' is writable by group or other" "an untrusted shard: said"
done_testing
