# A freeze of user space and kernel threads (pm_test=freezer) completes
# while a program loops on MS_ASYNC against a throttled disk with a small
# request queue; on both kernels (v3.5, where MS_ASYNC does nothing, for
# comparison), both booted at once.  Sourced by tests/run.sh.
# shellcheck shell=bash

for k in patched unpatched; do
	boot_bg guest_boot "$k" freeze FSLIST=ext4 TIMEOUT=300
done
wait
for k in patched unpatched; do
	BOOTED=1 guest_check "$k" freeze \
		"$k: freeze/thaw cycle completes with MS_ASYNC writeback pending" \
		'^(not ok|ok|#)' '^(ok|not ok) 1 - '
done
