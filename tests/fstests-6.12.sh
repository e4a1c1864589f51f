# Our fstests test (generic/788) and our LTP test (msync05) on 6.12: the
# port passes both; 6.12 as it is fails MS_ASYNC only (MS_SYNC syncs the
# range since 3.16).  Sourced by tests/run-6.12.sh.
# shellcheck shell=bash

. tests/fstests-common.sh
if ours_setup; then
	ours_pair 6.12-unpatched 6.12-patched "MS_ASYNC"
fi
