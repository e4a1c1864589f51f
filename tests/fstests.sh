# Our fstests test (generic/788) and our LTP test (msync05) on v3.5: the
# patched kernel passes both; the unpatched one fails both in MS_SYNC
# (the whole file written) and MS_ASYNC (nothing written).  The whole
# lists are make fstests and make ltp.  Sourced by tests/run.sh.
# shellcheck shell=bash

. tests/fstests-common.sh
if ours_setup; then
	ours_pair unpatched patched "MS_SYNC MS_ASYNC"
fi
