# Series checks: it applies to pristine v3.5 and to v3.5 + fixes with no
# fuzz and no offset, checkpatch is clean, the export reproduces patches/,
# and make series writes a mbox addressed by get_maintainer.pl.
# Sourced by tests/run.sh.
# shellcheck shell=bash

tmp=$(mktemp -d "$BUILD_DIR/.test.XXXXXX")
series=$(find "$TOP/patches" -name '[0-9][0-9][0-9][0-9]-*.patch' \
	! -name '0000-cover-letter.patch' | sort)
count=$(echo "$series" | grep -c . || true)
# The series' version, from the one place that sets it.
ver=$(sed -n 's/.*--subject-prefix="PATCH \(v[0-9]*\)".*/\1/p' "$TOP/scripts/export.sh")
[ -n "$ver" ] || die "no --subject-prefix in scripts/export.sh"
[ "$count" = 4 ] && pass "patches/ holds 4 patches and a cover letter" ||
	fail "patches/ holds 4 patches and a cover letter" "found $count"
[ -f "$TOP/patches/0000-cover-letter.patch" ] &&
	grep -q "^Subject: \\[PATCH $ver 0/4\\]" "$TOP/patches/0000-cover-letter.patch" &&
	! grep -q '\*\*\* .* HERE \*\*\*' "$TOP/patches/0000-cover-letter.patch" &&
	pass "cover letter is [PATCH $ver 0/4] with its text filled in" ||
	fail "cover letter is [PATCH $ver 0/4] with its text filled in"

# apply_clean REV: git am onto REV, then GNU patch -F0 patch by patch on a
# copy of REV must report no fuzz and no offset.
apply_clean() {
	local rev=$1 wt=$tmp/am-$1 pt=$tmp/patch-$1 p out
	git -C "$TREE" worktree add -q --detach "$wt" "$rev" >/dev/null 2>&1 ||
		{ echo "cannot check out $rev"; return 1; }
	(cd "$wt" && git am -q $series) || { echo "git am onto $rev failed"; return 1; }
	mkdir -p "$pt"
	git -C "$TREE" archive "$rev" | tar -C "$pt" -x
	for p in $series; do
		out=$(cd "$pt" && patch -p1 -F0 --no-backup-if-mismatch <"$p" 2>&1) ||
			{ echo "$out"; echo "$(basename "$p") does not apply with -F0"; return 1; }
		if grep -Eq 'fuzz|offset' <<<"$out"; then
			echo "$out"
			echo "$(basename "$p") applies with fuzz or offset onto $rev"
			return 1
		fi
	done
}
expect_ok "git am onto pristine v3.5, no fuzz, no offset" apply_clean v$KVER
expect_ok "git am onto v3.5 + build fixes, no fuzz, no offset" apply_clean base
git -C "$TREE" worktree remove --force "$tmp/am-v$KVER" 2>/dev/null || true
git -C "$TREE" worktree remove --force "$tmp/am-base" 2>/dev/null || true

# v3.5's own checkpatch.pl, on every patch.
for p in $series; do
	out=$(cd "$TREE" && perl scripts/checkpatch.pl "$p" 2>&1 || true)
	if grep -q '^total: 0 errors, 0 warnings,' <<<"$out"; then
		pass "checkpatch: $(basename "$p")"
	else
		fail "checkpatch: $(basename "$p")" \
			"$(echo "$out" | grep -E '^(ERROR|WARNING|total)' | head -n 8)"
	fi
done

# What is committed is what is tested: the export is byte for byte patches/.
rm -rf "$tmp/export"
if OUT=$tmp/export "$TOP/scripts/export.sh" >"$TESTS_LOG/export.log" 2>&1 &&
   diff -r "$tmp/export" "$TOP/patches" >"$TESTS_LOG/export.diff" 2>&1; then
	pass "export reproduces patches/ byte for byte"
else
	fail "export reproduces patches/ byte for byte" \
		"see $TESTS_LOG/export.log and $TESTS_LOG/export.diff"
fi

# make series: a mbox for a submitter, addressed by get_maintainer.pl.
expect_ok "make series writes a ready-to-send mbox" \
	env SERIES_OUT="$tmp/series" SERIES_NAME="msync check" \
	SERIES_EMAIL="msync-check@example.invalid" "$TOP/scripts/series.sh"
mbox=$tmp/series/series.mbox
if [ -f "$mbox" ] && [ "$(grep -c "^Subject: \\[PATCH $ver [0-4]/4\\]" "$mbox")" = 5 ] &&
   grep -q '^To: .*linux-mm@kvack.org' "$mbox" &&
   grep -q 'linux-kernel@vger.kernel.org' "$mbox" &&
   [ "$(grep -c '^Signed-off-by: msync check <msync-check@example.invalid>' "$mbox")" = 4 ] &&
   ! grep -q 'msync-series@example.invalid' "$mbox"; then
	pass "series mbox: 5 messages, To/Cc from get_maintainer.pl, submitter's sign-off"
else
	fail "series mbox: 5 messages, To/Cc from get_maintainer.pl, submitter's sign-off" \
		"$(grep -E '^(Subject|To|Cc|Signed-off-by):' "$mbox" 2>/dev/null | head -n 12)"
fi
expect_fail "make series without an identity says so" "user.name" \
	env SERIES_NAME= SERIES_EMAIL= \
	SERIES_OUT="$tmp/series2" "$TOP/scripts/series.sh"

rm -rf "$tmp"
