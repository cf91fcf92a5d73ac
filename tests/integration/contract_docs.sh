# The docs list exactly the environment variables of common/hotswap_contract.h: the README's
# table of what the intercept reads, docs/env-contract.md's table of what `mirage run` sets,
# and no HSA_HOTSWAP_* name anywhere (docs, python runtime) that the header does not define.
source "$TEST_LIB"
cd "$MIRAGE_SRC" || fail "cannot cd to $MIRAGE_SRC"
HEADER=common/hotswap_contract.h

# MACRO -> "NAME" for every variable the header defines.
declare -A name_of
while read -r macro value; do
	name_of[$macro]=$value
done < <(sed -nE 's/^#define ((HOTSWAP|MIRAGE)_ENV_[A-Z_]+) +"([A-Z_]+)".*/\1 \3/p' "$HEADER")
[ ${#name_of[@]} -gt 10 ] || fail "$HEADER: found only ${#name_of[@]} variables"
all=$(printf "%s\n" "${name_of[@]}" | grep -v "_$" | sort -u)

# The names of the HOTSWAP_ENV_*/MIRAGE_ENV_* macros in stdin, sorted, unique.
names_of_macros() {
	grep -oE '\b(HOTSWAP|MIRAGE)_ENV_[A-Z_]+\b' | sort -u | while read -r m; do
		[ -n "${name_of[$m]:-}" ] && echo "${name_of[$m]}"
	done | grep -v '^HSA_HOTSWAP_$' | sort -u
}
# The variables in the first cell of each row of the markdown table after heading $2 in $1.
table_vars() {
	awk -v h="$2" 'index($0, h) == 1 { on = 1; next } on && /^#/ { exit } on' "$1" |
		grep -E '^\| `' | cut -d'|' -f2 | grep -oE '`[A-Z_]+' | tr -d '`' | sort -u
}
only_hotswap() { grep -E '^HSA_HOTSWAP_' || true; }

# Every HSA_HOTSWAP_* spelled in the docs or the python runtime is a variable of the header...
spelled=$(grep -ohE 'HSA_HOTSWAP_[A-Z_]*[A-Z]' README.md docs/*.md python/hotswap_py/*.py |
	sort -u)
assert_eq "$(comm -23 <(echo "$spelled") <(echo "$all"))" "" \
	"no HSA_HOTSWAP_* in README.md, docs/ or the python runtime that $HEADER lacks"
# ...and every variable of the header is documented somewhere.
documented=$(cat README.md docs/*.md)
for v in $all; do
	assert_contains "$documented" "$v" "$v is documented in README.md or docs/"
done

# The README's table of what the intercept reads: the variables its C code reads (with the
# disk cache it links, cache/, and the rewriter and translator it loads into the workload).
read_by_intercept=$(cat intercept/*/*.c cache/*.c rewrite/*.c translate/*/*.c | names_of_macros |
	only_hotswap)
assert_eq "$(table_vars README.md '### Variables the intercept reads' | only_hotswap)" \
	"$read_by_intercept" "README's intercept table lists exactly the HSA_HOTSWAP_* it reads"

# docs/env-contract.md's table: what launcher/env_contract.c sets (set_var, soft defaults,
# search lists), HSA_HOTSWAP_* and the tree's own variables.
set_by_launcher=$(grep -E 'set_var\(b, (HOTSWAP|MIRAGE)_ENV_|soft_defaults\[\] =|\[SL_[A-Z_]+\] = \{' \
	launcher/env_contract.c | names_of_macros)
[ -n "$set_by_launcher" ] || fail "found nothing env_contract.c sets"
assert_eq "$(table_vars docs/env-contract.md '## The variables' |
	grep -xF -f <(echo "$all"))" "$set_by_launcher" \
	"docs/env-contract.md's table lists exactly the contract variables mirage run sets"
done_testing
