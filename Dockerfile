# waymark in a container: the CLI, the daemon and MCP server, with Debian's
# Chromium. Build and run:
#
#   docker build -t waymark .
#   docker run --rm -it waymark open https://example.com
#   docker run --rm -i waymark mcp          # an MCP server on stdio
#
# The browser runs headless and, as the container's user is not root, with
# Chromium's own sandbox (give the container --cap-add=SYS_ADMIN or a
# seccomp profile that allows user namespaces if your runtime forbids them;
# `waymark doctor` says what it finds).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=devel
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/waymark-dev/waymark/internal/version.stamp=${VERSION}" -o /out/waymark-full ./cmd/waymark && \
    CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/waymark-dev/waymark/internal/version.stamp=${VERSION}" -o /out/waymark ./cmd/waymark-front

FROM debian:bookworm-slim
RUN apt-get update && \
    apt-get install -y --no-install-recommends chromium ca-certificates fonts-liberation && \
    rm -rf /var/lib/apt/lists/* && \
    useradd --create-home --uid 10001 waymark
COPY --from=build /out/waymark /out/waymark-full /usr/local/bin/
USER waymark
WORKDIR /home/waymark
ENV WAYMARK_BROWSER=/usr/bin/chromium
ENTRYPOINT ["waymark"]
CMD ["--help"]
