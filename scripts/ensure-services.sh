#!/usr/bin/env bash
# ensure-services.sh — make sure a local PostgreSQL and Redis answer, and that
# the application's database role and databases exist; with --browser, also
# that a Chromium for the browser tests is installed.
#
# Usage:
#   bash scripts/ensure-services.sh [--database NAME]... [--browser]
#
# Environment (defaults in brackets):
#   PGHOST [127.0.0.1]  PGPORT [5432]          where PostgreSQL should answer
#   APP_DB_USER [apiary]  APP_DB_PASSWORD [apiary]   the application's role
#   REDIS_HOST [127.0.0.1]  REDIS_PORT [6379]  where Redis should answer
#   APIARY_NO_INSTALL=1                        never install packages
#   CHROMIUM_PATH                              the browser to use (--browser)
#   DATABASE_URL / REDIS_URL                   if they point at a non-local
#       host, that server is only checked, nothing is started or created there.
#
# For each service the attempts are, in order:
#   (a) it already answers                      -> use it
#   (b) a server is installed                   -> start it
#   (c) root/sudo + apt-get + installing allowed -> apt-get install, then (b)
#   (d) a Docker engine answers                 -> docker compose up -d <service>
#   (e) otherwise exit non-zero, saying what is missing and how to provide it.
#
# The script is idempotent; when everything already runs it only does a few
# cheap checks (well under a second).

# shellcheck source-path=SCRIPTDIR
set -euo pipefail

# Each service has its own file in scripts/services/ (postgres.sh and
# postgres-databases.sh, redis.sh, browser.sh); common.sh holds what they share.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA_DIR="$ROOT/.data"
SERVICES_DIR="$ROOT/scripts/services"

# shellcheck source=services/common.sh
source "$SERVICES_DIR/common.sh"
# shellcheck source=services/postgres.sh
source "$SERVICES_DIR/postgres.sh"
# shellcheck source=services/postgres-databases.sh
source "$SERVICES_DIR/postgres-databases.sh"
# shellcheck source=services/redis.sh
source "$SERVICES_DIR/redis.sh"
# shellcheck source=services/browser.sh
source "$SERVICES_DIR/browser.sh"

DATABASES=()
WANT_BROWSER=0

usage() {
  sed -n '2,/^$/{s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
}

parse_args() {
  while (($# > 0)); do
    case "$1" in
      --database)
        (($# >= 2)) || die "--database needs a name"
        DATABASES+=("$2")
        shift 2
        ;;
      --database=*)
        DATABASES+=("${1#--database=}")
        shift
        ;;
      --browser)
        WANT_BROWSER=1
        shift
        ;;
      -h | --help)
        usage
        exit 0
        ;;
      *) die "unknown argument: $1 (usage: bash scripts/ensure-services.sh [--database NAME]... [--browser])" ;;
    esac
  done
  local db
  for db in "${DATABASES[@]}"; do
    [[ $db =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,62}$ ]] ||
      die "invalid database name '$db' (letters, digits, '_', '.', '-'; at most 63 characters)"
  done
}

main() {
  parse_args "$@"
  mkdir -p "$DATA_DIR"

  # Serialize concurrent runs (e.g. two `npm test` at once) so they do not
  # race to install or start the same server. Every command that may leave a
  # daemon behind is run with `9>&-`, or the daemon would inherit the lock and
  # hold it forever.
  if have flock; then
    exec 9>"$DATA_DIR/.ensure-services.lock"
    flock -w 900 9 || die "timed out waiting for another ensure-services run"
  fi

  ensure_postgres
  ensure_redis
  if ((WANT_BROWSER)); then ensure_chromium; fi
}

# Run only when executed, so the functions can also be sourced for testing.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  main "$@"
fi
