#!/usr/bin/env bash
# `npm run test:faults`: the fault tests (test/faults). Each starts its own PostgreSQL cluster and
# Redis server on free ports, in a temporary directory, so it may kill and restart them without
# touching the shared servers other runs use; ensure-services.sh makes sure the server binaries
# are installed (it installs them on a fresh machine). Run by .ci/run after `npm test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/ensure-services.sh
echo "[test:faults] running fault tests…"
npx mocha --config test/.mocharc.json 'test/faults/**/*.test.ts'
