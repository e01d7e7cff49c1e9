#!/usr/bin/env bash
# The container tests' base image, localhost/petstore-mock-base:trixie-node20: Debian trixie's
# nodejs (20.19) by debootstrap, as no registry is reachable here; made once and kept. CI starts
# this beside `npm ci` (the downloads overlap); the container test runs it too and, under the same
# lock, waits for a build in progress instead of starting a second one.
set -euo pipefail
IMAGE=localhost/petstore-mock-base:trixie-node20
LOCK=${TMPDIR:-/tmp}/petstore-mock-base-image.lock

exec 9>"$LOCK"
flock 9
podman image exists "$IMAGE" && exit 0

root=$(mktemp -d "${TMPDIR:-/tmp}/petstore-base-root.XXXXXX")
log="$root.log"
trap 'rm -rf "$root" "$log"' EXIT
if ! timeout 600 debootstrap --variant=minbase --include=nodejs trixie "$root" http://deb.debian.org/debian >"$log" 2>&1; then
  tail -c 4000 "$log" >&2
  echo "petstore-mock tests: debootstrap of Debian trixie failed; the container tests need its base image." >&2
  exit 1
fi
rm -rf "$root"/usr/share/doc "$root"/usr/share/man "$root"/usr/share/info "$root"/var/cache/apt "$root"/var/lib/apt/lists
if ! out=$(tar -C "$root" -c . | podman import --change 'CMD ["node"]' - "$IMAGE" 2>&1); then
  echo "$out" >&2
  exit 1
fi
