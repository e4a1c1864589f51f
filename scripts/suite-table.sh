#!/usr/bin/env bash
# suite-table.sh SUITE KERNEL...: the results of scripts/suite-run.sh for
# SUITE (fstests or ltp) on the kernels named, side by side, as a markdown
# table (test | KERNEL | ...), then the reasons of "not run" and of the
# failures, and one count line per kernel.  Exit status 1 on a regression:
# a test that passed on a kernel NAME-unpatched (or unpatched) and did not
# on NAME-patched (patched), or kernel errors on a patched kernel's
# console that its unpatched one did not print.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fstests-lib.sh"

suite=$1
shift
kernels=("$@")
# SUITE_TAG: the runs of that tag (scripts/suite-run.sh)
sum() { echo "$OUT_DIR/suites/$1-$suite${SUITE_TAG:-}/summary"; }
for k in "${kernels[@]}"; do
	[ -s "$(sum "$k")" ] || die "no results of $suite on $k ($(sum "$k")): run scripts/suite-run.sh $k $suite"
done
# status KERNEL TEST: passed, failed, notrun, missing
status() {
	awk -v t="$2" '$1 == t { print $2; exit }' "$(sum "$1")"
}
reason() {
	awk -v t="$2" '$1 == t { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' "$(sum "$1")"
}
tests=$(awk '$1 != "console-errors" { print $1 }' "$(sum "${kernels[0]}")")

# The table: a "not run" or a failure cell points to its reason below.
# cell KERNEL TEST: the cell, in CELL (not in a subshell: the notes are
# numbered as they are met).
declare -A note_of=()
notes=()
cell() {
	local s r key
	s=$(status "$1" "$2")
	r=$(reason "$1" "$2")
	case $s in
	passed) CELL=passed; return ;;
	notrun) s="not run" ;;
	failed) s="FAILED" ;;
	missing) CELL="(did not run)"; return ;;
	*) CELL="-"; return ;;
	esac
	CELL=$s
	[ -n "$r" ] || return 0
	key="$s: $r"
	if [ -z "${note_of[$key]:-}" ]; then
		notes+=("$key")
		note_of[$key]=${#notes[@]}
	fi
	CELL="$s [${note_of[$key]}]"
}
header="| test |"
rule="| --- |"
for k in "${kernels[@]}"; do
	header="$header $k |"
	rule="$rule --- |"
done
echo "$header"
echo "$rule"
for t in $tests; do
	row="| $t |"
	for k in "${kernels[@]}"; do
		cell "$k" "$t"
		row="$row $CELL |"
	done
	echo "$row"
done
row="| kernel errors on the console |"
for k in "${kernels[@]}"; do
	row="$row $(awk '$1 == "console-errors" { print $2 }' "$(sum "$k")") |"
done
echo "$row"
echo
i=1
for n in "${notes[@]}"; do
	echo "[$i] $n"
	i=$((i + 1))
done
[ ${#notes[@]} = 0 ] || echo
for k in "${kernels[@]}"; do
	awk -v k="$k" '$1 != "console-errors" { n[$2]++; all++ }
		END { printf "%s: %d tests: %d run (%d passed, %d failed), %d not run%s\n", k, all,
			n["passed"] + n["failed"], n["passed"], n["failed"], n["notrun"],
			n["missing"] ? ", " n["missing"] " did not run (the guest ended first)" : "" }' "$(sum "$k")"
done

# Regressions: patched against its unpatched kernel.
rc=0
for k in "${kernels[@]}"; do
	case $k in
	patched) base=unpatched ;;
	*-patched) base=${k%-patched}-unpatched ;;
	*) continue ;;
	esac
	[[ " ${kernels[*]} " == *" $base "* ]] || continue
	for t in $tests; do
		if [ "$(status "$base" "$t")" = passed ] && [ "$(status "$k" "$t")" != passed ]; then
			echo "REGRESSION: $t passed on $base, $(status "$k" "$t") on $k"
			rc=1
		fi
	done
	ek=$(awk '$1 == "console-errors" { print $2 }' "$(sum "$k")")
	eb=$(awk '$1 == "console-errors" { print $2 }' "$(sum "$base")")
	if [ "${ek:-0}" -gt 0 ] && [ "${eb:-0}" = 0 ]; then
		echo "REGRESSION: kernel errors on $k's console ($ek lines), none on $base's: $OUT_DIR/$k-$suite.log"
		rc=1
	fi
done
exit $rc
