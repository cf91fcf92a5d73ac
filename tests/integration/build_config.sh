# How the build compiles: each rewriter source once (the .so and its testable twin share the
# objects), and -Werror only when MIRAGE_WERROR asks for it (the presets do, a plain cmake not).
source "$TEST_LIB"

cc_json=$MIRAGE_BUILD/compile_commands.json
[ -f "$cc_json" ] || skip_all "no $cc_json (CMAKE_EXPORT_COMPILE_COMMANDS is on in the tree)"

# compiled DB SOURCE-DIR: "<count> <file>" per C source under SOURCE-DIR in that database.
compiled() {
	python3 - "$1" "$2" <<'PY'
import collections, json, os, sys
db, under = sys.argv[1], os.path.realpath(sys.argv[2]) + "/"
n = collections.Counter(os.path.realpath(os.path.join(e["directory"], e["file"]))
                        for e in json.load(open(db)))
for f in sorted(os.listdir(under)):
    if f.endswith(".c"):
        print(n[under + f], f)
PY
}

run_capture compiled "$cc_json" "$MIRAGE_SRC/rewrite/"
[ -n "$RUN_STDOUT" ] || fail "no rewrite/ sources in $cc_json"
twice=$(printf '%s\n' "$RUN_STDOUT" | awk '$1 != 1')
assert_eq "$twice" "" "every rewrite/ source is compiled exactly once"

# werror_count DB: how many compile commands carry -Werror, out of how many.
werror_count() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(sum("-Werror" in (e.get("command") or " ".join(e.get("arguments", []))).split() for e in d), len(d))' "$1"
}
read -r with all < <(werror_count "$cc_json")
# MIRAGE_WERROR is what this build was configured with (the presets say ON).
werror=$(sed -n 's/^MIRAGE_WERROR:BOOL=//p' "$MIRAGE_BUILD/CMakeCache.txt")
case $werror in
ON) assert_eq "$with" "$all" "MIRAGE_WERROR=ON: every compile command has -Werror" ;;
*) assert_eq "$with" 0 "MIRAGE_WERROR=${werror:-unset}: no compile command has -Werror" ;;
esac

# A packager's plain configure, no preset: warnings stay warnings.
plain=$TEST_TMP/plain
run_capture cmake -G Ninja -S "$MIRAGE_SRC" -B "$plain" -DMIRAGE_BUILD_BENCH=OFF
assert_eq "$RUN_STATUS" 0 "plain cmake configure succeeds"
read -r with all < <(werror_count "$plain/compile_commands.json")
[ "$all" -gt 0 ] || fail "plain configure wrote no compile commands"
assert_eq "$with" 0 "plain cmake: no compile command has -Werror"
assert_contains "$plain/CMakeCache.txt" "MIRAGE_WERROR:BOOL=OFF" "MIRAGE_WERROR defaults to OFF"
done_testing
