# The series on i386, where unsigned long is 32 bits and a file offset of
# 4 GiB does not fit in it: the selftest as a 32-bit program on the
# patched kernel (every case passes) and the test-only kernel 'ulong'
# whose patch 1 computes the offset in unsigned long, as the 2012 posting
# did: high_offset must fail there.  With I386_UNPATCHED=1 (make torture) the
# unpatched i386 kernel too, judged as on x86_64: a second full build and
# a slow boot (its MS_ASYNC cases time out) that make check leaves to the
# x86_64 unpatched kernel.  The kernels boot with I386_FS (make check:
# ext4 and raw; make torture: all four disks).  Sourced by tests/run.sh
# and tests/torture.sh, after tests/selftest.sh.
# shellcheck shell=bash

I386_FRAGMENTS="$TOP/config/msync.config $TOP/config/i386.config"
# huge_offset maps file offsets near 2^63, which a 32-bit kernel cannot.
SKIP_ON="$SKIP_ON ext4:huge_offset ext3:huge_offset ext2:huge_offset raw:huge_offset"

# i386_build NAME REV [FROM]: one i386 kernel; 1 if it does not build.
i386_build() {
	local log=$TESTS_LOG/build-$1.log
	if GUEST_ARCH=i386 CONFIG_FRAGMENT=$I386_FRAGMENTS \
	   scripts/build.sh "$@" >"$log" 2>&1; then
		pass "$1 kernel builds (ARCH=i386, config/i386.config)"
		return 0
	fi
	fail "$1 kernel builds (ARCH=i386, config/i386.config)" "$(tail -n 8 "$log")"
	return 1
}

expect_ok "i386 initramfs builds: 32-bit busybox, selftest built with gcc -m32" \
	env GUEST_ARCH=i386 scripts/initramfs.sh "$BUILD_DIR/guest/initramfs-i386.cpio.gz"
if file "$BUILD_DIR/guest/initramfs-i386.work/root/bin/msync_test" | grep 'ELF 32-bit.*80386' >/dev/null; then
	pass "the i386 guest's selftest is a 32-bit program"
else
	fail "the i386 guest's selftest is a 32-bit program" \
		"$(file "$BUILD_DIR/guest/initramfs-i386.work/root/bin/msync_test")"
fi
# Both kernels are built first and booted at once (their guests mostly
# wait for the throttled disks), then judged, on ext4 and the raw disk
# (the file systems' own code is the same as on x86_64, where all four
# are judged; what differs here is the 32-bit offsets and program).
I386_FS=${I386_FS:-ext4 raw}
if i386_build i386-patched series; then
	i386_ulong=0
	if scripts/variant.sh ulong >"$TESTS_LOG/variant-ulong.log" 2>&1 &&
	   i386_build i386-ulong variant-ulong i386-patched; then
		i386_ulong=1
		# Only the case that must catch it, as the planted kernels
		# (make torture: every case, the others judged too).
		MSYNC_CASES=$(planted_cases high_offset) \
			boot_bg run_selftest i386-ulong "$I386_FS"
	else
		fail "test-only kernel 'ulong' (tests/variants/ulong.patch)" \
			"$(tail -n 8 "$TESTS_LOG/variant-ulong.log")"
	fi
	run_selftest i386-patched "$I386_FS"
	wait
	BOOTED=1 JUDGE_FS=$I386_FS judge i386-patched "all $SELFTEST_CASES cases ok (on file systems, $RAW_ONLY skips)" 0 \
		"$CASES" ""
	if [ $i386_ulong = 1 ]; then
		# async_error may fail too: its failing page lies past 4 GiB
		# of the raw disk, where ulong's MS_SYNC does not reach.
		i386_ok=""
		[ -n "$(planted_cases high_offset)" ] ||
			i386_ok=$(tr ' ' '\n' <<<"$CASES" | grep -vxE 'high_offset|async_error')
		BOOTED=1 JUDGE_FS=$I386_FS ONE_OF=high_offset \
			FAIL_RE="mapping at 4 GiB: range, pages 8-11: 0 of 4" \
			judge i386-ulong "high_offset (mapping at 4 GiB) fails" "" \
			"$i386_ok" ""
	fi
fi
if [ "${I386_UNPATCHED:-0}" = 1 ] && i386_build i386-unpatched base; then
	judge i386-unpatched "the $(wc -w <<<"$CHANGED") cases of the change fail, ${KEPT// /,} pass" 1 \
		"$KEPT" "$CHANGED"
fi
