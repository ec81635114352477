#!/bin/sh
# Runs `blazar check` on every .q file of a folder that imports a .NET plugin
# (`import "X.dll"`; other .q files there are the modules they import) and prints,
# per file, PASS or the first error; then the totals and the first errors grouped by
# message (names, strings and numbers blanked out).
#
#   benches/published/check.sh DIR [BLAZAR]
#
# BLAZAR defaults to target/debug/blazar. The published files are not part of the
# repository: collect them into DIR first (the library tools' find_string for `Quasar.UI.dll`, `Quasar.Video.dll`, ...).
set -u
dir=${1:?usage: check.sh DIR [BLAZAR]}
blazar=${2:-target/debug/blazar}
total=0
pass=0
firsts=$(mktemp)
trap 'rm -f "$firsts"' EXIT
for f in "$dir"/*.q; do
    [ -e "$f" ] || continue
    grep -qi '^[[:space:]]*import[[:space:]]*"[^"]*\.dll"' "$f" || continue
    total=$((total + 1))
    out=$(BLAZAR_QUIET=1 "$blazar" check "$f" 2>&1)
    first=$(printf '%s\n' "$out" | grep -m1 ': error: ')
    if [ -z "$first" ]; then
        pass=$((pass + 1))
        echo "PASS $(basename "$f")"
    else
        echo "FAIL $(basename "$f"): ${first#*: error: }"
        printf '%s\n' "${first#*: error: }" >> "$firsts"
    fi
done
echo
echo "$pass of $total files pass check"
if [ -s "$firsts" ]; then
    echo
    echo "first errors, grouped:"
    sed -e 's/`[^`]*`/`_`/g' -e 's/"[^"]*"/"_"/g' -e "s/'[^']*'/'_'/g" -e 's/[0-9][0-9]*/N/g' "$firsts" |
        sort | uniq -c | sort -rn
fi
