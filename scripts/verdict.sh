#!/usr/bin/env bash
# verdict.sh [--sane] LOG: judge a guest console log.
#   fail if the kernel oopsed, hit a BUG or WARNING, made a lockdep,
#   debug-objects, SLUB or RCU-stall report, or panicked (whatever
#   the result lines say), or if the guest never printed "msync-guest: done";
#   without --sane, also fail unless every result line says exit=0.
#   I/O errors fail it too, but for the disks in VERDICT_IO_OK (device
#   names separated by "|", e.g. "vdd": disks that fail writes on purpose).
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
if [ -n "${VERDICT_IO_OK:-}" ]; then
	dev="(^|[^a-z0-9])($VERDICT_IO_OK)([^a-z0-9]|$)"
	bad=$(grep -vE "I/O error.*$dev|$dev.*I/O error" <<<"$bad" || true)
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
