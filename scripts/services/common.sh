# shellcheck shell=bash
# Helpers every service script uses: messages, waiting with a deadline, acting
# as root, installing with apt-get, and Docker Compose as the last resort.
# Sourced by scripts/ensure-services.sh, which sets ROOT and DATA_DIR.

: "${APIARY_NO_INSTALL:=0}"
# How long to wait for a freshly started server to answer.
READY_TIMEOUT_SECONDS="${READY_TIMEOUT_SECONDS:-30}"
APT_UPDATED=0

log() { printf '[services] %s\n' "$*"; }
warn() { printf '[services] warning: %s\n' "$*" >&2; }
die() {
  printf '[services] error: %s\n' "$1" >&2
  shift
  local line
  for line in "$@"; do
    [[ -z $line ]] || printf '[services]   %s\n' "$line" >&2
  done
  exit 1
}

is_local_host() {
  case "$1" in
    "" | 127.0.0.1 | localhost | ::1 | "[::1]" | /*) return 0 ;;
    *) return 1 ;;
  esac
}

# Microseconds since the epoch; EPOCHREALTIME's decimal separator follows the
# locale, so strip either one.
now_us() { printf '%s' "${EPOCHREALTIME//[.,]/}"; }

# wait_for DESCRIPTION COMMAND... — poll COMMAND every 0.2 s until it succeeds
# or READY_TIMEOUT_SECONDS pass. Never a fixed sleep: fast servers are used as
# soon as they answer.
wait_for() {
  local what="$1"
  shift
  local deadline=$(($(now_us) + READY_TIMEOUT_SECONDS * 1000000))
  until "$@"; do
    if (($(now_us) > deadline)); then
      warn "$what did not answer within ${READY_TIMEOUT_SECONDS}s"
      return 1
    fi
    sleep 0.2
  done
}

have() { command -v "$1" >/dev/null 2>&1; }

# Run a command with root privileges: directly if we are root, through
# passwordless sudo if available, otherwise fail.
can_be_root() { [[ $EUID -eq 0 ]] || { have sudo && sudo -n true 2>/dev/null; }; }
as_root() {
  if [[ $EUID -eq 0 ]]; then
    "$@"
  elif have sudo && sudo -n true 2>/dev/null; then
    sudo -n -- "$@"
  else
    return 1
  fi
}

install_allowed() {
  [[ $APIARY_NO_INSTALL != 1 ]] && have apt-get && can_be_root
}

# apt-get install, running `apt-get update` at most once per run (a fresh
# machine or container may have no package lists at all). The lock timeout lets
# two concurrent runs, or another apt process, queue instead of failing.
apt_install() {
  local apt=(env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -qq)
  if [[ $APT_UPDATED == 0 ]]; then
    log "apt-get update"
    as_root "${apt[@]}" update >/dev/null
    APT_UPDATED=1
  fi
  log "apt-get install -y $*"
  as_root "${apt[@]}" install -y --no-install-recommends "$@" >/dev/null 9>&-
}

docker_available() {
  have docker && timeout 15 docker info >/dev/null 2>&1
}

compose() {
  if docker compose version >/dev/null 2>&1; then
    docker compose -f "$ROOT/scripts/services/docker-compose.yml" "$@" 9>&-
  elif have docker-compose; then
    docker-compose -f "$ROOT/scripts/services/docker-compose.yml" "$@" 9>&-
  else
    warn "a Docker engine answers but neither 'docker compose' nor 'docker-compose' is installed"
    return 1
  fi
}

show_log_tail() {
  local file="$1"
  if [[ -r $file ]]; then
    printf '[services]   last lines of %s:\n' "$file" >&2
    tail -n 15 "$file" | sed 's/^/[services]     /' >&2
  fi
}
