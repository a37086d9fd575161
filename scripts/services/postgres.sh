# shellcheck shell=bash
# PostgreSQL: make sure a server answers on $PGHOST:$PGPORT (start an installed
# one, install one, or use Docker), then hand over to postgres-databases.sh for
# the application's role and databases. A DATABASE_URL naming a remote host is
# only checked. Sourced by scripts/ensure-services.sh, after common.sh.

: "${PGHOST:=127.0.0.1}"
: "${PGPORT:=5432}"
# Unix socket directory used to reach a local server as the `postgres`
# superuser (peer authentication). Debian's builds use /var/run/postgresql;
# a server we start with plain pg_ctl uses its own (set in start_with_pg_ctl).
PG_SOCKET_DIR="/var/run/postgresql"

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

# psql as the database superuser, over the local socket (peer authentication).
superuser_psql() {
  as_postgres psql -X -q -v ON_ERROR_STOP=1 -h "$PG_SOCKET_DIR" -p "$PGPORT" -U postgres -d postgres "$@"
}

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

# Attempts (a) to (e) of ensure-services.sh for a local server.
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

# The PostgreSQL step of ensure-services.sh: server running, then the role and
# databases (postgres-databases.sh).
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
