#!/usr/bin/env bash
# config.sh SRC OBJ: write OBJ/.config from allnoconfig plus the fragments
# (CONFIG_FRAGMENT: one or more files, later ones win; default
# config/msync.config), then check that every option they set survived
# Kconfig.  GUEST_ARCH (x86_64 or i386) is make's ARCH.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$1 obj=$2
frags=${CONFIG_FRAGMENT:-$TOP/config/msync.config}
arch=${GUEST_ARCH:-x86_64}
for f in $frags; do
	[ -f "$f" ] || die "config fragment $f not found"
done
mkdir -p "$obj"
# The fragments merged in order: a later line for an option replaces an
# earlier one.
frag=$obj/.msync-fragment
# shellcheck disable=SC2086
cat $frags | awk '
	/^CONFIG_[A-Za-z0-9_]+=/ { o = $0; sub(/=.*/, "", o) }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { o = $2 }
	o != "" { if (o in at) line[at[o]] = ""; at[o] = NR }
	{ line[NR] = $0; o = "" }
	END { for (i = 1; i <= NR; i++) if (line[i] != "") print line[i] }' >"$frag.tmp"
mv "$frag.tmp" "$frag"
stamp=$obj/.msync-config-stamp
sum=$( (cat "$frag"; echo "ARCH=$arch") | sha256sum | cut -d' ' -f1)
[ -f "$obj/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ] && exit 0

log=$obj/.config.log
if ! KCONFIG_ALLCONFIG=$frag make -C "$src" O="$obj" ARCH="$arch" \
	allnoconfig >"$log" 2>&1; then
	show_tail "$log"
	die "allnoconfig ($arch) with $frags failed"
fi

# Every "CONFIG_X=v" must be in .config as is; every "# CONFIG_X is not
# set" must not be set.
bad=0
while read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF "$line" "$obj/.config" && continue
		opt=${line%%=*}
		got=$(grep -E "^$opt=|^# $opt is not set" "$obj/.config" || true)
		echo "error: $frags ask for $line, but Kconfig gave '${got:-nothing (no such option)}': unmet dependency?" >&2
		bad=1
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		grep -q "^$opt=" "$obj/.config" || continue
		echo "error: $frags ask for $opt to be off, but Kconfig set it: $(grep "^$opt=" "$obj/.config")" >&2
		bad=1
		;;
	esac
done <"$frag"
if [ $bad != 0 ]; then
	rm -f "$obj/.config" "$stamp"
	die "config fragments $frags not satisfied (see above)"
fi
echo "$sum" >"$stamp"
