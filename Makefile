# damka build, test and benchmark targets. Everything runs with the Go toolchain only.
GO ?= go

.PHONY: build test test-race perft bench fuzz vet fmt generate

build:
	$(GO) build -o bin/damka ./cmd/damka

# The default test run: vet, formatting check, unit tests (deep runs skipped by -short).
test: vet
	@test -z "$$(gofmt -l .)" || (echo "gofmt needed on:"; gofmt -l .; exit 1)
	$(GO) test -short -count=1 ./...

test-race:
	$(GO) test -short -race -count=1 ./...

# Deep perft tables of shared/spec/rules.md section 4 (minutes).
perft:
	$(GO) test -count=1 -run 'TestPerft' -timeout 60m ./engine/

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/

vet:
	$(GO) vet ./...

fmt:
	gofmt -w .

generate:
	$(GO) generate ./...
