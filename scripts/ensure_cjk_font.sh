#!/usr/bin/env bash
# Make sure a font with Chinese glyphs is installed: the chapters quote the notes' Chinese terms
# (the "Mirrors" lines, the key-term tables), and the Chinese edition (notebooks/zh) draws its
# graphs in "Noto Sans CJK SC" and gives matplotlib a CJK fallback font (autograd_course/course/fonts.py).
# Without one, browsers, Graphviz and matplotlib draw boxes.
# - fontconfig knows a font for Chinese (fc-list :lang=zh)  -> ok
# - root and apt-get exists                                  -> apt-get install fonts-noto-cjk
# - otherwise                                                -> print the command and fail:
#   conda (CONDA_PREFIX set): conda install -c conda-forge font-ttf-noto-cjk
#   macOS: PingFang SC ships with the system; Noto via Homebrew (font-noto-sans-cjk-sc)
#   Debian/Ubuntu: sudo apt-get install fonts-noto-cjk; Fedora: google-noto-sans-cjk-fonts
set -euo pipefail

have_font() {
    command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=zh family 2>/dev/null | head -n 1)" ]
}

# The font found: Noto Sans CJK SC (what the Chinese edition's graphs name) when present.
font_name() {
    local all
    all="$(fc-list :lang=zh family)"
    if grep -qx "Noto Sans CJK SC" <<< "${all//,/$'\n'}"; then
        echo "Noto Sans CJK SC"
    else
        echo "${all%%$'\n'*}"
    fi
}

if have_font; then
    echo "cjk font: ok ($(font_name))"
    exit 0
fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "cjk font: none found; installing fonts-noto-cjk with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq fonts-noto-cjk fontconfig
    fc-cache -f >/dev/null 2>&1 || true
    have_font && { echo "cjk font: ok ($(font_name))"; exit 0; }
    echo "cjk font: apt-get install finished but fontconfig lists no Chinese font" >&2
    exit 1
fi

if [ -n "${CONDA_PREFIX:-}" ]; then
    cmd="conda install -c conda-forge font-ttf-noto-cjk   (in the active environment, $CONDA_PREFIX)"
elif [ "$(uname -s)" = "Darwin" ]; then
    cmd="brew install --cask font-noto-sans-cjk-sc   (macOS ships PingFang SC, which browsers use; Graphviz and matplotlib look for Noto Sans CJK SC first)"
elif command -v apt-get >/dev/null 2>&1; then
    cmd="sudo apt-get install fonts-noto-cjk"
elif command -v dnf >/dev/null 2>&1; then
    cmd="sudo dnf install google-noto-sans-cjk-fonts"
else
    cmd="install Noto Sans CJK (https://github.com/notofonts/noto-cjk)"
fi
echo "cjk font: no font with Chinese glyphs. Install one with:" >&2
echo "    $cmd" >&2
exit 1
