# damka build, test and benchmark targets. Everything runs with the Go toolchain only.
GO ?= go

.PHONY: build test test-race perft bench bench-search fuzz vet fmt generate

build:
	$(GO) build -o bin/damka ./cmd/damka

# The default test run: vet, formatting check, unit tests (deep runs skipped by -short).
# -p 1: one test binary at a time, so the real-process games under a clock (Hub, DXP,
# match) are not starved by other packages on a 2-core machine.
test: vet
	@test -z "$$(gofmt -l .)" || (echo "gofmt needed on:"; gofmt -l .; exit 1)
	$(GO) test -short -count=1 -p 1 ./...

test-race:
	$(GO) test -short -race -count=1 ./...

# Deep perft tables of shared/spec/rules.md section 4 (minutes).
perft:
	$(GO) test -count=1 -run 'TestPerft' -timeout 60m ./engine/

# Perft throughput per variant (Mleaves/s), hashed perft, generation, board dispatch.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/

# Search speed: nodes/s with 1 and 2 threads (ns/op is time-to-depth 11 on the bench positions).
bench-search:
	$(GO) test -run '^$$' -bench 'NPS' ./bench/

# Each fuzzer for FUZZTIME (default 30s); seeds live in each package's testdata/fuzz/.
FUZZTIME ?= 30s
fuzz:
	@set -e; for f in $$(grep -rho --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' . | sort -u | sed 's/^func //'); do \
		pkg=$$(dirname $$(grep -rl --include='*_test.go' "^func $$f(" . | head -1)); \
		echo "== $$f ($$pkg)"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

vet:
	$(GO) vet ./...

fmt:
	gofmt -w .

generate:
	$(GO) generate ./...
