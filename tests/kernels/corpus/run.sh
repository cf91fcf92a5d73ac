#!/usr/bin/env bash
# Runs the corpus that corpus.sh built: every kernel the raiser raises goes through `mirage
# emulate` and through POCL (the same hashcat source built by pocl_ref with hashcat's options,
# hashcat_options.sh, and prelude.h as its prelude) on one generated launch
# (launch_gen.py says the input policy), and every output buffer is compared byte for byte
# (tools/kernel_compare, type u8: bit-exact, no tolerance).  With --translate TARGET each object
# is first translated (`mirage --json rewrite OBJ -o OUT --target TARGET`, once, kept in
# OUT/translate/) and mirage emulate runs the translated object, on the launch made from the
# source's metadata, while POCL still runs the source.  Each kernel is one of (the one list):
#   correct         every output buffer agrees
#   mismatch        some byte differs (the first differing buffer[offset] is the detail)
#   emulate-fault   mirage emulate exits 1: a refusal, a fault or a convergence violation
#   emulate-timeout mirage emulate ran out of --timeout
#   pocl-failure    POCL could not build or run it (or timed out): not judged, counted apart
#   refused         the raiser refuses it (not run; mirage raise --json's reason)
#   translate-refused  with --translate, its object did not translate whole (not run; the
#                   kernel's own reason, or "another kernel of the object was refused: ...")
#   launch-error    no launch could be made for it, or a tool refused the launch (exit 2)
# Rows in OUT/results.tsv (also OUT/rows/, one per kernel as each finishes, so an interrupted
# run resumes), the figures in OUT/summary.txt and on stdout.  A mismatching kernel keeps its
# launch and both outputs in OUT/work/OBJECT.KERNEL; the others keep only the launch and the logs.
#
# usage: run.sh [--corpus DIR] [--out DIR] [--limit N] [--filter GLOB] [--kernels GLOB]
#               [--grid N] [--timeout S] [--jobs N] [--translate TARGET] [--mirage PATH]
#               [--tools DIR] [--summary]
#   --corpus DIR    what corpus.sh built (default: build/corpus in the source tree)
#   --out DIR       where results go (default: CORPUS/run, CORPUS/run-TARGET with --translate)
#   --limit N       only the first N code objects (sorted by name) that match --filter
#   --filter GLOB   code object names to take, without .co (default: every one)
#   --kernels GLOB  kernel names to run (default: every one)
#   --grid N        work-items per launch (default 128)
#   --timeout S     seconds for each of mirage emulate and POCL, and mirage rewrite (default 300)
#   --jobs N        kernels run in parallel (default 1)
#   --translate T   run each object translated for T (gfx942 or gfx950) instead of the source
#   --mirage PATH   the mirage to run (default: build/bin/mirage in the source tree)
#   --tools DIR     where pocl_ref and kernel_compare are (default: build/tests/kernels/bin)
#   --summary       only gather the rows already run into results.tsv and summary.txt
# Exit 0 with the summary; 1 when there is no code object, pocl_ref / kernel_compare is
# missing or OUT holds a run for another target; 2 on a bad command line.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src_root=$(cd "$here/../../.." && pwd)
corpus=$src_root/build/corpus
out=
limit=
filter='*'
kernels='*'
grid=128
timeout_s=300
jobs=1
mirage=$src_root/build/bin/mirage
tools=$src_root/build/tests/kernels/bin
summary_only=
translate=
hashcat=/usr/share/hashcat/OpenCL
readelf=${LLVM_READELF:-llvm-readelf-22}

# shellcheck source-path=SCRIPTDIR source=hashcat_options.sh
. "$here/hashcat_options.sh"

usage() {
	sed -n 's/^# \{0,1\}//;/^usage:/,/^Exit/p' "$0" | sed '$d' >&2
	exit 2
}

# One kernel's row, OUT/rows/OBJECT.KERNEL.tsv (hashcat reuses kernel names across attacks).
row() { # kernel object status detail changed emulate_s pocl_s
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" | tr -d '\r' >"$out/rows/$2.$1.tsv.tmp"
	mv "$out/rows/$2.$1.tsv.tmp" "$out/rows/$2.$1.tsv"
}

# The first message line of a tool's stderr, without its "tool: " / "error: " prefixes.
first_error() {
	grep -m1 -vE '^(hint|note):|^=+$|^ *$' "$1" | sed -E 's/^[a-z_]+: //; s/^error: //' | cut -c1-160
}

# "yes" when some output of the emulate run differs from the buffer's initial bytes.
outputs_changed() {
	local dir=$1 name init size f outputs
	mapfile -t outputs < <(python3 -c 'import json, sys
for n, b in json.load(open(sys.argv[1]))["buffers"].items():
    if "output" in b: print(n, b["init"], b["size"], sep="\t")' "$dir/launch.json")
	for f in "${outputs[@]}"; do
		IFS=$'\t' read -r name init size <<<"$f"
		f=$dir/emulate/$name.bin
		case $init in
		zero) cmp -s -n "$size" "$f" /dev/zero || { echo yes; return; } ;;
		file:*) cmp -s "$f" "$dir/${init#file:}" || { echo yes; return; } ;;
		*) echo yes; return ;;
		esac
	done
	echo no
}

# One kernel: launch, emulate, POCL, compare; its row.
# With --translate, mirage emulate runs the translated object, on the source's launch.
run_one() {
	local co=$1 kernel=$2 object dir run_co t0 t1 t2 erc=0 prc=0 crc=0 status detail changed=-
	object=$(basename "$co" .co)
	dir=$out/work/$object.$kernel
	run_co=$co
	[ -z "$translate" ] || run_co=$out/translate/$object.co
	rm -rf "$dir"
	mkdir -p "$dir/emulate" "$dir/pocl"
	if ! python3 "$here/launch_gen.py" "$out/notes/$object.txt" "$kernel" "$run_co" "$dir" \
		"$grid" 2>"$dir/launch_gen.log"; then
		row "$kernel" "$object" launch-error "$(first_error "$dir/launch_gen.log")" - - -
		return
	fi
	t0=$(date +%s.%N)
	timeout -k 10 "$timeout_s" "$mirage" emulate "$dir/launch.json" \
		>"$dir/emulate.log" 2>&1 || erc=$?
	t1=$(date +%s.%N)
	hashcat_options "$object" "$hashcat"
	# POCL's compiler (LLVM 15) leaks what it allocates for a build: no leak check on a
	# sanitizer build's pocl_ref.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		POCL_CACHE_DIR=$out/pocl-cache timeout -k 10 "$timeout_s" "$tools/pocl_ref" \
		"$dir/launch.json" --output-dir "$dir/pocl" --source "$hashcat/$object.cl" \
		--prelude "$here/prelude.h" --build-options "${hashcat_opts[*]}" \
		>"$dir/pocl.log" 2>&1 || prc=$?
	t2=$(date +%s.%N)
	if [ "$prc" -ne 0 ]; then
		status=pocl-failure
		case $prc in
		124 | 137) detail=timeout ;;
		2) status=launch-error detail="pocl_ref: $(first_error "$dir/pocl.log")" ;;
		*) if [ "$prc" -gt 128 ]; then
			detail="crash (signal $((prc - 128)))"
		elif grep -q 'build failed' "$dir/pocl.log"; then
			detail="build: $(grep -m1 'error:' "$dir/pocl.log" | sed -E 's/^.*error: //' | cut -c1-120)"
		else
			detail="run: $(first_error "$dir/pocl.log")"
		fi ;;
		esac
	elif [ "$erc" -eq 124 ] || [ "$erc" -eq 137 ]; then
		status=emulate-timeout detail="over ${timeout_s}s"
	elif [ "$erc" -eq 2 ]; then
		status=launch-error detail="mirage emulate: $(first_error "$dir/emulate.log")"
	elif [ "$erc" -ne 0 ]; then
		status=emulate-fault detail=$(first_error "$dir/emulate.log")
		[ "$erc" -eq 1 ] || detail="exit $erc: $detail"
	else
		"$tools/kernel_compare" "$dir/launch.json" "$dir/check.json" "$dir/emulate" \
			"$dir/pocl" >"$dir/compare.log" 2>&1 || crc=$?
		changed=$(outputs_changed "$dir")
		case $crc in
		0) status=correct detail= ;;
		1) status=mismatch
			detail=$(grep -m1 -E '^kernel_compare: buffers\.[^ ]*\[' "$dir/compare.log" |
				sed -E 's/^kernel_compare: //') ;;
		*) status=launch-error detail="kernel_compare: $(first_error "$dir/compare.log")" ;;
		esac
	fi
	[ "$status" = mismatch ] || rm -rf "$dir/emulate" "$dir/pocl" "$dir"/*.bin
	row "$kernel" "$object" "$status" "$detail" "$changed" \
		"$(printf '%.1f' "$(echo "$t1 - $t0" | bc)")" "$(printf '%.1f' "$(echo "$t2 - $t1" | bc)")"
}

# --translate: OUT/translate/OBJECT.json, mirage rewrite --json's verdicts on OBJECT (kept: a
# rerun does not translate again), or the error when it crashed or ran out of --timeout; the
# translated object next to it.
translate_object() {
	local co=$1 verdicts=$2 rc=0
	[ ! -s "$verdicts" ] || return 0
	# Exit 1 means some kernel was refused (nothing written): the JSON says which.
	timeout -k 10 "$timeout_s" "$mirage" --json rewrite "$co" -o "${verdicts%.json}.co" \
		--target "$translate" >"$verdicts.tmp" 2>"${verdicts%.json}.log" || rc=$?
	case $rc in
	124 | 137) echo "{\"error\": \"timeout (over ${timeout_s}s)\"}" >"$verdicts.tmp" ;;
	*) [ "$rc" -le 128 ] || echo "{\"error\": \"crash (signal $((rc - 128)))\"}" >"$verdicts.tmp" ;;
	esac
	mv "$verdicts.tmp" "$verdicts"
}

# results.tsv and summary.txt from the rows run so far (the target: OUT/target).
summarize() {
	local target
	target=$(cat "$out/target" 2>/dev/null || true)
	printf 'kernel\tobject\tstatus\tdetail\toutput_changed\temulate_s\tpocl_s\n' >"$out/results.tsv"
	find "$out/rows" -name '*.tsv' -exec cat {} + 2>/dev/null | sort >>"$out/results.tsv"
	awk -F'\t' -v target="${target#source}" 'NR > 1 {
			n++; obj[$2] = 1; s = $3
			if (s == "refused") { why["refused: " $4]++; next }
			raised++
			if (s == "translate-refused") {
				untranslated++; d = $4
				sub(/refused: [^ ]* /, "refused: NAME ", d)  # "another kernel ...", by reason
				gsub(/0x[0-9a-fA-F]+/, "0x_", d)
				why["translate-refused (not run): " d]++; next
			}
			if (s == "pocl-failure") { pocl++; why["pocl-failure (not judged): " $4]++; next }
			if (s == "launch-error") { launch++; why["launch-error (not judged): " $4]++; next }
			judged++
			if (s == "correct") { ok++; if ($5 == "yes") changed++; next }
			d = $4
			if (s == "mismatch") sub(/\[.*/, "", d)       # group by buffer
			sub(/^kernel [^ ]*(: | is refused at [^ ]* )/, "", d)  # nor by kernel
			gsub(/opcode 0x/, "opcode #", d)               # (an opcode is no address)
			gsub(/0x[0-9a-fA-F]+/, "0x_", d)               # nor by address
			gsub(/opcode #/, "opcode 0x", d)
			gsub(/ [0-9]+-byte /, " N-byte ", d)           # nor by size
			why[s ": " d]++
		}
		END {
			for (o in obj) objects++
			if (target != "")
				printf "1000000005\trun: mirage emulate runs the objects translated for %s, POCL the source\n",
					target
			printf "1000000004\trun: %d objects, %d kernels, %d raised (%.1f%%)\n", objects, n, raised,
				100 * raised / (n ? n : 1)
			if (target != "")
				printf "1000000003\trun: %d translated for %s (%.1f%% of raised; %d in objects that did not translate whole)\n",
					raised - untranslated, target, 100 * (raised - untranslated) / (raised ? raised : 1),
					untranslated
			printf "1000000002\trun: %d judged against POCL (%d raised, %d POCL could not run, %d no launch%s)\n",
				judged, raised, pocl, launch, target == "" ? "" : ", " untranslated + 0 " not translated"
			printf "1000000001\trun: %d run correct (%.1f%% of judged), %d of them with an output changed from its input\n",
				ok, 100 * ok / (judged ? judged : 1), changed
			for (r in why) printf "%d\trun: %d %s\n", why[r], why[r], r
		}' "$out/results.tsv" | sort -t$'\t' -s -k1,1nr | cut -f2- | tee "$out/summary.txt"
}

if [ "${1:-}" = --one ]; then
	out=$2 grid=$3 timeout_s=$4 mirage=$5 tools=$6 translate=$7
	run_one "$8" "$9"
	exit 0
fi

while [ $# -gt 0 ]; do
	case $1 in
	--corpus) corpus=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--limit) limit=${2:?}; shift 2 ;;
	--filter) filter=${2:?}; shift 2 ;;
	--kernels) kernels=${2:?}; shift 2 ;;
	--grid) grid=${2:?}; shift 2 ;;
	--timeout) timeout_s=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--translate) translate=${2:?}; shift 2 ;;
	--mirage) mirage=${2:?}; shift 2 ;;
	--tools) tools=${2:?}; shift 2 ;;
	--summary) summary_only=1; shift ;;
	-h | --help) usage ;;
	*) echo "run.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
case $limit$grid$timeout_s$jobs in *[!0-9]*)
	echo "run.sh: --limit, --grid, --timeout and --jobs take a number" >&2; exit 2 ;;
esac
case $translate in '' | gfx942 | gfx950) ;; *)
	echo "run.sh: --translate takes gfx942 or gfx950, not '$translate'" >&2; exit 2 ;;
esac
out=${out:-$corpus/run${translate:+-$translate}}
mkdir -p "$out/rows"
# One directory, one target: resuming must not mix rows of the source and of a translation.
ran=$(cat "$out/target" 2>/dev/null || true)
if [ -n "$ran" ] && [ "$ran" != "${translate:-source}" ]; then
	echo "run.sh: '$out' holds a run of the $ran objects, not of ${translate:-the source}" >&2
	echo "hint: give this run another --out" >&2
	exit 1
fi
echo "${translate:-source}" >"$out/target"
if [ -n "$summary_only" ]; then
	summarize
	exit 0
fi

shopt -s nullglob
objects=()
for co in "$corpus/objects"/$filter.co; do objects+=("$co"); done
[ -n "$limit" ] && objects=("${objects[@]:0:$limit}")
if [ ${#objects[@]} -eq 0 ]; then
	echo "run.sh: no code objects matching '$filter' in '$corpus/objects'" >&2
	echo "hint: build some first: tests/kernels/corpus/corpus.sh --limit 10" >&2
	exit 1
fi
for t in pocl_ref kernel_compare; do
	if [ ! -x "$tools/$t" ]; then
		echo "run.sh: no $t in '$tools'" >&2
		echo "hint: build it (cmake --build build), or name its directory with --tools" >&2
		exit 1
	fi
done

# Which kernels each object has, which the raiser raises (mirage raise --json, kept) and, with
# --translate, whether the object translated whole (mirage rewrite --json, kept with its output).
mkdir -p "$out/raise" "$out/notes" "$out/work" "$out/translate"
todo=()
done_n=0
for co in "${objects[@]}"; do
	object=$(basename "$co" .co)
	[ -s "$out/notes/$object.txt" ] || "$readelf" --notes "$co" >"$out/notes/$object.txt"
	if [ ! -s "$out/raise/$object.json" ]; then
		"$mirage" --json raise "$co" >"$out/raise/$object.json.tmp" 2>/dev/null || true
		mv "$out/raise/$object.json.tmp" "$out/raise/$object.json"
	fi
	verdicts=
	if [ -n "$translate" ]; then
		verdicts=$out/translate/$object.json
		translate_object "$co" "$verdicts"
	fi
	while IFS=$'\t' read -r kernel raised reason untranslated; do
		# shellcheck disable=SC2254
		case $kernel in $kernels) ;; *) continue ;; esac
		[ -n "$untranslated" ] || [ -z "$translate" ] || [ -s "$out/translate/$object.co" ] ||
			untranslated="mirage rewrite wrote no object"
		if [ -f "$out/rows/$object.$kernel.tsv" ]; then
			done_n=$((done_n + 1))
		elif [ "$raised" != yes ]; then
			row "$kernel" "$object" refused "$reason" - - -
		elif [ -n "$untranslated" ]; then
			row "$kernel" "$object" translate-refused "$untranslated" - - -
		else
			todo+=("$co" "$kernel")
		fi
	done < <(python3 -c 'import json, sys
def why(k):
    return ((k.get("reason") or "?") + " " + k.get("mnemonic", "")).strip()
try:
    doc = json.load(open(sys.argv[1]))
except ValueError:
    doc = {"kernels": [{"kernel": sys.argv[2], "reason": "mirage raise printed no JSON"}]}
verdicts, refused, failed = {}, [], ""
if sys.argv[3]:
    try:
        tdoc = json.load(open(sys.argv[3]))
    except ValueError:
        tdoc = {"error": "printed no JSON"}
    verdicts = {k["name"]: k for k in tdoc.get("kernel_results", [])}
    refused = [k for k in verdicts.values() if not k.get("translated")]
    failed = "mirage rewrite: " + tdoc.get("error", "gave no verdict on it")
for k in doc.get("kernels", []):
    v = verdicts.get(k["kernel"])
    if not sys.argv[3]:
        untranslated = ""
    elif v is None:
        untranslated = failed
    elif not v.get("translated"):
        untranslated = why(v)
    elif refused:
        untranslated = "another kernel of the object was refused: " + refused[0]["name"] + " " + why(refused[0])
    else:
        untranslated = ""
    print(k["kernel"], "yes" if k.get("raised") else "no", why(k), untranslated, sep="\t")' \
		"$out/raise/$object.json" "$object" "$verdicts")
done
echo "run.sh: ${#objects[@]} code objects; $done_n kernels already run, $((${#todo[@]} / 2)) raised ones to run with $jobs jobs into $out" >&2
if [ ${#todo[@]} -gt 0 ]; then
	printf '%s\0' "${todo[@]}" |
		xargs -0 -n2 -P "$jobs" bash "$0" --one "$out" "$grid" "$timeout_s" "$mirage" "$tools" \
			"$translate"
fi
summarize
