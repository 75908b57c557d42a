# shellcheck shell=bash
# Sourced by demo.sh and preview.sh: starts bin/flipbook-emulator on a free
# port and points terraform at the freshly built provider. The caller
# defines die() and sets emulator_bin.

emulator_pid=

# emulator_start DIR [FLAG...]: starts the emulator with its output in DIR
# and sets base_url and upload_url from the one line it prints once it
# listens.
emulator_start() {
  local dir=$1
  shift
  "$emulator_bin" -addr "${EMULATOR_ADDR:-127.0.0.1:0}" "$@" >"$dir/emulator.out" 2>"$dir/emulator.err" &
  emulator_pid=$!
  local announce='' deadline=$((SECONDS + 10))
  while ((SECONDS < deadline)); do
    announce=$(grep -m1 '^listening ' "$dir/emulator.out" || true)
    [[ -n $announce ]] && break
    if ! kill -0 "$emulator_pid" 2>/dev/null; then
      cat "$dir/emulator.err" >&2 || true
      die "the emulator exited before it reported its addresses"
    fi
    sleep 0.1
  done
  if [[ -z $announce ]]; then
    cat "$dir/emulator.err" >&2 || true
    die "the emulator did not report 'listening base_url=... upload_url=...' within 10 s"
  fi
  base_url='' upload_url=''
  local field
  for field in $announce; do
    case $field in
      base_url=*) base_url=${field#base_url=} ;;
      upload_url=*) upload_url=${field#upload_url=} ;;
      *) ;;
    esac
  done
  [[ -n $base_url && -n $upload_url ]] || die "cannot read the addresses from the emulator's line: $announce"
}

# emulator_stop stops the emulator emulator_start started, if any.
emulator_stop() {
  if [[ -n $emulator_pid ]]; then
    kill "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
    emulator_pid=
  fi
}

# use_dev_provider DIR BIN: terraform takes the provider from BIN, never a
# registry download (`terraform init` is skipped: it needs the network with
# dev_overrides), with its CLI configuration written into DIR.
use_dev_provider() {
  cat >"$1/terraformrc" <<RC
provider_installation {
  dev_overrides {
    "flipbook/flipbook" = "$2"
  }
  direct {}
}
RC
  export TF_CLI_CONFIG_FILE=$1/terraformrc TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
}
