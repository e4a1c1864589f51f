#!/usr/bin/env bash
# The three 6.12 kernels of make check-6.12 (unpatched, patched,
# planted), built ahead of it: make check-all runs this at idle priority
# beside make check, and check-6.12 then finds each kernel built from the
# same sources (tests/kernels-6.12.sh) and does not build it again.
# Prints a line per kernel and "N passed, N failed"; exits non-zero if a
# kernel did not build (check-6.12 then builds it and reports why).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$TOP"
. tests/kernels-6.12.sh

expect_ok "linux-6.12: Debian's source, verified, with patches-6.12/" \
	scripts/tree-6.12.sh
if [ "$FAILED" = 0 ]; then
	build612 6.12-unpatched base || true
	build612 6.12-patched series && planted612 || true
fi
echo "$PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
