#!/usr/bin/env bash
# series.sh [6.12]: write the series, ready to send, as the person who
# runs this: patches/ (or with 6.12, patches-6.12/) with their identity
# and sign-off in place of the project's, To/Cc from the get_maintainer.pl
# --no-git of the tree it applies to (v3.5's build/linux, or
# build/linux-6.12).  Output: SERIES_OUT (default out/series/ or
# out/series-6.12/) holds one file per message, for git send-email, and
# series.mbox.  Nothing is sent.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case ${1:-} in
"") pdir=$TOP/patches out=${SERIES_OUT:-$OUT_DIR/series} ;;
6.12) pdir=$TOP/patches-6.12 TREE=$BUILD_DIR/linux-6.12
      out=${SERIES_OUT:-$OUT_DIR/series-6.12} ;;
*) die "usage: $0 [6.12]" ;;
esac
name=${SERIES_NAME-$(git -C "$TOP" config user.name || true)}
email=${SERIES_EMAIL-$(git -C "$TOP" config user.email || true)}
[ -n "$name" ] && [ -n "$email" ] ||
	die "no identity to send as: set git config user.name and user.email"
[ -f "$pdir/0000-cover-letter.patch" ] || die "$pdir has no series"
[ -d "$TREE/.git" ] || die "no tree at $TREE: run 'make tree' first"

patches=$(ls "$pdir"/[0-9][0-9][0-9][0-9]-*.patch)
# Addresses for the whole series, from the tree with the series applied
# (its MAINTAINERS has the series' own F: lines).
# shellcheck disable=SC2086
addrs=$(cd "$TREE" && perl scripts/get_maintainer.pl --no-git --no-rolestats \
	$(echo "$patches" | grep -v /0000-cover-letter.patch)) || die "get_maintainer.pl failed"
# The project's own identity is no recipient: get_maintainer.pl finds it
# as the signer of recent commits when build/linux was edited by hand.
addrs=$(grep -vF "<$PROJECT_EMAIL>" <<<"$addrs" || true)
[ -n "$addrs" ] || die "get_maintainer.pl found nobody for the series"
to=$(echo "$addrs" | grep -v 'linux-kernel@vger.kernel.org' | paste -sd, | sed 's/,/, /g')
cc=$(echo "$addrs" | grep 'linux-kernel@vger.kernel.org' | paste -sd, | sed 's/,/, /g')
[ -n "$to" ] || { to=$cc; cc=""; }

rm -rf "$out"
mkdir -p "$out"
project="$PROJECT_NAME <$PROJECT_EMAIL>"
me="$name <$email>"
for p in $patches; do
	f=$out/$(basename "$p")
	awk -v project="$project" -v me="$me" -v to="$to" -v cc="$cc" '
		!hdr_done && $0 == "From: " project {
			print "From: " me
			print "To: " to
			if (cc != "")
				print "Cc: " cc
			next
		}
		!hdr_done && /^$/ { hdr_done = 1 }
		$0 == "Signed-off-by: " project { print "Signed-off-by: " me; next }
		{ print }' "$p" >"$f"
	grep -q "^To: " "$f" || die "$p: no 'From: $project' header to replace"
	cat "$f" >>"$out/series.mbox"
done
echo "wrote $(echo "$patches" | wc -l) messages to $out (series.mbox, and one file each for git send-email)"
echo "To: $to"
[ -z "$cc" ] || echo "Cc: $cc"
[ -n "${1:-}" ] ||
	echo "Add the mm tree's maintainer by hand before sending (see README.md)."
