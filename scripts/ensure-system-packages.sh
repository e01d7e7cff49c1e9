#!/usr/bin/env bash
# Runs before `npm test`: installs the Debian packages the tests use when they are missing (no
# browser or Python package is downloaded from npm). Where this user may not install packages, it
# says how; only a missing chromium stops the tests, the pytest recipe's test skips and says why,
# and so do the shared-state tests without redis-server (they start their own servers), except in
# CI, which must run them. The container image tests (test/container) need podman with runc,
# debootstrap for their local Debian base image, and podman-compose for the compose recipe; the
# network partition test (test/redis/partition.test.ts) needs iproute2 (`ip netns`, veth) and root.
set -euo pipefail
PACKAGES=(chromium python3-pytest python3-requests python3-urllib3 python3-tenacity python3-httpx curl golang-go openjdk-17-jre-headless redis-server redis-sentinel podman runc debootstrap podman-compose prometheus haproxy iproute2)

missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "petstore-mock tests: missing Debian packages: ${missing[*]}; install them with 'sudo apt-get install ${missing[*]}', then run npm test again." >&2
  if [ "${CI:-}" = true ] && ! command -v redis-server >/dev/null 2>&1; then
    echo "petstore-mock tests: CI must run the shared-state tests, and redis-server is missing." >&2
    exit 1
  fi
  [ -x /usr/bin/chromium ] && exit 0
  exit 1
fi
echo "petstore-mock tests: installing Debian packages for the tests: ${missing[*]}"
log=$(mktemp)
# Other installs may hold the dpkg lock for a while: wait for it rather than fail.
if ! { DEBIAN_FRONTEND=noninteractive timeout 900 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 900 apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${missing[@]}"; } >"$log" 2>&1; then
  tail -n 20 "$log" >&2
  echo "petstore-mock tests: could not install ${missing[*]} with apt-get; the browser tests need /usr/bin/chromium, the pytest recipe python3-pytest and python3-requests, the real-client audit suite python3-urllib3, python3-tenacity, python3-httpx, curl, golang-go and openjdk-17-jre-headless, the shared-state tests redis-server and redis-sentinel, the container tests podman, runc, debootstrap and podman-compose." >&2
  exit 1
fi
rm -f "$log"
# The shared-state tests start their own redis-server; a system service the package started is not wanted.
if [[ " ${missing[*]} " == *" redis-server "* ]]; then service redis-server stop >/dev/null 2>&1 || true; fi
if [[ " ${missing[*]} " == *" redis-sentinel "* ]]; then service redis-sentinel stop >/dev/null 2>&1 || true; fi
