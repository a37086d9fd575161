#!/usr/bin/env bash
# `npm run build`: compiles the run-time code (api/, workers/, shared/ and the scripts the processes
# run: migrate, apikey, healthcheck, the LLM simulator, the Solana localnet) to dist/, then copies
# the files the code reads beside itself at run time (the eta views of api/pages/). The Procfile,
# the Dockerfile and docker-compose.yml run what lands here with plain `node`. dist/ is git-ignored
# and rebuilt from scratch, so a deleted source file never lingers there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

rm -rf dist
node_modules/.bin/tsc -p tsconfig.build.json
cp -r api/pages/views dist/api/pages/views
