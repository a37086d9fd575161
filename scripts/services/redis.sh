# shellcheck shell=bash
# Redis: make sure one answers on $REDIS_HOST:$REDIS_PORT (start an installed
# redis-server with its data in .data/redis, install one, or use Docker). A
# REDIS_URL naming a remote host is only checked. Sourced by
# scripts/ensure-services.sh, after common.sh.

: "${REDIS_HOST:=127.0.0.1}"
: "${REDIS_PORT:=6379}"

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

# The Redis step of ensure-services.sh: attempts (a) to (e), then a warning
# when the server may evict keys.
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
