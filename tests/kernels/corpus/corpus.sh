#!/usr/bin/env bash
# Builds a corpus of real OpenCL C kernels that mirage did not write into gfx1250 code
# objects, for the raiser's coverage report: hashcat's kernels (Debian hashcat-data, MIT
# licence), compiled by clang-22 as hashcat's own OpenCL build does (its -D options, one
# kernel file per hash mode and attack, hashcat's AMD code path; hashcat_options.sh), with
# libclc (Debian libclc-22) for the OpenCL builtins and prelude.h for what libclc lacks or
# reads from another ABI (amd_bitalign; the global offset of code object v5), linked with
# ld.lld-22 -shared.  Records per source whether it compiled, and why not, in OUT/results.tsv
# (one row per source, also kept in OUT/rows/ as each finishes, so an interrupted run resumes
# where it stopped); objects in OUT/objects, logs in OUT/logs.
#
# usage: corpus.sh [--out DIR] [--jobs N] [--limit N] [--filter GLOB] [--mcpu CPU] [--opt LEVEL]
#   --out DIR      where results go (default: build/corpus in the source tree)
#   --jobs N       parallel compiles (default 2)
#   --limit N      only the first N sources (sorted by name) that match --filter
#   --filter GLOB  source file names to take (default m*.cl: every hash-mode kernel)
#   --mcpu CPU     default gfx1250; --opt LEVEL default O2
#   --summary      only gather the rows already built into results.tsv and summary.txt
# Installs hashcat-data and libclc-22 with apt-get when missing (as root).  Exit 0 when the
# corpus was built (some sources may fail to compile: that is recorded, not an error),
# 1 when nothing could be built, 2 on a bad command line.
set -euo pipefail

src_root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$src_root/build/corpus
jobs=2
limit=
filter='m*.cl'
mcpu=gfx1250
opt=O2
summary_only=
hashcat=/usr/share/hashcat/OpenCL
libclc=/usr/lib/clc/amdgcn-amd-amdhsa.bc
clang=${CLANG:-clang-22}
lld=${LD_LLD:-ld.lld-22}
readelf=${LLVM_READELF:-llvm-readelf-22}
objdump=${LLVM_OBJDUMP:-llvm-objdump-22}

# shellcheck source-path=SCRIPTDIR source=hashcat_options.sh
. "$(dirname "$0")/hashcat_options.sh"

usage() {
	sed -n 's/^# \{0,1\}//;/^usage:/,/^Installs/p' "$0" | sed '$d' >&2
	exit 2
}

# One source: compile, link, count kernels and instructions; write its results.tsv row.
build_one() {
	local f=$1 name obj log status reason kernels=0 insns=0
	name=$(basename "$f" .cl)
	obj=$out/objects/$name
	log=$out/logs/$name.log
	hashcat_options "$f" "$hashcat"
	if ! "$clang" -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu="$mcpu" -nogpulib \
		-"$opt" "${hashcat_opts[@]}" -include "$(dirname "$0")/prelude.h" \
		-Xclang -mlink-builtin-bitcode -Xclang "$libclc" \
		-c "$f" -o "$obj.o" >"$log" 2>&1; then
		status=compile-error
		reason=$(grep -m1 -E 'error:' "$log" | sed -E 's/^[^ ]*error: //' | cut -c1-120)
	elif ! "$lld" -shared "$obj.o" -o "$obj.co" >>"$log" 2>&1; then
		status=link-error
		reason=$(grep -m1 -E 'error:' "$log" | sed -E 's/^.*error: //' | cut -c1-120)
	else
		status=ok
		reason=
		kernels=$("$readelf" --dyn-syms --wide "$obj.co" | grep -c '\.kd$' || true)
		insns=$("$objdump" -d --mcpu="$mcpu" "$obj.co" | grep -cE '^\s+[a-z][a-z0-9_]* .*// [0-9A-F]+:' || true)
	fi
	rm -f "$obj.o"
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$status" "$kernels" "$insns" "${reason:-}" \
		>"$out/rows/$name.tsv.tmp"
	mv "$out/rows/$name.tsv.tmp" "$out/rows/$name.tsv"
}

# results.tsv and summary.txt from the rows built so far.
summarize() {
	printf 'source\tstatus\tkernels\tinstructions\treason\n' >"$out/results.tsv"
	find "$out/rows" -name '*.tsv' -exec cat {} + 2>/dev/null | sort >>"$out/results.tsv"
	awk -F'\t' 'NR > 1 { n++; if ($2 == "ok") { ok++; k += $3; i += $4 } else why[$2 ": " $5]++ }
		END {
			printf "corpus: %d sources, %d compiled to code objects, %d kernels, %d instructions\n", n, ok, k, i
			for (r in why) printf "corpus: %d failed: %s\n", why[r], r
		}' "$out/results.tsv" | tee "$out/summary.txt"
	[ "$(awk -F'\t' '$2 == "ok"' "$out/results.tsv" | wc -l)" -gt 0 ]
}

if [ "${1:-}" = --one ]; then
	out=$2
	hashcat=$3
	mcpu=$4
	opt=$5
	build_one "$6"
	exit 0
fi

while [ $# -gt 0 ]; do
	case $1 in
	--out) out=${2:?}; shift 2 ;;
	--jobs) jobs=${2:?}; shift 2 ;;
	--limit) limit=${2:?}; shift 2 ;;
	--filter) filter=${2:?}; shift 2 ;;
	--mcpu) mcpu=${2:?}; shift 2 ;;
	--opt) opt=${2:?}; shift 2 ;;
	--summary) summary_only=1; shift ;;
	-h | --help) usage ;;
	*) echo "corpus.sh: unknown argument '$1'" >&2; usage ;;
	esac
done
case $jobs$limit in *[!0-9]*) echo "corpus.sh: --jobs and --limit take a number" >&2; exit 2 ;; esac

if [ -n "$summary_only" ]; then
	summarize
	exit
fi

missing=()
[ -d "$hashcat" ] || missing+=(hashcat-data)
[ -f "$libclc" ] || missing+=(libclc-22)
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "corpus.sh: missing packages: ${missing[*]}" >&2
		echo "hint: run as root, or: apt-get install ${missing[*]}" >&2
		exit 1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

mkdir -p "$out/objects" "$out/logs" "$out/rows"
mapfile -t sources < <(find "$hashcat" -maxdepth 1 -type f -name "$filter" | sort)
[ -n "$limit" ] && sources=("${sources[@]:0:$limit}")
[ ${#sources[@]} -gt 0 ] || { echo "corpus.sh: no source in $hashcat matches '$filter'" >&2; exit 1; }
echo "corpus.sh: ${#sources[@]} hashcat kernel sources for $mcpu -$opt with $jobs jobs into $out" >&2

todo=()
for f in "${sources[@]}"; do
	[ -f "$out/rows/$(basename "$f" .cl).tsv" ] || todo+=("$f")
done
echo "corpus.sh: $((${#sources[@]} - ${#todo[@]})) already built, ${#todo[@]} to build" >&2
if [ ${#todo[@]} -gt 0 ]; then
	printf '%s\0' "${todo[@]}" |
		xargs -0 -n1 -P "$jobs" bash "$0" --one "$out" "$hashcat" "$mcpu" "$opt"
fi
summarize
