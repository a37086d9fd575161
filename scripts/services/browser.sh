# shellcheck shell=bash
# Chromium for the browser tests (--browser): use the one CHROMIUM_PATH names
# or a distribution's, install Debian's when allowed, otherwise warn (the
# browser tests then fail saying what is missing). Sourced by
# scripts/ensure-services.sh, after common.sh.

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
# servers (apt-get as root or with passwordless sudo); when that is not
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
