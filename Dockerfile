# The petstore-mock image: the packed package and its production dependencies on a Node 20 base.
# `npm run image` stages them in .image/app on the host first (build, pack, npm ci --omit=dev),
# so the build itself needs no network; see docs/container.md.
ARG NODE_IMAGE=node:20-bookworm-slim
FROM ${NODE_IMAGE}

# The OCI labels: `npm run image` fills them from package.json and the git revision it builds
# (scripts/image-labels.mjs); a plain `docker build` leaves them unknown.
ARG OCI_TITLE=petstore-mock
ARG OCI_DESCRIPTION=
ARG OCI_VERSION=unknown
ARG OCI_REVISION=unknown
ARG OCI_SOURCE=
ARG OCI_LICENSES=
LABEL org.opencontainers.image.title="${OCI_TITLE}" \
      org.opencontainers.image.description="${OCI_DESCRIPTION}" \
      org.opencontainers.image.version="${OCI_VERSION}" \
      org.opencontainers.image.revision="${OCI_REVISION}" \
      org.opencontainers.image.source="${OCI_SOURCE}" \
      org.opencontainers.image.licenses="${OCI_LICENSES}"

# In a container the mock listens on every interface and its admin API answers to the service
# name `petstore` besides loopback names; every setting is a PETSTORE_MOCK_ variable (docs/cli.md).
ENV NODE_ENV=production \
    PETSTORE_MOCK_HOST=0.0.0.0 \
    PETSTORE_MOCK_PORT=4010 \
    PETSTORE_MOCK_ALLOW_HOST=petstore

WORKDIR /app
# Owned by root and read-only to the mock: it writes nothing to disk.
COPY .image/app/ /app/

# A numeric user, so `runAsNonRoot` checks can see it is not root without a passwd entry.
USER 10001:10001
EXPOSE 4010
STOPSIGNAL SIGTERM
# node:http, so the image needs no curl; not fetch, whose first use loads undici and made the check
# take twice as long. The port and token follow the settings; a port that is not a number is a
# Kubernetes service link (tcp://…), which the mock ignores too. 10 s to answer: on a loaded node
# starting Node in `exec` took over 3 s, and a check that flaps marks a working mock unhealthy.
HEALTHCHECK --interval=10s --timeout=10s --start-period=5s --retries=3 \
  CMD ["node", "-e", "const e=process.env,t=e.PETSTORE_MOCK_ADMIN_TOKEN,p=e.PETSTORE_MOCK_PORT,n=()=>process.exit(1);require('node:http').get({host:'127.0.0.1',port:/^\\d+$/.test(p)?p:4010,path:'/__admin/health',headers:t?{authorization:'Bearer '+t}:{},timeout:8000},r=>process.exit(r.statusCode===200?0:1)).on('timeout',n).on('error',n)"]
# The mock itself is PID 1, so SIGTERM from `docker stop` reaches it and it finishes its answers.
ENTRYPOINT ["node", "/app/bin/petstore-mock.js"]
