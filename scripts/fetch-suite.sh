#!/usr/bin/env bash
# fetch-suite.sh fstests|ltp: find the suite's pinned source tarball in
# DL_DIR and verify it against suites.hash.  Prints its path.  Nothing is
# downloaded: the tarballs are `git archive` snapshots kept in the
# download cache, not a release anyone serves.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fstests-lib.sh"

case ${1:-} in
fstests) tarball=$FSTESTS_TAR ;;
ltp) tarball=$LTP_TAR ;;
*) die "usage: fetch-suite.sh fstests|ltp" ;;
esac
path=$DL_DIR/$tarball
[ -e "$path" ] ||
	die "$path not found: put $tarball (pinned in suites.hash) in DL_DIR ($DL_DIR)"
HASH_FILE=$TOP/suites.hash verify "$path" "$tarball" ||
	die "refusing $path; replace it with the file suites.hash pins"
echo "$path"
