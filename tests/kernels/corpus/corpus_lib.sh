# shellcheck shell=bash
# What coverage.sh and translate_coverage.sh share (sourced): the command line (--objects DIR,
# --mirage PATH, --limit N, their defaults in the source tree, the usage from the script's header) and
# the objects to look at, with a temporary directory removed on exit.  A script with options
# of its own defines corpus_option NAME VALUE (0 when it took them) before corpus_args.

src_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
objects=$src_root/build/corpus/objects
mirage=$src_root/build/bin/mirage
limit=

# The script's usage (its header from "usage:" to "Exit") on stderr; exit 2.
corpus_usage() {
	sed -n 's/^# \{0,1\}//;/^usage:/,/^Exit/p' "$0" >&2
	exit 2
}

corpus_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--objects) objects=${2:?}; shift 2 ;;
		--mirage) mirage=${2:?}; shift 2 ;;
		--limit) limit=${2:?}; shift 2 ;;
		*)
			if [ $# -ge 2 ] && declare -F corpus_option >/dev/null && corpus_option "$1" "$2"; then
				shift 2
			else
				corpus_usage
			fi
			;;
		esac
	done
	case $limit in *[!0-9]*)
		echo "$(basename "$0"): --limit takes a number" >&2
		exit 2
		;;
	esac
}

# Sets cos (the objects, the first --limit N by name) and tmp (removed on exit); exit 1 when
# there is no object.
corpus_objects() {
	shopt -s nullglob
	cos=("$objects"/*.co)
	[ -z "$limit" ] || cos=("${cos[@]:0:$limit}")
	if [ ${#cos[@]} -eq 0 ]; then
		echo "$(basename "$0"): no code objects in '$objects'" >&2
		echo "hint: build some first: tests/kernels/corpus/corpus.sh --limit 50" >&2
		exit 1
	fi
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
}
