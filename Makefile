# damka build, test and benchmark targets. Everything runs with the Go toolchain only.
GO ?= go

.PHONY: build test test-race perft bench bench-search fuzz fuzz-ci soak vet fmt generate test-gui gui-shots wasm release release-snapshot test-slurm

# GOAMD64 is the x86-64 level bin/damka needs: v1 runs on every x86-64
# processor; v2 (POPCNT, SSE4.2: since 2009) and v3 (AVX2, BMI2: since 2013
# to 2015) make the search a few per cent faster (docs/development.md,
# "Instruction set"). By default make build takes the highest level this
# machine has (Linux: /proc/cpuinfo; elsewhere v1); GOAMD64=v1 make build
# makes a binary for any x86-64 machine. Other architectures ignore it.
cpuflags = $(foreach f,$(1),$(shell grep -qw $(f) /proc/cpuinfo 2>/dev/null && echo $(f)))
GOAMD64 ?= $(if $(filter 10,$(words $(call cpuflags,avx2 bmi1 bmi2 fma movbe f16c abm popcnt sse4_2 ssse3))),v3,$(if $(filter 4,$(words $(call cpuflags,popcnt sse4_2 ssse3 cx16))),v2,v1))

build:
	GOAMD64=$(GOAMD64) $(GO) build -o bin/damka ./cmd/damka

# The default test run: vet, formatting check, unit tests (deep runs skipped by -short).
# -p 1: one test binary at a time, so the real-process games under a clock (Hub, DXP,
# match) are not starved by other packages on a 2-core machine.
test: vet
	@test -z "$$(gofmt -l .)" || (echo "gofmt needed on:"; gofmt -l .; exit 1)
	$(GO) test -short -count=1 -p 1 ./...

# damka gui in a real browser (docs/gui.md): headless Chromium plays a game in
# each variant by clicks, edits a position, analyses, on the served page and on
# the wasm folder (docs/gui.md "Tests"); it fails when no chromium
# binary is found (Debian: apt-get install chromium; or DAMKA_CHROMIUM=PATH),
# where make test skips it. About 3 minutes on 2 cores.
test-gui:
	DAMKA_GUI_REQUIRE=1 $(GO) test -count=1 -run 'TestBrowser' -v ./protocol/web/

# The screenshots of docs/gui.md (docs/gui-VARIANT.png, and each variant at 360
# and 1920 px wide: docs/gui-VARIANT-360.png, docs/gui-VARIANT-1920.png), from
# the browser tests.
gui-shots:
	DAMKA_GUI_REQUIRE=1 DAMKA_GUI_SHOTS=$(CURDIR)/docs $(GO) test -count=1 -run 'TestBrowser' ./protocol/web/

# The page with no server (docs/gui.md "The page with no server"): bin/wasm/
# holds damka's page (protocol/web/static), damka.wasm (cmd/damka-wasm, run
# in a Web Worker by worker.js), damka.wasm.gz (what the worker loads where
# the browser can unzip it) and Go's wasm_exec.js; any static web server can
# host the folder.
WASM_EXEC = $(firstword $(wildcard $(shell $(GO) env GOROOT)/lib/wasm/wasm_exec.js $(shell $(GO) env GOROOT)/misc/wasm/wasm_exec.js))
wasm:
	@test -n "$(WASM_EXEC)" || (echo "no wasm_exec.js in $$($(GO) env GOROOT)"; exit 1)
	rm -rf bin/wasm
	mkdir -p bin/wasm
	GOOS=js GOARCH=wasm $(GO) build -trimpath -o bin/wasm/damka.wasm ./cmd/damka-wasm
	cp protocol/web/static/* bin/wasm/
	cp cmd/damka-wasm/static/* bin/wasm/
	cp $(WASM_EXEC) bin/wasm/
	gzip -9 -k bin/wasm/damka.wasm
	@ls -l bin/wasm/damka.wasm bin/wasm/damka.wasm.gz

test-race:
	$(GO) test -short -race -count=1 ./...

# Deep perft tables of docs/rules.md "Perft" (minutes).
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

# CI's fuzz run: every fuzzer for FUZZTIME_CI (default 10s), all of them even when one
# fails (.ci/fuzz: each fuzzer's wall time and the total; a crasher fails it and is
# left in the package's testdata/fuzz/FuzzName/ to commit as a seed; Go's own
# "context deadline exceeded" race with no crasher gets one rerun).
# 25 fuzzers x 10 s + their builds: about 6 minutes on 2 cores.
FUZZTIME_CI ?= 10s
fuzz-ci:
	GO=$(GO) FUZZTIME=$(FUZZTIME_CI) .ci/fuzz

# Soak (not in make test): SOAK_GAMES Hub games per variant (damka against damka through
# the match runner, three time controls), a fifth as many DXP games and a tenth as many
# text-mode games per variant, CheckerBoard games where wine, bin/cbhub.exe, bin/damka.dll
# and the wine prefix bin/wine exist (make test-cb makes them), and one engine process per side over SOAK_MEM games for its memory growth. One line
# per front end and variant; it fails on any illegal move, crash, hang, time loss, unreadable
# PDN or memory growth over 10%. SOAK_DXP, SOAK_TEXT, SOAK_CB set those counts (SOAK_GAMES=0:
# only those), SOAK_CB_MARGIN the CheckerBoard games' time margin in ms (1000: wine's delays),
# SOAK_DIR keeps the PDN files, SOAK_SHARD=i/N plays shard i of N (other
# openings, its own PDN file names), SOAK_VARIANTS=russian,english only those
# variants' games (CheckerBoard: where english is one). See docs/development.md.
SOAK_GAMES ?= 20
SOAK_MEM ?= $(SOAK_GAMES)
SOAK_MARGIN ?= 200
soak:
	DAMKA_SOAK=$(SOAK_GAMES) DAMKA_SOAK_MEM=$(SOAK_MEM) DAMKA_SOAK_MARGIN=$(SOAK_MARGIN) DAMKA_SOAK_DIR=$(SOAK_DIR) DAMKA_SOAK_SHARD=$(SOAK_SHARD) DAMKA_SOAK_VARIANTS=$(SOAK_VARIANTS) \
		DAMKA_SOAK_DXP=$(SOAK_DXP) DAMKA_SOAK_TEXT=$(SOAK_TEXT) DAMKA_SOAK_CB=$(SOAK_CB) DAMKA_SOAK_CB_MARGIN=$(SOAK_CB_MARGIN) \
		$(GO) test -count=1 -timeout 0 -run '^TestSoak$$' -v ./internal/soak/

vet:
	$(GO) vet ./...

fmt:
	gofmt -w .

generate:
	$(GO) generate ./...

# CheckerBoard (docs/checkerboard.md): damka.dll for 64-bit CheckerBoard and cbhub.exe,
# a Hub host for any CheckerBoard engine DLL, cross-built with mingw (Debian:
# gcc-mingw-w64-x86-64); test-cb runs them under wine (Debian: wine, wine64).
MINGW_CC ?= x86_64-w64-mingw32-gcc
CBVERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: cbdll cbhub test-cb

cbdll:
	@mkdir -p bin
	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=$(MINGW_CC) $(GO) build -buildmode=c-shared \
		-ldflags "-X github.com/damka-draughts/damka/version.release=$(CBVERSION)" -o bin/damka.dll ./cmd/damka-cb
	rm -f bin/damka.h
	cp cmd/damka-cb/damkahelp.htm bin/

cbhub:
	@mkdir -p bin
	$(MINGW_CC) -O2 -Wall -Wextra -o bin/cbhub.exe cbhub/cbhub.c
	$(MINGW_CC) -O2 -Wall -shared -o bin/bcryptprimitives.dll cbhub/wine/bcryptprimitives.c -lbcrypt

# damka.dll through cbhub.exe under wine: rules, API, reload, a Hub session and games against
# the native damka (a few minutes).
test-cb: build cbdll cbhub
	cbhub/test-cb.sh

# Release archives (docs/install.md): GoReleaser, pinned in tools/go.mod and run
# as a go tool (built on first use, a few minutes), writes dist/: damka for
# linux, darwin and windows on amd64 and arm64 with README.md, LICENSE and
# docs/, damka.dll (CheckerBoard, cross-built with $(MINGW_CC)) in the
# Windows amd64 archive, and checksums.txt. release needs a clean tree on a
# version tag (v1.2.0); release-snapshot builds any commit, as CI does.
GORELEASER = $(GO) tool -modfile=tools/go.mod goreleaser

release:
	$(GORELEASER) release --clean

release-snapshot:
	$(GORELEASER) release --snapshot --clean

# The job scripts of docs/cluster as Slurm job arrays on a one-node Slurm
# that the test starts in a temporary folder (Debian: slurm-wlm, munge; as
# root): a sharded match, self-play run and endgame-table build against the
# same work in one run (internal/slurmtest).
test-slurm:
	DAMKA_SLURM=1 $(GO) test -count=1 -v -run TestSlurmArrays ./internal/slurmtest/
