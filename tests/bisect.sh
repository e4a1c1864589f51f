# Every prefix of the series builds and boots to the guest's result line.
# One object directory (build/o-patched), first a copy of the unpatched
# kernel's, steps through the prefixes and ends as the patched kernel, so
# each step is an incremental build.  A
# prefix that passed before with the same commit id and the same inputs
# (config fragments, guest programs, scripts, compiler and QEMU
# versions) is not rebuilt (out/bisect/ keeps the stamps).  Sourced by
# tests/run.sh.
# shellcheck shell=bash

stamps=$OUT_DIR/bisect
mkdir -p "$stamps"
cfgsum=$({ cat "$TOP"/config/* "$TOP"/guest/* "$TOP"/scripts/*
	gcc --version; qemu-system-x86_64 --version; } 2>&1 |
	sha256sum | cut -c1-16)
revs=$(git -C "$TREE" rev-list --reverse base..series)
total_p=$(echo "$revs" | wc -l)
i=0
prev="" prev_ok=0
for rev in $revs; do
	i=$((i + 1))
	title="prefix $i/$total_p builds and boots ($(git -C "$TREE" log -1 --format=%s "$rev" | cut -c1-50))"
	stamp=$stamps/$rev-$cfgsum
	# A prefix that changes no kernel source (only tools/, Documentation/
	# or MAINTAINERS) builds the kernel of the prefix before it, booted
	# already.
	if [ "$prev_ok" = 1 ] && [ $i -lt "$total_p" ] &&
	   git -C "$TREE" diff --quiet "$prev" "$rev" -- . ':(exclude)tools' \
		':(exclude)Documentation' ':(exclude)MAINTAINERS'; then
		pass "$title [the kernel of prefix $((i - 1)): only tools/, Documentation/, MAINTAINERS change]"
		prev=$rev
		continue
	fi
	prev=$rev prev_ok=0
	# The last prefix is the patched kernel: always built, so that
	# build/o-patched ends up holding it.
	if [ -f "$stamp" ] && [ $i -lt "$total_p" ]; then
		pass "$title [passed before, not rebuilt]"
		prev_ok=1
		continue
	fi
	echo "       building prefix $i/$total_p..."
	if ! SEED=unpatched scripts/build.sh patched "$rev" >"$TESTS_LOG/bisect-$i.log" 2>&1; then
		fail "$title" "$(tail -n 12 "$TESTS_LOG/bisect-$i.log")"
		continue
	fi
	if VERDICT=--sane QUIET=1 FSLIST=ext2 TIMEOUT=60 scripts/guest.sh patched boot \
		>>"$TESTS_LOG/bisect-$i.log" 2>&1; then
		pass "$title"
		prev_ok=1
		touch "$stamp"
	else
		fail "$title" "$(tail -n 12 "$TESTS_LOG/bisect-$i.log")"
	fi
done
