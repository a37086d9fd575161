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

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA_DIR="$ROOT/.data"

: "${PGHOST:=127.0.0.1}"
: "${PGPORT:=5432}"
: "${APP_DB_USER:=apiary}"
: "${APP_DB_PASSWORD:=apiary}"
: "${REDIS_HOST:=127.0.0.1}"
: "${REDIS_PORT:=6379}"
: "${APIARY_NO_INSTALL:=0}"
# How long to wait for a freshly started server to answer.
READY_TIMEOUT_SECONDS="${READY_TIMEOUT_SECONDS:-30}"

DATABASES=()
WANT_BROWSER=0
APT_UPDATED=0
# Unix socket directory used to reach a local server as the `postgres`
# superuser (peer authentication). Debian's builds use /var/run/postgresql;
# a server we start with plain pg_ctl uses its own (set in start_with_pg_ctl).
PG_SOCKET_DIR="/var/run/postgresql"

# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------

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

usage() {
  sed -n '2,/^$/{s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"
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

# Run a command as the `postgres` OS user (needed for peer authentication as
# the database superuser). Runs from / so that an unreadable working directory
# does not produce warnings.
as_postgres() {
  if [[ $(id -un) == postgres ]]; then
    (cd / && "$@")
  elif [[ $EUID -eq 0 ]] && id postgres >/dev/null 2>&1; then
    if have runuser; then
      (cd / && runuser -u postgres -- "$@")
    else
      (cd / && su -s /bin/bash postgres -c "$(printf '%q ' "$@")")
    fi
  elif have sudo && sudo -n -u postgres true 2>/dev/null; then
    (cd / && sudo -n -u postgres -- "$@")
  else
    return 1
  fi
}

# SQL quoting, so that names and the password can be passed on stdin rather
# than on the command line (where `ps` would show the password).
sql_literal() { printf "'%s'" "${1//\'/\'\'}"; }
sql_ident() { printf '"%s"' "${1//\"/\"\"}"; }

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
    docker compose -f "$ROOT/docker-compose.yml" "$@" 9>&-
  elif have docker-compose; then
    docker-compose -f "$ROOT/docker-compose.yml" "$@" 9>&-
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

# ---------------------------------------------------------------------------
# PostgreSQL
# ---------------------------------------------------------------------------

pg_ready() { pg_isready -q -h "$PGHOST" -p "$PGPORT" -t 1 >/dev/null 2>&1; }

# A Debian-style install (postgresql-common): start the cluster on $PGPORT,
# creating one if none uses that port.
start_with_pg_ctlcluster() {
  local ver name port logfile bindir
  local found_ver="" found_name="" found_log=""
  # Columns: version, cluster, port, status, owner, data directory, log file.
  while read -r ver name port _ _ _ logfile _; do
    if [[ $port == "$PGPORT" ]]; then
      found_ver=$ver found_name=$name found_log=$logfile
      break
    fi
  done < <(pg_lsclusters -h 2>/dev/null)

  if [[ -z $found_ver ]]; then
    # No cluster on our port: create one with the newest installed server.
    bindir="$(find_pg_bindir)" || return 1
    found_ver="$(basename "$(dirname "$bindir")")"
    found_name=main
    if pg_lsclusters -h 2>/dev/null | awk -v v="$found_ver" '$1 == v && $2 == "main" { f = 1 } END { exit !f }'; then
      found_name=apiary
    fi
    log "postgres: creating cluster $found_ver/$found_name on port $PGPORT"
    as_root pg_createcluster --port "$PGPORT" "$found_ver" "$found_name" >/dev/null || return 1
    found_log="/var/log/postgresql/postgresql-$found_ver-$found_name.log"
  fi

  log "postgres: starting cluster $found_ver/$found_name"
  # --skip-systemctl-redirect: there may be no systemd (containers, CI).
  # A failure here (e.g. "already running" from a concurrent run) is not fatal
  # by itself; readiness below decides.
  as_root pg_ctlcluster --skip-systemctl-redirect "$found_ver" "$found_name" start 2>&1 9>&- |
    sed 's/^/[services]   /' || true
  PG_SOCKET_DIR=/var/run/postgresql
  if ! wait_for "postgres" pg_ready; then
    show_log_tail "$found_log"
    return 1
  fi
}

# Plain PostgreSQL binaries without Debian's wrappers: keep a data directory in
# .data/postgres, owned by the `postgres` user when we are root (initdb refuses
# to run as root).
start_with_pg_ctl() {
  local bindir="$1"
  local pgdata="$DATA_DIR/postgres"
  local logfile="$DATA_DIR/postgres.log"
  local run=()
  if [[ $EUID -eq 0 ]]; then
    id postgres >/dev/null 2>&1 ||
      die "PostgreSQL binaries found in $bindir but there is no 'postgres' OS user to run them as"
    run=(as_postgres)
  fi
  mkdir -p "$pgdata"
  chmod 700 "$pgdata"
  touch "$logfile"
  if [[ $EUID -eq 0 ]]; then
    chown postgres: "$pgdata" "$logfile"
  fi

  # Unix sockets have a ~107 byte path limit; fall back to /tmp for deep paths.
  local sockdir="$pgdata"
  ((${#sockdir} < 90)) || sockdir=/tmp

  if [[ ! -f $pgdata/PG_VERSION ]]; then
    log "postgres: initdb $pgdata"
    "${run[@]}" "$bindir/initdb" -D "$pgdata" -U postgres -E UTF8 \
      --auth-local=peer --auth-host=scram-sha-256 >/dev/null || return 1
    {
      echo "listen_addresses = 'localhost'"
      echo "unix_socket_directories = '$sockdir'"
    } >>"$pgdata/postgresql.conf"
  fi
  log "postgres: starting $pgdata with pg_ctl"
  "${run[@]}" "$bindir/pg_ctl" -D "$pgdata" -l "$logfile" -o "-p $PGPORT" -w -t "$READY_TIMEOUT_SECONDS" start >/dev/null 9>&- ||
    true
  PG_SOCKET_DIR="$sockdir"
  if ! wait_for "postgres" pg_ready; then
    show_log_tail "$logfile"
    return 1
  fi
}

# The bin directory of the newest installed PostgreSQL *server* (Debian's
# layout first). Client-only installs (postgresql-client) also have
# /usr/lib/postgresql/*/bin, but without pg_ctl and postgres.
find_pg_bindir() {
  local dir
  while read -r dir; do
    if [[ -x $dir/pg_ctl && -x $dir/postgres ]]; then
      printf '%s' "$dir"
      return 0
    fi
  done < <(printf '%s\n' /usr/lib/postgresql/*/bin | sort -rV)
  if have pg_ctl && have postgres; then
    dirname "$(command -v pg_ctl)"
  else
    return 1
  fi
}

pg_server_installed() { find_pg_bindir >/dev/null; }

# (b): start an installed server. Returns 1 when none is installed or it fails.
start_installed_postgres() {
  pg_server_installed || return 1
  if have pg_lsclusters && have pg_ctlcluster; then
    start_with_pg_ctlcluster
    return
  fi
  local bindir
  bindir="$(find_pg_bindir)" || return 1
  start_with_pg_ctl "$bindir"
}

ensure_postgres_running() {
  # (a) already answering.
  if pg_ready; then return 0; fi

  is_local_host "$PGHOST" ||
    die "PostgreSQL at $PGHOST:$PGPORT does not answer (not a local host, so not starting one)."

  # (b) installed here: start it.
  if start_installed_postgres; then return 0; fi
  if pg_server_installed; then
    die "PostgreSQL is installed but could not be started on port $PGPORT (see above)."
  fi

  # (c) install it.
  if install_allowed; then
    apt_install postgresql
    start_installed_postgres && return 0
    die "PostgreSQL was installed but could not be started on port $PGPORT (see above)."
  fi

  # (d) Docker.
  if docker_available; then
    log "postgres: docker compose up -d postgres"
    compose up -d postgres && wait_for "postgres (docker)" pg_ready && return 0
  fi

  # (e) give up with a useful message.
  die "no PostgreSQL server answers on $PGHOST:$PGPORT and none could be started." \
    "Provide one of:" \
    "  - install PostgreSQL (Debian/Ubuntu: 'sudo apt-get install postgresql'), then rerun;" \
    "$(can_be_root || echo "  - run this script as root (or with passwordless sudo) so it can install it;")" \
    "  - a Docker engine, so 'docker compose up -d postgres' can be used;" \
    "  - DATABASE_URL=postgres://user:pass@host:5432/db pointing at an existing server." \
    "$([[ $APIARY_NO_INSTALL == 1 ]] && echo "(installing is disabled by APIARY_NO_INSTALL=1)")"
}

# Can the application role log in to database $1 over TCP with its password?
app_can_login() {
  PGPASSWORD="$APP_DB_PASSWORD" PGCONNECT_TIMEOUT=3 \
    psql -X -q -A -t -h "$PGHOST" -p "$PGPORT" -U "$APP_DB_USER" -d "$1" \
    -c 'select 1' >/dev/null 2>&1
}

all_databases_ok() {
  local db
  for db in "${DATABASES[@]}"; do
    app_can_login "$db" || return 1
  done
  # With no databases requested, at least check the role can log in.
  ((${#DATABASES[@]} > 0)) || app_can_login postgres
}

# SQL run as the superuser: create the role if missing and make sure it can log
# in with the configured password, then create each missing database owned by
# it. \gexec runs each generated statement on its own, outside a transaction,
# which CREATE DATABASE requires.
superuser_setup_sql() {
  local user_lit user_ident pw_lit db
  user_lit="$(sql_literal "$APP_DB_USER")"
  user_ident="$(sql_ident "$APP_DB_USER")"
  pw_lit="$(sql_literal "$APP_DB_PASSWORD")"
  cat <<SQL
SELECT 'CREATE ROLE ${user_ident//\'/\'\'}' WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $user_lit) \gexec
ALTER ROLE $user_ident LOGIN CREATEDB PASSWORD $pw_lit;
SQL
  for db in "${DATABASES[@]}"; do
    printf "SELECT 'CREATE DATABASE %s OWNER %s' WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = %s) \\\\gexec\n" \
      "$(sql_ident "$db" | sed "s/'/''/g")" "$(printf '%s' "$user_ident" | sed "s/'/''/g")" "$(sql_literal "$db")"
  done
}

# Same for the databases, but as the application role itself (it has
# CREATEDB). Used when we cannot act as the `postgres` OS user, e.g. a server
# in Docker whose POSTGRES_USER is the application role.
app_setup_sql() {
  local db
  for db in "${DATABASES[@]}"; do
    printf "SELECT 'CREATE DATABASE %s' WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = %s) \\\\gexec\n" \
      "$(sql_ident "$db" | sed "s/'/''/g")" "$(sql_literal "$db")"
  done
}

superuser_psql() {
  as_postgres psql -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKET_DIR" -p "$PGPORT" -U postgres -d postgres "$@"
}

ensure_role_and_databases() {
  local names="${DATABASES[*]:-}"
  local summary="role $APP_DB_USER${names:+, databases ${names// /, }}"

  # Fast path: everything already exists and the role can log in.
  if all_databases_ok; then
    log "postgres: $PGHOST:$PGPORT ready ($summary)"
    return 0
  fi

  if is_local_host "$PGHOST" && superuser_psql -c 'select 1' >/dev/null 2>&1; then
    log "postgres: creating/updating $summary (as postgres)"
    superuser_setup_sql | superuser_psql >/dev/null
  elif app_can_login postgres; then
    log "postgres: creating missing databases as $APP_DB_USER"
    app_setup_sql | PGPASSWORD="$APP_DB_PASSWORD" \
      psql -X -q -v ON_ERROR_STOP=1 -h "$PGHOST" -p "$PGPORT" -U "$APP_DB_USER" -d postgres >/dev/null
  else
    die "role '$APP_DB_USER' cannot log in to $PGHOST:$PGPORT, and this user cannot act as the 'postgres' OS user to create it." \
      "Create it yourself, e.g.:" \
      "  sudo -u postgres psql -c \"CREATE ROLE $APP_DB_USER LOGIN CREATEDB PASSWORD '...'\"" \
      "or rerun this script as root."
  fi

  # Verify: the role logs in over TCP with its password to every database.
  local db
  for db in "${DATABASES[@]}"; do
    app_can_login "$db" ||
      die "role '$APP_DB_USER' still cannot log in to database '$db' on $PGHOST:$PGPORT with APP_DB_PASSWORD." \
        "Check pg_hba.conf allows 'host all all 127.0.0.1/32 scram-sha-256' (or md5)."
  done
  ((${#DATABASES[@]} > 0)) || app_can_login postgres ||
    die "role '$APP_DB_USER' cannot log in to $PGHOST:$PGPORT with APP_DB_PASSWORD."
  log "postgres: $PGHOST:$PGPORT ready ($summary)"
}

# ---------------------------------------------------------------------------
# Redis
# ---------------------------------------------------------------------------

# Talk RESP over bash's /dev/tcp so that redis-cli is not needed. Prints the
# server's maxmemory-policy (empty if it could not be read) and succeeds when
# the server answers PING (a password-protected server, -NOAUTH, also counts
# as answering). Runs in a child bash under `timeout`, because a connect to an
# unreachable remote host would otherwise hang.
_redis_probe() {
  local reply line policy="" cr=$'\r'
  exec 3<>"/dev/tcp/$1/$2" || return 1
  printf 'PING\r\nCONFIG GET maxmemory-policy\r\n' >&3
  IFS= read -r -t 2 reply <&3 || return 1
  reply=${reply%"$cr"}
  [[ $reply == "+PONG" || $reply == -NOAUTH* ]] || return 1
  # CONFIG GET answers: *2 / $16 / maxmemory-policy / $N / <policy>
  IFS= read -r -t 1 line <&3 || line=""
  if [[ $line == "*2$cr" ]]; then
    for _ in 1 2 3 4; do
      IFS= read -r -t 1 line <&3 || break
      policy=${line%"$cr"}
    done
  fi
  printf '%s' "$policy"
}
redis_probe() {
  timeout 3 bash -c "$(declare -f _redis_probe)"'; _redis_probe "$@"' _ "$1" "$2" 2>/dev/null
}

redis_ready() { redis_probe "$REDIS_HOST" "$REDIS_PORT" >/dev/null; }

find_redis_server() {
  if have redis-server; then
    command -v redis-server
  elif [[ -x /usr/bin/redis-server ]]; then
    echo /usr/bin/redis-server
  elif [[ -x /usr/sbin/redis-server ]]; then
    echo /usr/sbin/redis-server
  else
    return 1
  fi
}

# (b) for Redis: run our own instance. Append-only file (fsync every second) so
# queued jobs survive a Redis restart, as the service requires; noeviction
# because BullMQ must never lose keys.
start_installed_redis() {
  local bin
  bin="$(find_redis_server)" || return 1
  local dir="$DATA_DIR/redis"
  mkdir -p "$dir"
  local bind=127.0.0.1
  [[ $REDIS_HOST == "::1" || $REDIS_HOST == "[::1]" ]] && bind=::1
  log "redis: starting $bin on $bind:$REDIS_PORT (data and log in ${dir#"$ROOT"/})"
  "$bin" --daemonize yes --bind "$bind" --port "$REDIS_PORT" \
    --save "" --appendonly yes --appendfsync everysec --maxmemory-policy noeviction \
    --dir "$dir" --logfile "$dir/redis.log" --pidfile "$dir/redis.pid" >/dev/null 2>&1 9>&- || true
  if ! wait_for "redis" redis_ready; then
    show_log_tail "$dir/redis.log"
    return 1
  fi
}

ensure_redis() {
  # A REDIS_URL naming a remote host replaces the local setup: only check it.
  local url_re='^redis://([^@/]*@)?(\[[^]]*\]|[^:/?]*)(:([0-9]+))?'
  if [[ ${REDIS_URL:-} =~ $url_re ]] &&
    ! is_local_host "${BASH_REMATCH[2]}"; then
    REDIS_HOST="${BASH_REMATCH[2]}" REDIS_PORT="${BASH_REMATCH[4]:-6379}"
    REDIS_HOST="${REDIS_HOST#[}" REDIS_HOST="${REDIS_HOST%]}"
    redis_ready || die "Redis from REDIS_URL ($REDIS_HOST:$REDIS_PORT) does not answer PING."
    log "redis: $REDIS_HOST:$REDIS_PORT ready (from REDIS_URL)"
    return 0
  fi

  local policy
  # (a) already answering.
  if policy="$(redis_probe "$REDIS_HOST" "$REDIS_PORT")"; then
    :
  elif ! is_local_host "$REDIS_HOST"; then
    die "Redis at $REDIS_HOST:$REDIS_PORT does not answer (not a local host, so not starting one)."
  # (b) installed: start it.
  elif start_installed_redis; then
    policy=noeviction
  elif find_redis_server >/dev/null; then
    die "redis-server is installed but could not be started on port $REDIS_PORT (see above)."
  # (c) install it (redis-server; redis-cli is not needed by this script).
  elif install_allowed; then
    apt_install redis-server
    # Debian's package may start its own instance (when no policy-rc.d stops
    # it); if that one now answers, use it.
    if redis_ready; then
      policy="$(redis_probe "$REDIS_HOST" "$REDIS_PORT")"
    else
      start_installed_redis ||
        die "redis-server was installed but could not be started on port $REDIS_PORT (see above)."
      policy=noeviction
    fi
  # (d) Docker.
  elif docker_available && log "redis: docker compose up -d redis" &&
    compose up -d redis && wait_for "redis (docker)" redis_ready; then
    policy=noeviction
  # (e) give up.
  else
    die "no Redis answers on $REDIS_HOST:$REDIS_PORT and none could be started." \
      "Provide one of:" \
      "  - install Redis (Debian/Ubuntu: 'sudo apt-get install redis-server'), then rerun;" \
      "$(can_be_root || echo "  - run this script as root (or with passwordless sudo) so it can install it;")" \
      "  - a Docker engine, so 'docker compose up -d redis' can be used;" \
      "  - REDIS_URL=redis://host:6379/0 pointing at an existing server." \
      "$([[ $APIARY_NO_INSTALL == 1 ]] && echo "(installing is disabled by APIARY_NO_INSTALL=1)")"
  fi

  if [[ -n $policy && $policy != noeviction ]]; then
    warn "Redis maxmemory-policy is '$policy'; BullMQ needs 'noeviction' (CONFIG SET maxmemory-policy noeviction)"
  fi
  log "redis: $REDIS_HOST:$REDIS_PORT ready"
}

# ---------------------------------------------------------------------------
# Chromium (for the browser tests)
# ---------------------------------------------------------------------------

# Where distributions put Chromium or Chrome; test/helpers/browser.ts looks in
# the same places.
CHROMIUM_CANDIDATES=(/usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome-stable /usr/bin/google-chrome)

find_chromium() {
  local bin
  if [[ -n ${CHROMIUM_PATH:-} ]]; then
    [[ -x $CHROMIUM_PATH ]] && printf '%s' "$CHROMIUM_PATH"
    return
  fi
  for bin in "${CHROMIUM_CANDIDATES[@]}"; do
    if [[ -x $bin ]]; then
      printf '%s' "$bin"
      return 0
    fi
  done
  return 1
}

# The browser tests need a real browser. Installing one is attempted like the
# servers above (apt-get as root or with passwordless sudo); when that is not
# possible, the run goes on and the browser tests fail saying what is missing.
ensure_chromium() {
  local bin
  if bin="$(find_chromium)"; then
    log "chromium: $bin"
    return 0
  fi
  if [[ -n ${CHROMIUM_PATH:-} ]]; then
    warn "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; the browser tests will fail"
    return 0
  fi
  if install_allowed; then
    apt_install chromium
    if bin="$(find_chromium)"; then
      log "chromium: $bin"
      return 0
    fi
  fi
  warn "no Chromium found and none could be installed; the browser tests will fail." \
    "Install it (Debian/Ubuntu: 'sudo apt-get install chromium'), rerun as root, or set CHROMIUM_PATH."
}

# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

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

ensure_postgres() {
  # A DATABASE_URL naming a remote host replaces the local setup: only check
  # that it answers; its role and databases are that server's business.
  local url_re='^postgres(ql)?://([^@/]*@)?(\[[^]]*\]|[^:/?]*)'
  if [[ ${DATABASE_URL:-} =~ $url_re ]] &&
    ! is_local_host "${BASH_REMATCH[3]}"; then
    pg_isready -q -d "$DATABASE_URL" -t 5 ||
      die "PostgreSQL from DATABASE_URL (host ${BASH_REMATCH[3]}) does not answer."
    log "postgres: ${BASH_REMATCH[3]} ready (from DATABASE_URL; not creating roles or databases)"
    return 0
  fi
  if ! have pg_isready || ! have psql; then
    # The client tools come with the server package; without them we can
    # neither check nor create anything.
    if install_allowed; then
      apt_install postgresql-client
    else
      die "the PostgreSQL client tools (pg_isready, psql) are missing." \
        "Install them (Debian/Ubuntu: 'sudo apt-get install postgresql-client'), or rerun as root."
    fi
  fi
  ensure_postgres_running
  ensure_role_and_databases
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
