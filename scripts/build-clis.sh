#!/usr/bin/env bash
# Builds the newer CLIs the acceptance tests also run under (make test-clis),
# from the Go module proxy alone, and caches them outside the repository:
#
#   Terraform 1.16.4  -> $FLIPBOOK_CLIS_DIR/terraform-1.16.4/terraform
#   OpenTofu  1.12.6  -> $FLIPBOOK_CLIS_DIR/tofu-1.12.6/tofu
#
# FLIPBOOK_CLIS_DIR defaults to ${XDG_CACHE_HOME:-~/.cache}/flipbook-clis. A CLI
# already there that answers `version` is kept, so a second run costs nothing.
#
# Usage: scripts/build-clis.sh [terraform|tofu|all] [--print-path]
#   --print-path  prints the binary's path (one line per CLI) and nothing else on stdout.
#
# TEST-ONLY BUILDS. The Terraform binary is not the one HashiCorp ships: its
# module zip lacks the nested remote-state backend modules (azurerm, consul,
# cos, gcs, kubernetes, oci, oss, pg, s3) and internal/legacy, which its go.mod
# points at with local-path replace lines, so this script builds it from a
# copy with those backends left out. The local and http backends remain, which
# is all the provider's tests use. Never hand either binary to a user.
#
# `go install mod@version` refuses both modules (their go.mod has replace
# directives), so each is built with `go build` from its module directory.
set -euo pipefail

TF_VERSION="${FLIPBOOK_TF_VERSION:-1.16.4}"
TOFU_VERSION="${FLIPBOOK_TOFU_VERSION:-1.12.6}"
CACHE="${FLIPBOOK_CLIS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/flipbook-clis}"
GO="${GO:-go}"
export GOTOOLCHAIN=local

what="all"
print_path=0
for arg in "$@"; do
  case "$arg" in
    terraform|tofu|all) what="$arg" ;;
    --print-path) print_path=1 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "usage: $0 [terraform|tofu|all] [--print-path]" >&2; exit 2 ;;
  esac
done

log() { echo "build-clis: $*" >&2; }

# Temporary source copy and half-written binaries, removed however we exit.
CLEANUP=()
trap 'rm -rf "${CLEANUP[@]}"' EXIT

# module_dir MODULE VERSION: downloads the module zip (from the proxy, into the
# module cache) and prints its directory there.
module_dir() {
  local dir
  # Run outside any module so the repository's go.mod is never consulted.
  dir="$(cd / && GOFLAGS=-mod=mod "$GO" mod download -json "$1@$2" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    log "could not download $1@$2 from the Go module proxy ($("$GO" env GOPROXY))"
    return 1
  fi
  printf '%s\n' "$dir"
}

# cached BIN VERSION: true when BIN exists and reports VERSION.
cached() {
  local v
  [ -x "$1" ] || return 1
  # Read it all before matching: the output may start with a warning about the
  # CLI configuration, and a reader that stops early could SIGPIPE the CLI.
  v="$("$1" version 2>/dev/null)" || return 1
  grep -Eqx "(Terraform|OpenTofu) v$2" <<<"$v"
}

build_tofu() {
  local out="$CACHE/tofu-$TOFU_VERSION/tofu" src start
  if cached "$out" "$TOFU_VERSION"; then
    log "OpenTofu $TOFU_VERSION: cached at $out"
    return 0
  fi
  start=$SECONDS
  src="$(module_dir github.com/opentofu/opentofu "v$TOFU_VERSION")"
  mkdir -p "$(dirname "$out")"
  CLEANUP+=("$out.tmp")
  log "OpenTofu $TOFU_VERSION: building from $src (about 5 minutes on 2 cores)"
  # The module directory is read-only: go build writes only the -o file and GOCACHE.
  (cd "$src" && "$GO" build -trimpath -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
    -o "$out.tmp" ./cmd/tofu)
  mv -f "$out.tmp" "$out"
  cached "$out" "$TOFU_VERSION" || { log "the OpenTofu just built does not report v$TOFU_VERSION"; return 1; }
  log "OpenTofu $TOFU_VERSION: built in $((SECONDS - start)) s"
}

build_terraform() {
  local out="$CACHE/terraform-$TF_VERSION/terraform" src work start init dropped
  if cached "$out" "$TF_VERSION"; then
    log "Terraform $TF_VERSION: cached at $out"
    return 0
  fi
  start=$SECONDS
  src="$(module_dir github.com/hashicorp/terraform "v$TF_VERSION")"
  mkdir -p "$(dirname "$out")"
  work="$(mktemp -d "${TMPDIR:-/tmp}/flipbook-terraform-src.XXXXXX")"
  CLEANUP+=("$work" "$out.tmp")
  log "Terraform $TF_VERSION: copying $src to $work (test-only build, see the header)"
  cp -R "$src/." "$work/"
  chmod -R u+w "$work"

  # The backends whose nested modules the zip lacks, by module path and by the
  # import alias internal/backend/init/init.go gives them.
  dropped='azure|consul|cos|gcs|kubernetes|oci|oss|pg|s3'
  sed -E -i "\#github\.com/hashicorp/terraform/internal/(backend/remote-state/($dropped)|legacy)[[:space:]]#d" "$work/go.mod"
  init="$work/internal/backend/init/init.go"
  sed -E -i '/backend(Azure|Consul|Cos|GCS|Kubernetes|OCI|OSS|Pg|S3)[[:space:]."]/d' "$init"
  if grep -Eq "remote-state/($dropped)\"|internal/legacy" "$work/go.mod" "$init"; then
    log "Terraform $TF_VERSION: the layout changed; edit build_terraform in $0 to match"
    return 1
  fi

  log "Terraform $TF_VERSION: building (about 3.5 minutes on 2 cores)"
  (cd "$work" && "$GO" build -mod=mod -trimpath \
    -ldflags "-s -w -X github.com/hashicorp/terraform/version.dev=no" -o "$out.tmp" .)
  mv -f "$out.tmp" "$out"
  cached "$out" "$TF_VERSION" || { log "the Terraform just built does not report v$TF_VERSION"; return 1; }
  log "Terraform $TF_VERSION: built in $((SECONDS - start)) s"
}

case "$what" in
  terraform) build_terraform ;;
  tofu) build_tofu ;;
  all) build_terraform; build_tofu ;;
esac

if [ "$print_path" = 1 ]; then
  case "$what" in
    terraform) echo "$CACHE/terraform-$TF_VERSION/terraform" ;;
    tofu) echo "$CACHE/tofu-$TOFU_VERSION/tofu" ;;
    all) echo "$CACHE/terraform-$TF_VERSION/terraform"; echo "$CACHE/tofu-$TOFU_VERSION/tofu" ;;
  esac
fi
