# syntax=docker/dockerfile:1
# omweso: one binary holding the server, the rules engine and the browser client.

# The defaults build the binary here from the source, on Docker Hub's images. CI, which
# reaches no registry, gives its own images and a binary it has built already
# (tools/docker/ci.sh): BUILDER_IMAGE=<any Debian image> and PREBUILT=1, with a build
# context holding only target/release/omweso. The build stage cannot be left out (the
# legacy builder runs every stage), so PREBUILT turns its compilation into a check that
# the binary is there.
ARG BUILDER_IMAGE=rust:1.95-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

# --- build ----------------------------------------------------------------------------
FROM ${BUILDER_IMAGE} AS build
ARG PREBUILT=
WORKDIR /src
COPY . .
# The same command CI runs outside Docker (.ci/run), whose binary it then puts in here.
RUN if [ -n "$PREBUILT" ]; then test -x target/release/omweso; \
    else cargo build --release --locked -p omweso; fi

# --- run ------------------------------------------------------------------------------
FROM ${RUNTIME_IMAGE}
RUN useradd --system --uid 10001 --home-dir /var/lib/omweso --create-home omweso
COPY --from=build /src/target/release/omweso /usr/local/bin/omweso
USER omweso
WORKDIR /var/lib/omweso
# Inside the container the server listens on every interface; publish the port you want.
# The default database is an SQLite file in the volume; docker-compose.yml uses PostgreSQL.
ENV OMWESO_ADDR=0.0.0.0:8080 \
    OMWESO_METRICS_ADDR=0.0.0.0:9091 \
    OMWESO_DATABASE_URL=sqlite:///var/lib/omweso/omweso.db \
    OMWESO_LOG_FORMAT=json \
    OMWESO_HEALTHCHECK_URL=http://127.0.0.1:8080/healthz
VOLUME /var/lib/omweso
EXPOSE 8080 9091
HEALTHCHECK --interval=10s --timeout=5s --start-period=15s --retries=3 CMD ["omweso", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["omweso"]
CMD ["serve"]
