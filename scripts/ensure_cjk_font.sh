#!/usr/bin/env bash
# Make sure a font with Chinese glyphs is installed: the chapters quote the notes' Chinese terms
# (the "Mirrors" lines, the key-term tables). Without one, browsers and Graphviz draw boxes.
# - fontconfig knows a font for Chinese (fc-list :lang=zh)  -> ok
# - root and apt-get exists                                  -> apt-get install fonts-noto-cjk
# - otherwise                                                -> print the command and fail
set -euo pipefail

have_font() {
    command -v fc-list >/dev/null 2>&1 && [ -n "$(fc-list :lang=zh family 2>/dev/null | head -n 1)" ]
}

if have_font; then
    echo "cjk font: ok ($(fc-list :lang=zh family | head -n 1))"
    exit 0
fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "cjk font: none found; installing fonts-noto-cjk with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq fonts-noto-cjk fontconfig
    fc-cache -f >/dev/null 2>&1 || true
    have_font && { echo "cjk font: ok ($(fc-list :lang=zh family | head -n 1))"; exit 0; }
    echo "cjk font: apt-get install finished but fontconfig lists no Chinese font" >&2
    exit 1
fi

if [ "$(uname -s)" = "Darwin" ]; then
    cmd="(macOS ships Chinese fonts: PingFang SC; check Font Book)"
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
