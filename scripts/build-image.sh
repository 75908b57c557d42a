#!/usr/bin/env bash
# Builds the flipbook-emulator OCI image for linux/amd64 and linux/arm64 with
# buildah, offline: the static binary is cross-compiled by Go and copied
# into a FROM scratch image (image/Containerfile). Writes one docker-archive
# per platform into OUT (default bin/image):
#
#   flipbook-emulator_<VERSION>_linux_<arch>.tar   (tag flipbook-emulator:<VERSION>)
#
# Load one with `docker load -i FILE` or `podman load -i FILE`. The docker
# format keeps HEALTHCHECK (the OCI format drops it). Storage is a private
# temporary directory (vfs driver), removed at the end: nothing is left in
# the machine's container storage.
#
# Needs: go, buildah (apt-get install buildah), git.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=${VERSION:-0.1.0-dev}
REVISION=${REVISION:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
OUT=${OUT:-bin/image}
ARCHES=${ARCHES:-amd64 arm64}
# Reproducible: layer times and the image's creation date are the commit's.
EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}

command -v buildah >/dev/null || { echo "error: buildah not found (apt-get install -y buildah)" >&2; exit 1; }

work=$(mktemp -d)
trap 'buildah --root "$work/storage" --runroot "$work/run" --storage-driver vfs rmi --all --force >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
bah=(buildah --root "$work/storage" --runroot "$work/run" --storage-driver vfs)
mkdir -p "$OUT"

start=$SECONDS
for arch in $ARCHES; do
  ctx="$work/ctx-$arch"
  mkdir -p "$ctx/image"
  cp -R image/rootfs "$ctx/image/rootfs"
  CGO_ENABLED=0 GOOS=linux GOARCH="$arch" go build -trimpath \
    -ldflags "-s -w -X main.version=$VERSION -X main.commit=$REVISION" \
    -o "$ctx/linux/$arch/flipbook-emulator" ./cmd/flipbook-emulator
  tag="localhost/flipbook-emulator:$VERSION-$arch"
  "${bah[@]}" bud --quiet --format docker --platform "linux/$arch" --timestamp "$EPOCH" \
    --build-arg VERSION="$VERSION" --build-arg REVISION="$REVISION" \
    -f image/Containerfile -t "$tag" "$ctx" >/dev/null
  archive="$OUT/flipbook-emulator_${VERSION}_linux_${arch}.tar"
  rm -f "$archive"
  "${bah[@]}" push --quiet "$tag" "docker-archive:$archive:flipbook-emulator:$VERSION" >/dev/null
  echo "$archive $(du -k "$archive" | cut -f1) KiB"
done
echo "built in $((SECONDS - start)) s"
