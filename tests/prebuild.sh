#!/usr/bin/env bash
# tests/prebuild.sh KERNEL...: build make check's debug kernel (debug)
# and i386 kernel (i386-patched) ahead of their groups, at idle priority
# (SCHED_IDLE, nice 19): tests/run.sh starts it, in a session of its own,
# beside the variants and pace groups, whose guests leave the cores mostly
# idle.  The groups' own builds wait for it (scripts/build.sh locks the
# worktree) and find the kernels built.  Its session id goes to
# $TESTS_LOG/prebuild.pid, for tests/run.sh to stop it if the run ends
# first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$TOP"

echo $$ >"$TESTS_LOG/prebuild.pid"
chrt --idle -p 0 $$
renice -n 19 -p $$ >/dev/null
for k in "$@"; do
	case $k in
	debug)
		CONFIG_FRAGMENT=$DEBUG_FRAGMENTS scripts/build.sh debug series ;;
	i386-patched)
		GUEST_ARCH=i386 CONFIG_FRAGMENT=$I386_FRAGMENTS \
			scripts/build.sh i386-patched series ;;
	*) die "prebuild: no kernel '$k' (debug, i386-patched)" ;;
	esac
	echo "prebuild: $k built"
done
