#!/usr/bin/env bash
# config.sh SRC OBJ: write OBJ/.config from allnoconfig plus the fragment
# (CONFIG_FRAGMENT, default config/msync.config), then check that every
# option the fragment sets survived Kconfig.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

src=$1 obj=$2
frag=${CONFIG_FRAGMENT:-$TOP/config/msync.config}
[ -f "$frag" ] || die "config fragment $frag not found"
mkdir -p "$obj"
stamp=$obj/.msync-config-stamp
sum=$(sha256sum "$frag" | cut -d' ' -f1)
[ -f "$obj/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ] && exit 0

log=$obj/.config.log
if ! KCONFIG_ALLCONFIG=$frag make -C "$src" O="$obj" allnoconfig >"$log" 2>&1; then
	show_tail "$log"
	die "allnoconfig with $frag failed"
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
		echo "error: $frag asks for $line, but Kconfig gave '${got:-nothing (no such option)}': unmet dependency?" >&2
		bad=1
		;;
	"# CONFIG_"*" is not set")
		opt=${line#\# }
		opt=${opt%% *}
		grep -q "^$opt=" "$obj/.config" || continue
		echo "error: $frag asks for $opt to be off, but Kconfig set it: $(grep "^$opt=" "$obj/.config")" >&2
		bad=1
		;;
	esac
done <"$frag"
if [ $bad != 0 ]; then
	rm -f "$obj/.config" "$stamp"
	die "config fragment $frag not satisfied (see above)"
fi
echo "$sum" >"$stamp"
