# One image for every process type; the command picks the type (see the Procfile and
# docker-compose.yml):
#   docker build -t apiary .
#   docker run --env-file .env apiary node dist/scripts/migrate.js                  # release
#   docker run --env-file .env -e HOST=0.0.0.0 -p 8080:8080 -p 8081:8081 apiary   # web (the default)
#   docker run --env-file .env apiary node dist/workers/main.js --queues swarm      # a worker

ARG NODE_IMAGE=node:20-bookworm-slim

# npm as package-lock.json is kept with: npm 11.16+ `npm ci` wants the lock file's five optional
# litesvm entries (scripts/ensure-dependencies.sh says why), and Node 20 images ship npm 10.
FROM ${NODE_IMAGE} AS npm
ARG NPM_VERSION=11.19.1
RUN npm install --global --no-audit --no-fund npm@${NPM_VERSION} && npm cache clean --force
WORKDIR /app
COPY package.json package-lock.json ./

# Every dependency, exactly as the lock file pins them, to compile with.
FROM npm AS deps
RUN npm ci --no-audit --no-fund --loglevel=error

# The compiled code: dist/ (scripts/build.sh, the same as `npm run build`).
FROM deps AS build
COPY tsconfig.json tsconfig.build.json ./
COPY api ./api
COPY workers ./workers
COPY shared ./shared
COPY scripts ./scripts
RUN bash scripts/build.sh

# The production dependencies alone. bigint-buffer (under @solana/web3.js) compiles a native
# binding at install, else falls back to plain JS and warns at every start: give it a compiler and
# the image's own Node headers (node-gyp would otherwise download them).
FROM npm AS prod-deps
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
ENV npm_config_nodedir=/usr/local
RUN npm ci --omit=dev --no-audit --no-fund --loglevel=error && npm cache clean --force

# The runtime: Node, the production dependencies and dist/, owned by root and run as the
# unprivileged `node` user, who may write only the local image directory (STORAGE_DIR).
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json ./
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p .data/uploads && chown -R node:node .data
USER node
EXPOSE 8080 8081
# The web process's /readyz (Postgres, Redis and the schema answer, not draining); Compose gives
# each worker its own, on its metrics port.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "dist/scripts/healthcheck.js"]
CMD ["node", "dist/api/main.js"]
