# Single entry point: see README.md or run 'make help'.

SHELL := /bin/bash
S := scripts
B := build
O := out

# What a normal user sets; everything else is a setting of the scripts.
DL_DIR ?= $(CURDIR)/dl
export DL_DIR

.PHONY: help deps fetch tree tree-reset build build-unpatched build-patched \
	initramfs run check check-6.12 check-all torture boot export series series-6.12 bench results \
	clean distclean

help:
	@echo 'make run        build the patched kernel and run the msync selftest in QEMU'
	@echo 'make check      the whole test suite; ends with "N passed, N failed"'
	@echo '                T="crash race", or tests/run.sh crash race: only those groups'
	@echo 'make check-6.12 the selftest and the MS_ASYNC port on Debian'"'"'s linux-source-6.12'
	@echo 'make check-all  check, then check-6.12, its kernels built beside check at idle priority (what CI runs)'
	@echo 'make fstests    fstests on v3.5 and 6.12, unpatched and patched, with our generic/788: a table'
	@echo 'make ltp        the same with LTP and our msync05'
	@echo 'make torture    the long runs (a million fuzzed msync() calls, 200 crash-checked syncs per fs and kernel, every case on every planted kernel, the 6.12 port on a debug kernel)'
	@echo 'make tree       build/linux: v3.5 + fixes/ (tag base) + patches/ (branch series)'
	@echo 'make tree-reset drop unexported commits in build/linux, rebuild it from patches/'
	@echo 'make build      build the unpatched (base) and patched (series) kernels'
	@echo 'make boot       interactive shell in the patched guest'
	@echo 'make export     format-patch build/linux back into patches/'
	@echo 'make series     a ready-to-send mbox in out/series/ (nothing is sent)'
	@echo 'make series-6.12 the same for patches-6.12/, To/Cc from 6.12: out/series-6.12/'
	@echo 'make bench      benchmark: unpatched, patched, 3 other MS_ASYNC designs, M1 on i386, LMDB: out/bench.{md,csv,png}'
	@echo 'make results    keep the last make bench: its csv into bench/results/, the README and cover letters from them'
	@echo 'make clean      remove out/ and the build directories (keeps dl/)'
	@echo 'make distclean  also remove build/linux and dl/'
	@echo 'settings: DL_DIR=$(DL_DIR) KERNEL_URL, TIMEOUT, MEM, SMP, ACCEL=tcg|kvm'

deps:
	@$(S)/deps.sh

fetch: deps
	@$(S)/fetch.sh >/dev/null

# The tree needs the tarball only to be made (tree.sh fetches it then):
# a clone whose tree is built needs no DL_DIR for 'make series'.
tree: deps
	@$(S)/tree.sh

tree-reset: deps
	@rm -f $(B)/linux/.git/msync-state
	@git -C $(B)/linux reset -q --hard 2>/dev/null || true
	@$(S)/tree.sh

build-unpatched: tree
	@$(S)/build.sh unpatched base

build-patched: tree
	@$(S)/build.sh patched series

build: build-unpatched build-patched

initramfs: tree
	@mkdir -p $(B)/guest
	@$(S)/initramfs.sh $(B)/guest/initramfs.cpio.gz

run:
	@echo '[1/5] checking packages...'
	@$(S)/deps.sh
	@echo '[2/5] fetching and verifying linux-3.5...'
	@$(S)/fetch.sh >/dev/null
	@echo '[3/5] preparing build/linux (v3.5 + fixes + series)...'
	@$(S)/tree.sh
	@echo '[4/5] building linux-3.5 (patched)...'
	@$(S)/build.sh patched series
	@mkdir -p $(B)/guest
	@$(S)/initramfs.sh $(B)/guest/initramfs.cpio.gz
	@echo '[5/5] booting the patched kernel, running the msync selftest...'
	@$(S)/guest.sh patched selftest

check:
	@tests/run.sh

check-6.12:
	@tests/run-6.12.sh

check-all:
	@tests/check-all.sh

torture:
	@tests/torture.sh

boot: build-patched initramfs
	@FSLIST="ext4 raw" THROTTLE_BPS= $(S)/guest.sh patched shell

export:
	@$(S)/export.sh

series: tree
	@$(S)/series.sh

series-6.12:
	@$(S)/tree-6.12.sh
	@$(S)/series.sh 6.12

bench:
	@bench/run.sh

results:
	@bench/results.sh save

clean:
	rm -rf $(O) $(B)/o-* $(B)/src-* $(B)/guest $(B)/guest-* $(B)/run-* $(B)/disks
	-git -C $(B)/linux worktree prune 2>/dev/null

distclean:
	rm -rf $(O) $(B) dl

# fstests and LTP on the unpatched and patched kernels, v3.5 and 6.12
# (docs/fstests.md): a table of the results; non-zero on a regression.
.PHONY: fstests ltp
fstests:
	@$(S)/suite-all.sh fstests

ltp:
	@$(S)/suite-all.sh ltp
