#!/usr/bin/env bash
# verdict.sh [--sane] LOG: judge a guest console log.
#   fail if the kernel oopsed, hit a BUG or WARNING, made a lockdep,
#   debug-objects, SLUB or RCU-stall report, or panicked (whatever
#   the result lines say), or if the guest never printed "msync-guest: done";
#   without --sane, also fail unless every result line says exit=0.
#   I/O errors fail it too, but those VERDICT_IO_OK allows: entries
#   separated by "|", each DEV ("vda": any error of the disk) or DEV:SECTOR
#   ("vdd:10485888": the disk fails writes of that sector on purpose; a
#   line that names a sector or a logical block, of 4 KiB, must name one
#   within a request's span of it; a line that names neither, such as
#   "lost page write", passes for the disk).  VERDICT_OK_RE: an extended
#   regular expression of the reports a run causes on purpose (the abort
#   of a file system), which do not fail it.
# Prints one verdict line; exit 0 on pass.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sane_only=0
if [ "${1:-}" = --sane ]; then
	sane_only=1
	shift
fi
log=$1
[ -f "$log" ] || { echo "FAIL: no console log $log"; exit 1; }

# One copy without carriage returns; here-strings, not pipes into grep -q,
# which under pipefail fail at random when the writer gets SIGPIPE.
text=$(tr -d '\r' <"$log")
bad=$(grep -E "$KERNEL_ERROR_RE|$KERNEL_IO_RE" <<<"$text" || true)
if [ -n "${VERDICT_OK_RE:-}" ] && [ -n "$bad" ]; then
	rc=0
	kept=$(grep -vE "$VERDICT_OK_RE" <<<"$bad" 2>/dev/null) || rc=$?
	[ $rc -le 1 ] || { echo "FAIL: VERDICT_OK_RE is not a regular expression"; exit 1; }
	bad=$kept
fi
# io_ok LINE: an I/O error line that VERDICT_IO_OK allows.  A request
# holds at most IO_SPAN sectors (6.12's cap: 2560); blocks are of 4 KiB
# (the raw disk's and the crash group's ext4's).
IO_SPAN=2560
io_ok() {
	local entry dev sector n
	grep -qE '(I/O|IO) error' <<<"$1" || return 1
	for entry in ${VERDICT_IO_OK//|/ }; do
		dev=${entry%%:*} sector=${entry#*:}
		grep -qE "(^|[^a-z0-9])$dev([^a-z0-9]|$)" <<<"$1" || continue
		[ "$sector" != "$entry" ] || return 0
		if n=$(grep -oE 'sector [0-9]+' <<<"$1"); then
			n=${n#sector }
		elif n=$(grep -oE 'logical block [0-9]+' <<<"$1"); then
			n=$(( ${n#logical block } * 8 ))
		else
			return 0	# no position: the disk's line
		fi
		[ $((n + IO_SPAN)) -gt "$sector" ] &&
			[ "$n" -lt $((sector + IO_SPAN)) ] && return 0
	done
	return 1
}
if [ -n "${VERDICT_IO_OK:-}" ] && [ -n "$bad" ]; then
	kept=""
	while IFS= read -r line; do
		io_ok "$line" || kept="$kept$line"$'\n'
	done <<<"$bad"
	bad=${kept%$'\n'}
fi
bad=$(head -n 5 <<<"$bad")
if [ -n "$bad" ]; then
	echo "$bad" | sed 's/^/  /' >&2
	echo "FAIL: kernel error in $log"
	exit 1
fi
if ! grep -q '^msync-guest: done$' <<<"$text"; then
	echo "FAIL: guest did not finish (no 'msync-guest: done' in $log)"
	exit 1
fi
results=$(grep '^msync-guest: result ' <<<"$text" || true)
[ -n "$results" ] || { echo "FAIL: no result line in $log"; exit 1; }
[ $sane_only = 1 ] && { echo "PASS: guest ran to the end ($log)"; exit 0; }
failed=$(echo "$results" | grep -v ' exit=0$' | sed 's/^msync-guest: result //' || true)
if [ -n "$failed" ]; then
	echo "FAIL: $(echo "$failed" | paste -sd';' | sed 's/;/; /g')"
	exit 1
fi
echo "PASS: $(echo "$results" | sed 's/^msync-guest: result //;s/ exit=0//' | paste -sd, | sed 's/,/, /g')"
