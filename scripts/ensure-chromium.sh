#!/usr/bin/env bash
# Runs before `npm test`: the browser tests drive Debian's chromium (no browser is downloaded from
# npm). Where it is missing and this user may install packages, it installs it; otherwise it says how.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "petstore-mock tests: the browser tests need Debian's chromium at /usr/bin/chromium; install it with 'sudo apt-get install chromium', then run npm test again." >&2
  exit 1
fi
echo "petstore-mock tests: installing Debian's chromium for the browser tests"
log=$(mktemp)
if ! { DEBIAN_FRONTEND=noninteractive timeout 900 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq chromium; } >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "petstore-mock tests: could not install chromium with apt-get; the browser tests need /usr/bin/chromium." >&2
  exit 1
fi
rm -f "$log"
/usr/bin/chromium --version
