#!/usr/bin/env bash
# Make sure Graphviz's `dot` program is available (the Python `graphviz` package only wraps it).
# - already on PATH         -> ok
# - root and apt-get exists -> install it (CI / fresh containers)
# - otherwise               -> print the one command for this platform and fail
set -euo pipefail

if command -v dot >/dev/null 2>&1; then
    echo "graphviz: ok ($(dot -V 2>&1))"
    exit 0
fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "graphviz: 'dot' not found; installing with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq graphviz
    command -v dot >/dev/null 2>&1 && { echo "graphviz: ok ($(dot -V 2>&1))"; exit 0; }
    echo "graphviz: apt-get install finished but 'dot' is still missing" >&2
    exit 1
fi

if [ -n "${CONDA_PREFIX:-}" ]; then
    cmd="conda install -c conda-forge graphviz"
elif [ "$(uname -s)" = "Darwin" ]; then
    cmd="brew install graphviz"
elif command -v apt-get >/dev/null 2>&1; then
    cmd="sudo apt-get install graphviz"
elif command -v dnf >/dev/null 2>&1; then
    cmd="sudo dnf install graphviz"
else
    cmd="conda install -c conda-forge graphviz   (or see https://graphviz.org/download/)"
fi
echo "graphviz: the 'dot' program is missing. Install it with:" >&2
echo "    $cmd" >&2
exit 1
