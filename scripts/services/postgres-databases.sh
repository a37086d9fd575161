# shellcheck shell=bash
# The application's PostgreSQL role and databases: create what is missing (as
# the `postgres` superuser when we can act as that OS user, otherwise as the
# role itself) and check the role logs in to each. DATABASES holds the names
# given with --database. Sourced by scripts/ensure-services.sh.

: "${APP_DB_USER:=apiary}"
: "${APP_DB_PASSWORD:=apiary}"

# SQL quoting, so that names and the password can be passed on stdin rather
# than on the command line (where `ps` would show the password).
sql_literal() { printf "'%s'" "${1//\'/\'\'}"; }
sql_ident() { printf '"%s"' "${1//\"/\"\"}"; }

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

# The role exists and logs in with APP_DB_PASSWORD; every requested database
# exists, owned by it.
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
