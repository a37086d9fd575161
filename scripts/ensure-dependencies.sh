#!/usr/bin/env bash
# The npm dependencies, exactly as package-lock.json pins them, installed only when needed: when
# node_modules is missing or was installed from another package.json / package-lock.json (a hash
# of both is kept in node_modules/.apiary-installed-from). Otherwise it does nothing. It runs
# `npm ci`, which never writes the lock file: `npm install` re-resolves the tree and rewrote it,
# leaving every `npm start` / `npm test` with a changed checkout.
#
# The lock file holds five `{"optional": true}` entries under node_modules/litesvm/node_modules:
# litesvm 1.5.0 lists platform packages that were never published, and npm 11.16+ `npm ci` wants
# an entry for each (npm/cli#9846) although its `npm install` no longer writes them. After an
# `npm install` that changes the dependencies, put them back or `npm ci` refuses the lock file.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

MARKER=node_modules/.apiary-installed-from
wanted="$(node -e '
  const { createHash } = require("node:crypto");
  const { readFileSync } = require("node:fs");
  const hash = createHash("sha256");
  for (const file of ["package.json", "package-lock.json"]) hash.update(readFileSync(file));
  process.stdout.write(hash.digest("hex"));
')"
if [[ -f "$MARKER" && "$(cat "$MARKER")" == "$wanted" ]]; then exit 0; fi

# bigint-buffer (under @solana/web3.js; package.json's allowScripts lets its install script run)
# compiles a native binding, else falls back to plain JS and prints "Failed to load bindings" at
# every start. node-gyp would download Node's headers for it (no network for that here): point it
# at the ones installed beside this Node when there are some; without them it falls back quietly.
node_root="$(dirname "$(dirname "$(command -v node)")")"
if [[ -z "${npm_config_nodedir:-}" && -f "$node_root/include/node/node_api.h" ]]; then
  export npm_config_nodedir="$node_root"
fi

echo "[deps] installing the dependencies package-lock.json pins (npm ci)…"
npm ci --no-audit --no-fund --loglevel=error
echo "$wanted" > "$MARKER"
