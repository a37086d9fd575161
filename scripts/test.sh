#!/usr/bin/env bash
# `npm test`: the services the tests need, a type check, the lint and format checks (`npm run lint`,
# which only reads), then every test (unit and integration) against a separate test database.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/ensure-services.sh --database apiary_test --browser
echo "[test] type-checking…"
npx tsc --noEmit -p .
echo "[test] linting…"
npm run lint --silent
echo "[test] running tests…"
npx mocha --config test/.mocharc.json 'test/unit/**/*.test.ts' 'test/integration/**/*.test.ts'
