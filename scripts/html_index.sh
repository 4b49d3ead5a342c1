#!/usr/bin/env bash
# Write DIR/index.html linking every exported chapter (DIR/*.html) and solution (DIR/solutions/*.html),
# and the Chinese edition's (DIR/zh/*.html, DIR/zh/solutions/*.html) when there are any.
set -euo pipefail
dir="${1:-build/html}"
out="$dir/index.html"
shopt -s nullglob

links() {  # links <folder relative to $dir, "" for the top>
    local rel="$1" f name
    for f in "$dir/${rel:+$rel/}"*.html; do
        name="$(basename "$f")"
        [ "$name" = "index.html" ] && continue
        echo "<li><a href=\"${rel:+$rel/}$name\">${name%.html}</a></li>"
    done
}

{
    echo '<!doctype html><html><head><meta charset="utf-8"><title>autograd_course</title></head><body>'
    echo '<h1>autograd_course — chapters</h1><ul>'
    links ""
    echo '</ul><h2>Solutions</h2><ul>'
    links solutions
    echo '</ul>'
    zh=("$dir"/zh/*.html "$dir"/zh/solutions/*.html)
    if [ "${#zh[@]}" -gt 0 ]; then
        echo '<h1 lang="zh-Hans">中文版 — 章节</h1><ul>'
        links zh
        echo '</ul><h2 lang="zh-Hans">参考答案</h2><ul>'
        links zh/solutions
        echo '</ul>'
    fi
    echo '</body></html>'
} > "$out"
echo "wrote $out"
