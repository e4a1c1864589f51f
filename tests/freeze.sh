# A freeze of user space and kernel threads (pm_test=freezer) completes
# while a program loops on MS_ASYNC against a throttled disk with a small
# request queue; on both kernels (v3.5, where MS_ASYNC does nothing, for
# comparison), both booted at once.  And a file system that stops
# writing: MS_ASYNC of pages whose writepage keeps failing (ext3 aborted,
# guest/msync_abort.c) asks for no more passes, the flusher wakes at most
# twice in 5 s and the log stays quiet, on both kernels; the planted
# fault errloop (any dirty page left asks for a pass) must fail that.
# Sourced by tests/run.sh.
# shellcheck shell=bash

# What ext3 prints when it is aborted on purpose, and at its umount
ABORT_OK_RE='EXT3-fs \(vda\): error: (ext3_remount: Abort forced by user|ext3_journal_start_sb: Detected aborted journal|remounting filesystem read-only|ext3_put_super: Couldn.t clean up the journal)|Aborting journal on device vda'
# abort_boot KERNEL [VAR=value...]
abort_boot() {
	local k=$1
	shift
	guest_boot "$k" abort FSLIST=ext3 THROTTLE_BPS= FSCK=0 TIMEOUT=180 \
		VERDICT_OK_RE="$ABORT_OK_RE" "$@"
}
for k in patched unpatched; do
	boot_bg guest_boot "$k" freeze FSLIST=ext4 TIMEOUT=300
	boot_bg abort_boot "$k"
done
abort_planted=0
# Its result line says exit=1: judged on kernel reports only (--sane)
build_planted && abort_planted=1 && boot_bg abort_boot errloop VERDICT=--sane
wait
for k in patched unpatched; do
	BOOTED=1 guest_check "$k" freeze \
		"$k: freeze/thaw cycle completes with MS_ASYNC writeback pending" \
		'^(not ok|ok|#)' '^(ok|not ok) 1 - '
done
for k in patched unpatched; do
	BOOTED=1 guest_check "$k" abort \
		"$k: MS_ASYNC of pages whose writepage fails (ext3 aborted): no pass a second, no log line a second" \
		'^(not ok|ok|#)' '^(ok|not ok) 1 - '
done
if [ $abort_planted = 1 ]; then
	log=$TESTS_LOG/abort-errloop.out
	title="planted errloop: a pass a second over pages whose writepage fails (not ok 1, expected)"
	if plant_seen errloop "$OUT_DIR/errloop-abort.log" &&
	   [ "$(cat "$log.rc" 2>/dev/null)" = 0 ] &&
	   grep -Eq '^not ok 1 - .*: ([3-9]|[1-9][0-9]+) flusher wakeups' "$log"; then
		pass "$title"
	else
		fail "$title" "$(grep -E '^(not ok|ok|#|FAIL)' "$log" | tail -n 4)" \
			"console log: $OUT_DIR/errloop-abort.log"
	fi
	grep -E '^(ok|not ok) 1 - ' "$log" | sed 's/^/       errloop: /' || true
fi
