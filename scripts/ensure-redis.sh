#!/usr/bin/env bash
# Runs before `npm test`: the shared-state tests start their own Debian redis-server (on a free port,
# persistence off, stopped by PID). Where it is missing and this user may install packages, it
# installs it and stops any service the package started; otherwise the Redis tests are skipped with
# the reason printed, except in CI, which must run them.
set -euo pipefail
command -v redis-server >/dev/null 2>&1 && exit 0
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "petstore-mock tests: redis-server is missing, so the shared-state tests will be skipped; install it with 'sudo apt-get install redis-server' to run them." >&2
  [ "${CI:-}" = true ] && exit 1
  exit 0
fi
echo "petstore-mock tests: installing Debian's redis-server for the shared-state tests"
log=$(mktemp)
if ! { DEBIAN_FRONTEND=noninteractive timeout 900 apt-get -o DPkg::Lock::Timeout=300 install -y -qq redis-server || { DEBIAN_FRONTEND=noninteractive timeout 900 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 900 apt-get -o DPkg::Lock::Timeout=300 install -y -qq redis-server; }; } >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "petstore-mock tests: could not install redis-server with apt-get; the shared-state tests need it." >&2
  exit 1
fi
rm -f "$log"
# The tests start their own servers; a system service the package may have started is not wanted.
service redis-server stop >/dev/null 2>&1 || true
redis-server --version
