# The man pages and help topics, generated from the command table (launcher/cmd_help.c):
# mirage(1) and one mirage-COMMAND(1) per command render cleanly with groff and man -l; each
# page carries every option `mirage COMMAND --help` lists, and its examples; mirage(1) has the
# exit status and the contract's variables; `mirage help X`, `mirage --help X` and `mirage X
# --help` say the same; `cmake --install` puts the pages and the design notes in place.
source "$TEST_LIB"
command -v groff >/dev/null || skip_all "no groff (Debian's groff-base)"

M=$MIRAGE_BIN
PAGES=$TEST_TMP/pages
mkdir -p "$PAGES"
run_capture "$M" __man "$PAGES"
assert_eq "$RUN_STATUS" 0 "mirage __man DIR: exit 0"

# The visible top-level commands, as `mirage --help` lists them.
mapfile -t commands < <("$M" --help | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
assert_ne "${#commands[@]}" 0 "mirage --help lists commands"
for c in "${commands[@]}"; do
	[ -f "$PAGES/mirage-$c.1" ] || fail "no page mirage-$c.1 for the command '$c'"
done
ok "a page for each of the ${#commands[@]} commands"
assert_eq "$(find "$PAGES" -name '*.1' | wc -l)" "$((${#commands[@]} + 1))" "and mirage.1, nothing else"

# Each renders without a groff warning, and man -l shows it.
for p in "$PAGES"/*.1; do
	warn=$(groff -man -Tutf8 -ww -z "$p" 2>&1)
	[ -z "$warn" ] || fail "groff warns on $(basename "$p"): $warn"
	MANWIDTH=100 man -l -P cat "$p" >"$p.txt" 2>"$p.err" || fail "man -l $(basename "$p"): $(cat "$p.err")"
	[ -s "$p.txt" ] || fail "man -l $(basename "$p") shows nothing"
done
ok "every page renders with groff -ww and man -l"

# Every option and example of every command's --help is on its page.
leaf_help() { # WORDS...: the --help of the command the words name
	"$M" "$@" --help
}
checked=0
for c in "${commands[@]}"; do
	page=$PAGES/mirage-$c.1.txt
	subs=$("$M" "$c" --help | sed -n '/^subcommands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
	if [ -n "$subs" ]; then
		# shellcheck disable=SC2086
		list=$(printf "$c:%s " $subs)
	else
		list=$c
	fi
	for words in $list; do
		IFS=: read -r -a w <<<"$words"
		help=$(leaf_help "${w[@]}")
		while read -r opt; do
			grep -qF -- "$opt" "$page" || fail "mirage-$c(1) lacks $opt of 'mirage ${w[*]}'"
		done < <(printf '%s\n' "$help" | sed -n '/^options:/,/^$/p' | grep -o -- '--[a-z[][a-z0-9-]*\]*[a-z0-9-]*')
		printf '%s\n' "$help" | grep -q '^examples:' || fail "'mirage ${w[*]} --help' has no example"
		while read -r ex; do
			grep -qF -- "$ex" "$page" || fail "mirage-$c(1) lacks the example '$ex'"
			# An example uses only options the command has.
			opts=$(printf '%s\n' "$help" | sed -n '/^options:/,/^$/p')
			for o in $(printf '%s\n' "${ex%% -- *}" | grep -o -- ' --[a-z][a-z0-9-]*'); do
				case $o in --json | --verbose | --color | --help) continue ;; esac # global
				printf '%s\n' "$opts" | grep -qE -- "(^| )(${o}|--\[no-\]${o#--})( |$)" ||
					fail "the example '$ex' uses $o, which 'mirage ${w[*]}' does not have"
			done
		done < <(printf '%s\n' "$help" | sed -n '/^examples:/,/^$/p' | sed -n 's/^  \(mirage .*\)/\1/p')
		checked=$((checked + 1))
	done
done
ok "every option and example of $checked commands is on its page, and each has an example"

# mirage(1): the commands, the exit status, the environment of the contract.
main=$PAGES/mirage.1.txt
for c in "${commands[@]}"; do
	grep -q "mirage-$c(1)" "$main" || fail "mirage(1) does not list mirage-$c(1)"
done
for code in 0 1 2; do
	grep -qE "^ +$code\b" "$main" || fail "mirage(1) does not say what exit status $code means"
done
grep -q "128+N" "$main" || fail "mirage(1) does not say how mirage run exits"
for v in $(sed -n 's/^#define HOTSWAP_ENV_[A-Z_]* *"\(HSA_HOTSWAP_[A-Z_]*\)".*/\1/p' "$MIRAGE_SRC/common/hotswap_contract.h"); do
	grep -q "$v" "$main" || fail "mirage(1) does not list $v"
done
ok "mirage(1): the commands, the exit status and every HSA_HOTSWAP_ variable of the contract"

# ---- the help topics ----
for words in "run" "profile create" "cache warm" "emulate"; do
	# shellcheck disable=SC2086
	a=$("$M" help $words) b=$("$M" --help $words) c=$("$M" $words --help)
	[ "$a" = "$c" ] && [ "$b" = "$c" ] || fail "mirage help $words, --help $words and $words --help differ"
done
ok "mirage help X, mirage --help X and mirage X --help say the same"
assert_eq "$("$M" help)" "$("$M" --help)" "mirage help is mirage --help"
run_capture "$M" help nosuch
assert_eq "$RUN_STATUS" 2 "mirage help nosuch: exit 2"
assert_contains "$RUN_STDERR" "unknown command 'nosuch'" "mirage help nosuch: said"
run_capture "$M" help profile creat
assert_eq "$RUN_STATUS" 2 "mirage help profile creat: exit 2"
assert_contains "$RUN_STDERR" "did you mean 'create'?" "mirage help profile creat: the suggestion"
run_capture "$M" --help nosuch
assert_eq "$RUN_STATUS" 2 "mirage --help nosuch: exit 2"

# ---- installed where man finds them, with the notes the messages point to ----
[ -f "$MIRAGE_BUILD/man/cmake_install.cmake" ] || skip_all "no man install rules in $MIRAGE_BUILD"
P=$TEST_TMP/prefix
run_capture cmake --install "$MIRAGE_BUILD/man" --prefix "$P"
assert_eq "$RUN_STATUS" 0 "cmake --install of the man pages"
[ -f "$P/share/man/man1/mirage-run.1" ] || fail "no share/man/man1/mirage-run.1"
MANPATH=$P/share/man MANWIDTH=100 man -P cat mirage-run >"$TEST_TMP/run.txt" 2>&1 ||
	fail "man mirage-run from the prefix: $(cat "$TEST_TMP/run.txt")"
assert_contains "$TEST_TMP/run.txt" "mirage run -p mi300 -- ./app" "man mirage-run finds the installed page"
for d in emulate.md hip.md parallel.md intercept.md; do
	[ -f "$P/share/doc/mirage/$d" ] || fail "no share/doc/mirage/$d"
done
ok "the design notes are installed in share/doc/mirage"
done_testing
