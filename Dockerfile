# syntax=docker/dockerfile:1
# Forja as a container (README.md "Containers"): the console and the server bundle are built in
# the first stage; the second holds only what `node dist-server/main.mjs` needs and runs as the
# image's unprivileged `node` user. Written to the official Node image's conventions; not built
# in this repository's CI (no container engine there).

FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 and @node-rs/argon2 ship prebuilt binaries; the compilers are only for a platform
# without one, and stay in this stage.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# The committed model must match the manifests; then the console (dist/) and the server (dist-server/).
RUN npm run generate -- --check && npm run build && npm run build:server
RUN npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    DIST_DIR=/app/dist
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/dist-server ./dist-server
# The data directory (SQLite database, uploads, exports, generated secrets) belongs to `node`;
# mount a volume there. A named volume takes these owners the first time it is mounted.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness: the process answers HTTP. (No curl in the slim image: Node's own fetch.)
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node as PID 1 receives SIGTERM from `docker stop` and closes gracefully (SHUTDOWN_GRACE_MS).
CMD ["node", "dist-server/main.mjs"]
