# syntax=docker/dockerfile:1
# Agentfair: the server (run by tsx, no build step) and the web app it serves, in one image.
# Build: docker build -t agentfair .   Run: see compose.yaml and the README ("Scaling out").

FROM node:20.19-bookworm-slim AS build
WORKDIR /app
# The offline OCR's onnxruntime would download CUDA libraries at install; its CPU build is used.
ENV ONNXRUNTIME_NODE_INSTALL_CUDA=skip
COPY package.json package-lock.json .npmrc ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev && rm -rf apps/web/src apps/web/node_modules/.vite e2e bench

FROM node:20.19-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0 DATA_DIR=/data
# Chromium's headless shell and CJK fonts print report PDFs (CHROMIUM_PATH).
RUN apt-get update && apt-get install -y --no-install-recommends chromium-headless-shell fonts-noto-cjk && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
