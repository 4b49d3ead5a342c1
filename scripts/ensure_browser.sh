#!/usr/bin/env bash
# Make sure the browser test (tests/browser, `make test-browser`) has a browser to drive:
# Debian/Ubuntu's own Chromium at /usr/bin/chromium.
#
# We never run `playwright install`: it downloads browser builds from the internet, which CI
# machines may not reach. Playwright (the Python package) drives the distribution's Chromium
# through executable_path instead; tests/browser/conftest.py pip-installs that package itself.
#
# - /usr/bin/chromium exists  -> ok
# - root and apt-get exists   -> apt-get install chromium
# - otherwise                 -> print the command to run and fail
set -euo pipefail

CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

if [ -x "$CHROMIUM" ]; then
    echo "chromium: ok ($("$CHROMIUM" --version 2>/dev/null || echo "$CHROMIUM"))"
    exit 0
fi

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "chromium: $CHROMIUM not found; installing with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium
    [ -x "$CHROMIUM" ] && { echo "chromium: ok ($("$CHROMIUM" --version 2>/dev/null))"; exit 0; }
    echo "chromium: apt-get install finished but $CHROMIUM is still missing" >&2
    exit 1
fi

if command -v apt-get >/dev/null 2>&1; then
    cmd="sudo apt-get install chromium"
else
    cmd="install Chromium so that it is at $CHROMIUM (or set CHROMIUM=/path/to/chromium)"
fi
echo "chromium: $CHROMIUM is missing. Install it with:" >&2
echo "    $cmd" >&2
exit 1
