#!/usr/bin/env bash
# Write DIR/index.html linking every exported chapter (DIR/*.html) and solution (DIR/solutions/*.html).
set -euo pipefail
dir="${1:-build/html}"
out="$dir/index.html"
shopt -s nullglob
{
    echo '<!doctype html><html><head><meta charset="utf-8"><title>autograd_course</title></head><body>'
    echo '<h1>autograd_course — chapters</h1><ul>'
    for f in "$dir"/*.html; do
        name="$(basename "$f")"
        [ "$name" = "index.html" ] && continue
        echo "<li><a href=\"$name\">${name%.html}</a></li>"
    done
    echo '</ul><h2>Solutions</h2><ul>'
    for f in "$dir"/solutions/*.html; do
        name="$(basename "$f")"
        echo "<li><a href=\"solutions/$name\">${name%.html}</a></li>"
    done
    echo '</ul></body></html>'
} > "$out"
echo "wrote $out"
