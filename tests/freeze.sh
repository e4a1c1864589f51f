# A freeze of user space and kernel threads (pm_test=freezer) completes
# while a program loops on MS_ASYNC against a throttled disk with a small
# request queue; on both kernels (v3.5, where MS_ASYNC does nothing, for
# comparison).  Sourced by tests/run.sh.
# shellcheck shell=bash

for k in patched unpatched; do
	log=$TESTS_LOG/freeze-$k.out
	title="$k: freeze/thaw cycle completes with MS_ASYNC writeback pending"
	if FSLIST=ext4 TIMEOUT=300 scripts/guest.sh "$k" freeze >"$log" 2>&1 &&
	   grep -q '^ok 1 - ' "$log"; then
		pass "$title"
	else
		fail "$title" "$(grep -E '^(not ok|ok|#)' "$log" | tail -n 5)" \
			"console log: $OUT_DIR/$k-freeze.log"
	fi
	grep -E '^(ok|not ok) 1 - ' "$log" | sed "s/^/       $k: /" || true
done
