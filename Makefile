# waymark: build, test, benchmark.
GO      ?= go
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo devel)
# The release binary: no symbol table or DWARF (-s -w) and no build paths
# (-trimpath); panics still print file:line from the runtime's tables.
LDFLAGS := -s -w -X github.com/waymark-dev/waymark/internal/version.stamp=$(VERSION)

.PHONY: build release test lint test-short test-quick testdata-apps vet bench evals evals-full clean

# Two programs, one version: bin/waymark is the thin front (cmd/waymark-front,
# about 1 ms a start), which has the daemon run a command or hands it to the
# complete CLI beside it, bin/waymark-full (cmd/waymark). No cgo, as in the
# release: package net with cgo links the dynamic loader, a millisecond on
# every start of waymark-full.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/waymark-full ./cmd/waymark
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/waymark ./cmd/waymark-front

# Stripped binaries for Linux and macOS (amd64, arm64) and Windows (amd64)
# in dist/, with dist/SHA256SUMS.
release:
	GO="$(GO)" VERSION="$(VERSION)" bash scripts/release.sh

# Every test, browser tests included; a missing browser fails them. The
# real web applications the sheet and document tests serve are installed
# first (npm, once; skipped when they are there). Packages run as many at
# once as there are cores: four at once on two cores was measured slower
# (the driver's tests took 970 s instead of 350 s), as was running the
# linters beside the tests. -vet=off: lint's go vet ./... has just run
# every analyzer go test would (a subset of go vet's), on the same packages
# and their test files; go test's own subset is cached apart from it, so
# on CI's empty cache it was a second vet of every package and its
# dependencies (for driver, batch and internal/adversarial alone, 56 s of
# CPU).
test: testdata-apps lint
	WAYMARK_REQUIRE_BROWSER=1 $(GO) test -race -vet=off -count=1 -timeout 20m ./...

# gofmt, go vet and staticcheck (a go.mod tool, built once).
lint:
	gofmt -l . | (! grep .) || (echo "gofmt would change the files above" && exit 1)
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

# Unit tests only (no browser).
test-short:
	$(GO) test -short -count=1 ./...

# Every test, browser tests included, without the race detector or the
# linters: a first run on a new machine, in about half the time of test.
test-quick: testdata-apps
	WAYMARK_REQUIRE_BROWSER=1 $(GO) test -count=1 -timeout 20m ./...

# The npm packages the sheet and document tests serve on loopback.
testdata-apps:
	bash scripts/install-testdata-apps.sh

# Evaluations that measure rather than pass or fail one case, each in
# evals/NAME with its README: every one writes its section of
# evals/results/latest.json and latest.md. Kept out of test: they need a
# browser and take minutes. evals is the quick set (under 10 minutes on two
# cores); evals-full the whole corpora (WAYMARK_EVALS=full).
evals: testdata-apps
	WAYMARK_REQUIRE_BROWSER=1 $(GO) test -tags evals -count=1 -timeout 20m -v ./evals/...

evals-full: testdata-apps
	WAYMARK_EVALS=full WAYMARK_REQUIRE_BROWSER=1 $(GO) test -tags evals -count=1 -timeout 120m -v ./evals/...

bench: build
	bash bench/run_all.sh

clean:
	rm -rf bin dist
