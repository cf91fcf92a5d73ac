# The repository's comments and docs stand on their own: nothing cites design notes that live
# outside it (spec/*.md, ARCHITECTURE.md), and every docs/*.md that something cites exists.
source "$TEST_LIB"
cd "$MIRAGE_SRC" || fail "cannot cd to $MIRAGE_SRC"
git rev-parse --git-dir >/dev/null 2>&1 || skip_all "not a git checkout: cannot list the tracked files"

# This script names the patterns it looks for, so it is not one of the files it looks at.
mapfile -t files < <(git ls-files --cached --others --exclude-standard | grep -v -e '^fuzz/corpus/' -e '^tests/integration/docs_refs.sh$')
[ ${#files[@]} -gt 0 ] || fail "no tracked files"

outside=$(grep -nE '(^|[^A-Za-z_/])(spec/[a-z_-]+\.md|ARCHITECTURE\.md)' -- "${files[@]}" 2>/dev/null)
assert_eq "$outside" "" "no file cites spec/*.md or ARCHITECTURE.md (they are not in this repository)"

# "the reference" names nothing on its own: it is the reference mirage or its flavour
# (docs/HACKING.md, "Words"), across line breaks too.
undefined=$(perl -0777 -ne 'while (/\b[Tt]he\s+reference\b(?![\s*#]+(?:flavour|mirage|parts|values)\b|s\b)/g) {
	my $n = 1 + (substr($_, 0, pos) =~ tr/\n//); print "$ARGV:$n\n" }' -- "${files[@]}" 2>/dev/null)
assert_eq "$undefined" "" "no file cites an undefined 'the reference' (say the fact, or 'the reference mirage')"

# Nor as an adjective that means the earlier implementation ("the reference convention",
# "reference behaviour"): the reference mirage's convention is said as that.
adjective=$(grep -nE '\b[Rr]eference (convention|behaviou?r|implementation|options?|code|semantics|rules?)\b' -- "${files[@]}" 2>/dev/null)
assert_eq "$adjective" "" "no file uses 'reference' for the reference mirage without naming it"

# Our cross-family code is the translator; "transpiler" is only the reference flavour's COMGR part.
transpiler=$(grep -n -i 'transpil' -- "${files[@]}" 2>/dev/null | grep -v '^docs/discovery.md:.*reference: COMGR')
assert_eq "$transpiler" "" "no file calls the translator a transpiler"

# docs/NAME.md cited anywhere, with the files citing it.
cited=$(grep -ohE 'docs/[A-Za-z0-9_-]+\.md' -- "${files[@]}" 2>/dev/null | sort -u)
# Links inside docs/ are relative to docs/.
cited+=$'\n'$(grep -ohE '\]\([A-Za-z0-9_-]+\.md\)' docs/*.md | sed 's/^](/docs:/; s/)$//' | sort -u)
while IFS= read -r ref; do
	[ -n "$ref" ] || continue
	doc=$ref
	if [ -f "$doc" ]; then
		ok "$doc exists"
	else
		fail "$doc is cited (by $(grep -lF "${doc#docs/}" -- "${files[@]}" | head -3 | tr '\n' ' ')) but does not exist"
	fi
done < <(printf '%s\n' "$cited" | sed 's/^docs[:/]//; /./s/^/docs\//' | sort -u)
done_testing
