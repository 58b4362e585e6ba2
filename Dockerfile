# Switchboard: gateway and console in one image, on Node 24.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
# The console and the server bundle (packages/server/dist): the server runs as plain JavaScript.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
# NODE_OPTIONS: the flags of packages/server/src/node-flags.ts (short GC pauses under load, memory
# given back after a burst); MALLOC_MMAP_THRESHOLD_ and MALLOC_ARENA_MAX: packages/server/src/malloc-environment.ts
# (large request bodies go back to the system once freed; two malloc arenas, not one per thread).
ENV NODE_ENV=production \
    NODE_OPTIONS="--max-semi-space-size=8 --expose-gc" \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MALLOC_ARENA_MAX=2 \
    PORT=3000 \
    SQLITE_PATH=/data/switchboard.db
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/status').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# Straight to the server (not through npm) so SIGTERM reaches it and shutdown is graceful.
CMD ["node", "packages/server/dist/main.mjs"]
