# syntax=docker/dockerfile:1
# omweso: one binary holding the server, the rules engine and the browser client.

# --- build ----------------------------------------------------------------------------
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
# The same command CI runs outside Docker to check that this step works.
RUN cargo build --release --locked -p omweso

# --- run ------------------------------------------------------------------------------
FROM debian:bookworm-slim
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
