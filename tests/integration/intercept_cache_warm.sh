# `mirage cache warm DIR --target gfx942` fills the cache a job's workloads then hit: two
# "array tasks" (--shard 0/2 and 1/2, at once) over a directory of code objects, HIP programs
# built by clang-22 and a HIP library with a compressed bundle translate each object exactly
# once between them; afterwards the stand-in HSA client and the HIP program under `mirage run
# -p mi300` are served from the cache (the same key as the intercept's), `mirage cache
# verify` passes, a gfx1250 + gfx942 program is left alone, a refused kernel is reported, and
# bad paths are named and skipped with exit 1 at the end; bad values exit 2.
source "$TEST_LIB"
source "$(dirname "$0")/hip_lib.sh"
source "$(dirname "$0")/intercept_common.sh"

unset HSA_HOTSWAP_CACHE_DIR
CACHE=$XDG_CACHE_HOME/mirage/hotswap
XLAT_SRC=$FIXTURES/xlat_src.co
export STANDIN_AGENT_GFX=gfx942 HSA_HOTSWAP_CACHE_DEBUG=1
run_capture "$MIRAGE_BIN" profile create mi300 --target gfx942
assert_eq "$RUN_STATUS" 0 "profile mi300 created"
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($1)" "$2"; }

# The objects of a job: code objects, HIP programs, a HIP library, and what is not code.
objs=$TEST_TMP/objs
mkdir -p "$objs/lib" "$objs/bin"
cp "$XLAT_SRC" "$HELLO" "$objs/"
cp "$MIRAGE_BUILD/examples/libvector_add_hip.so" "$objs/lib/"
hip_app "$objs/bin/app" --offload-arch=gfx1250
hip_app "$objs/bin/both" --offload-arch=gfx1250 --offload-arch=gfx942
hip_app "$objs/bin/refused" --offload-arch=gfx1250 -DHIP_APP_REFUSED
echo "not code" >"$objs/README"
mkfifo "$objs/fifo"
ln -s /etc "$objs/etc-link"

# ---- two array tasks at once ----
for i in 0 1; do
	"$MIRAGE_BIN" --json cache warm "$objs" --target gfx942 --shard "$i/2" -j 2 \
		>"$TEST_TMP/task$i.json" 2>"$TEST_TMP/task$i.err" &
	pid[i]=$!
done
for i in 0 1; do
	wait "${pid[i]}"
	assert_eq "$?" 0 "task $i/2 exits 0 ($(head -c 300 "$TEST_TMP/task$i.err"))"
done
python3 - "$TEST_TMP/task0.json" "$TEST_TMP/task1.json" <<'EOF' || fail "the two tasks did not split the work"
import json, sys
t = [json.load(open(p)) for p in sys.argv[1:]]
mine = [{o["origin"]: o["status"] for o in d["objects"] if o["status"] != "other-shard"} for d in t]
both = set(mine[0]) & set(mine[1])
assert not both, f"done by both tasks: {both}"
done = {**mine[0], **mine[1]}
want = {"xlat_src.co": "translated", "hello.co": "translated", "libvector_add_hip.so": "translated",
        "bin/app ": "translated", "bin/refused ": "partial"}
for frag, status in want.items():
    hits = [o for o in done if frag.strip() in o and (frag[-1] != " " or o.split(" (")[0].endswith(frag.strip()))]
    assert hits, f"{frag}: not done by either task ({sorted(done)})"
    assert all(done[o] == status for o in hits), f"{frag}: {[done[o] for o in hits]}, want {status}"
assert not [o for o in done if "bin/both" in o], "the gfx1250 + gfx942 program was not left alone"
assert sum(d["translated"] for d in t) == 4, [d["translated"] for d in t]
EOF
ok "two tasks: each object once, between them (4 translated, 1 partially)"
refused_line=$(python3 -c 'import json,sys
for p in sys.argv[1:]:
    for o in json.load(open(p))["objects"]:
        if o["status"] == "partial": print(o["reason"])' "$TEST_TMP"/task*.json)
assert_contains "$refused_line" "partial: 1 of 2 kernels refused for gfx942, each an entry that traps: 'swapper'" \
	"the partial translation names the kernel that traps"
# --all-kernels keys entries as a profile with all_kernels looks them up: all or nothing.
run_capture "$MIRAGE_BIN" --json cache warm "$objs/bin/refused" --target gfx942 --all-kernels
assert_eq "$RUN_STATUS" 0 "warm --all-kernels: exit 0 (a refusal is reported, not fatal)"
assert_eq "$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["objects"][0]; print(o["status"], "swapper" in o["reason"])' "$RUN_STDOUT_FILE")" \
	"refused True" "warm --all-kernels: the program with a refused kernel is refused whole, named"

# ---- the job: every load is a hit ----
for co in "$XLAT_SRC" "$HELLO"; do
	fresh_rec
	run_capture "$MIRAGE_BIN" run -p mi300 -- "$CLIENT" "$co"
	assert_eq "$RUN_STATUS" 0 "$(basename "$co") under mirage run: exit 0"
	assert_contains "$RUN_STDERR" "hotswap_cache: hit (gfx1250 -> gfx942)" "$(basename "$co"): served the warmed entry"
done
mkdir -p "$TEST_TMP/hiprec"
STANDIN_RECORD_DIR=$TEST_TMP/hiprec run_capture "$MIRAGE_BIN" run -p mi300 -- "$objs/bin/app"
assert_eq "$RUN_STATUS" 0 "the HIP program under mirage run: exit 0"
assert_contains "$RUN_STDERR" "hotswap_cache: hit (gfx1250 -> gfx942) kernels=1" "the HIP program: served the warmed entry"
assert_not_contains "$RUN_STDERR" "hotswap_cache: miss" "the HIP program: nothing translated at run time"
run_capture "$MIRAGE_BIN" cache verify
assert_eq "$RUN_STATUS/$RUN_STDOUT" "0/5 entries: 5 good, 0 bad" "cache verify passes (the partial translation too)"

# ---- warm again: all cached; text output ----
run_capture "$MIRAGE_BIN" cache warm "$objs/xlat_src.co" --target gfx942
assert_eq "$RUN_STATUS" 0 "warm again: exit 0"
assert_contains "$RUN_STDOUT" "cached     $objs/xlat_src.co (2 kernels)" "warm again: cached"
assert_contains "$RUN_STDOUT" "warm: 1 code objects for gfx942: 0 translated, 0 partially (refused kernels trap), 1 already cached" "warm again: the summary"
assert_not_contains "$RUN_STDERR" "mirage: warm:" "stderr a pipe: no status line"

# ---- strictness is part of the key: --no-strict warms for a --no-strict profile ----
run_capture "$MIRAGE_BIN" profile create lenient --target gfx942 --no-strict
assert_eq "$RUN_STATUS" 0 "profile lenient (gfx942, not strict) created"
fresh_rec
run_capture "$MIRAGE_BIN" run -p lenient -- "$CLIENT" "$HELLO"
assert_contains "$RUN_STDERR" "hotswap_cache: miss (gfx1250 -> gfx942)" "a strict warm does not serve a lenient profile"
run_capture "$MIRAGE_BIN" cache warm "$objs/xlat_src.co" --target gfx942 --no-strict
assert_contains "$RUN_STDOUT" "translated $objs/xlat_src.co (2 kernels)" "warm --no-strict: a new entry"
fresh_rec
run_capture "$MIRAGE_BIN" run -p lenient -- "$CLIENT" "$XLAT_SRC"
assert_contains "$RUN_STDERR" "hotswap_cache: hit (gfx1250 -> gfx942)" "warm --no-strict: the lenient profile's load is a hit"

# ---- --profile: the target, strictness and cache directory mirage run gives the workloads ----
run_capture "$MIRAGE_BIN" profile create shared --target gfx942 --no-strict --cache-dir "$TEST_TMP/shared-cache"
assert_eq "$RUN_STATUS" 0 "profile shared (gfx942, not strict, its own cache_dir) created"
run_capture "$MIRAGE_BIN" cache warm --profile shared "$objs/xlat_src.co"
assert_eq "$RUN_STATUS" 0 "warm --profile shared: exit 0 ($RUN_STDERR)"
assert_contains "$RUN_STDOUT" "translated $objs/xlat_src.co (2 kernels)" "warm --profile: translated for the profile"
assert_contains "$RUN_STDOUT" "code objects for gfx942" "warm --profile: the profile's target"
assert_eq "$(find "$TEST_TMP/shared-cache" -name '*.co' | wc -l)" 1 "warm --profile: stored in the profile's cache_dir"
fresh_rec
run_capture "$MIRAGE_BIN" run -p shared -- "$CLIENT" "$XLAT_SRC"
assert_contains "$RUN_STDERR" "hotswap_cache: hit (gfx1250 -> gfx942)" "warm --profile: the profile's load is a hit"
# Options given as well win over the profile's.
run_capture "$MIRAGE_BIN" cache warm --profile shared --strict --dir "$TEST_TMP/other-cache" "$objs/xlat_src.co"
assert_eq "$RUN_STATUS" 0 "warm --profile --strict --dir: exit 0"
assert_eq "$(find "$TEST_TMP/other-cache" -name '*.co' | wc -l)" 1 "warm --profile --dir: --dir wins"
run_capture "$MIRAGE_BIN" profile create anygpu
run_capture "$MIRAGE_BIN" cache warm --profile anygpu "$objs/xlat_src.co"
assert_eq "$RUN_STATUS" 2 "warm --profile with target auto: exit 2"
assert_contains "$RUN_STDERR" "--profile: 'anygpu' has target auto, chosen from the GPU a job runs on; say which with --target" \
	"warm --profile with target auto: says why"
assert_contains "$RUN_STDERR" "hint: mirage cache warm --profile anygpu --target gfx942 PATH..." "and how"
run_capture "$MIRAGE_BIN" cache warm --profile anygpu --target gfx950 "$objs/xlat_src.co" --dir "$TEST_TMP/other-cache"
assert_contains "$RUN_STDOUT" "code objects for gfx950" "warm --profile (auto) --target gfx950: the given target"
run_capture "$MIRAGE_BIN" profile create plain --emulator native
run_capture "$MIRAGE_BIN" cache warm --profile plain "$objs/xlat_src.co"
assert_eq "$RUN_STATUS" 2 "warm --profile of a native profile: exit 2"
assert_contains "$RUN_STDERR" "--profile: 'plain' is not a HotSwap profile" "warm --profile of a native profile: says why"
run_capture "$MIRAGE_BIN" cache warm --profile nosuch "$objs/xlat_src.co"
assert_eq "$RUN_STATUS" 1 "warm --profile nosuch: exit 1"
assert_contains "$RUN_STDERR" "profile 'nosuch' not found" "warm --profile nosuch: says so"

# ---- a terminal gets a status line, redrawn in place ----
run_capture script -qec "$(printf '%q ' "$MIRAGE_BIN" cache warm "$objs/xlat_src.co" --target gfx942)" /dev/null
assert_contains "$RUN_STDOUT" "mirage: warm: 1 of 1 code objects (0 translated)" "a terminal: the status line"

# ---- bad paths: named, skipped, exit 1 at the end ----
run_capture "$MIRAGE_BIN" cache warm "$objs/xlat_src.co" "$TEST_TMP/nosuch" "$objs/fifo" "$objs/README" --target gfx942
assert_eq "$RUN_STATUS" 1 "bad paths: exit 1"
assert_contains "$RUN_STDERR" "warning: $TEST_TMP/nosuch: skipped: No such file or directory" "a missing path"
assert_contains "$RUN_STDERR" "warning: $objs/fifo: skipped: not a regular file or a directory" "a FIFO, never opened"
assert_contains "$RUN_STDERR" "warning: $objs/README: skipped: not a code object, an offload bundle or a HIP program" "a file of something else"
assert_contains "$RUN_STDERR" "mirage: 2 paths skipped (named above)" "the count at the end"
assert_contains "$RUN_STDOUT" "cached     $objs/xlat_src.co" "and the good path is still done"

# ---- bad values ----
printf 'x' >"$TEST_TMP/afile"
while IFS='|' read -r desc want args; do
	# shellcheck disable=SC2086
	run_capture "$MIRAGE_BIN" cache warm "$objs" $args
	assert_eq "$RUN_STATUS" "${want%% *}" "$desc: exit ${want%% *}"
	assert_contains "$RUN_STDERR" "${want#* }" "$desc: said"
done <<EOF
no target|2 --target ISA (gfx942 or gfx950) or --profile NAME is required
a target with no translation|2 --target: 'gfx1250' is not a translation target (gfx942 or gfx950)|--target gfx1250
--shard 5/4|2 --shard: '5/4' is not I/N with 0 <= I < N|--target gfx942 --shard 5/4
--shard 0/0|2 --shard: '0/0' is not I/N with 0 <= I < N|--target gfx942 --shard 0/0
--jobs 0|2 --jobs: '0' is not a number from 1 to 256|--target gfx942 --jobs 0
a cache dir that is a file|1 is not a directory|--target gfx942 --dir $TEST_TMP/afile
EOF
done_testing
