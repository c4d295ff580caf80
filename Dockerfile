# syntax=docker/dockerfile:1
# Multi-stage build of svc: the query service (default target) and the secrets reference server.

FROM node:20-bookworm-slim AS build
WORKDIR /app
# Exactly the lock file (docs/operations.md "Installing"); .npmrc makes an engine mismatch an error.
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json nest-cli.json ./
COPY scripts ./scripts
COPY src ./src
COPY codegen ./codegen
COPY catalogs ./catalogs
# Extension modules (EXTENSIONS=extensions/<name>/<name>.module.ts, or the example in examples/) are
# compiled with the server into dist/, which is where EXTENSIONS finds a .ts module's build output.
COPY extensions ./extensions
COPY examples ./examples
RUN npm run build && npm prune --omit=dev

# Secrets reference server (SPEC §15): `docker build --target secrets-server .`
FROM node:20-bookworm-slim AS secrets-server
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/src/secrets-server ./dist/src/secrets-server
# Listening off loopback requires tls: {cert, key} in the config; mount them with the config.
VOLUME ["/var/lib/secrets"]
EXPOSE 8700
USER node
ENTRYPOINT ["node", "dist/src/secrets-server/main.js"]
CMD ["-config", "/etc/secrets/secrets.yaml"]

# Query service (default target).
FROM node:20-bookworm-slim AS query-service
WORKDIR /app
# MALLOC_ARENA_MAX=2: two malloc arenas instead of up to 16 on 2 cores (docs/operations.md "Large answers": ~10-15 MB idle).
ENV NODE_ENV=production BIND=:15000 CORE_DB_PATH=/data/core.duckdb CATALOGS_DIR=/app/catalogs MALLOC_ARENA_MAX=2
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/catalogs ./catalogs
RUN mkdir -p /data && chown node:node /data /app
VOLUME ["/data"]
EXPOSE 15000
USER node
# Liveness (GET /health, on the port of BIND); load balancers should probe GET /ready instead.
HEALTHCHECK --interval=30s --timeout=3s --start-period=30s CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.BIND||':15000').split(':').pop()+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM (docker stop): /ready turns 503, requests in flight finish within SHUTDOWN_TIMEOUT, exit 0.
STOPSIGNAL SIGTERM
CMD ["node", "dist/src/main.js"]
