# Parley — the two commands of the README, plus helpers.
#   make demo   run the protocol walkthrough (installs missing system packages first)
#   make test   build and run every test suite: unit, known-answer, interop with Signal's C library,
#               the server on SQLite and on a private PostgreSQL, every fuzz target briefly (Scripts/run-tests.sh)
#   make fuzz   every libFuzzer target for FUZZ_SECONDS (60) each (Scripts/fuzz.sh)
#   make check  the edit-run loop: build, the fast unit suites, swift-format lint and ParleyKit's layering (a few
#               minutes on a warm build; `make test` before pushing)

SWIFT  ?= swift
SHARED ?= $(abspath ../shared)

.PHONY: demo test check format deps deps-test build bench interop protos fuzz

deps:
	@Scripts/install-deps.sh

deps-test:
	@Scripts/install-deps.sh --test

demo: deps
	@$(SWIFT) build --product parley-demo -q
	@$$($(SWIFT) build --show-bin-path)/parley-demo

build: deps
	$(SWIFT) build

test: deps-test
	SWIFT=$(SWIFT) PARLEY_SHARED_DIR=$(SHARED) Scripts/run-tests.sh

# The suites that need no server, database or outside peer: what to run after every edit.
FAST_SUITES ?= ParleyProtocolTests|LibSignalClientAPITests|Seed002PortTests|ParleyCompatTests|ParleyLocalServiceTests

check: deps
	@Scripts/format.sh lint
	@python3 Scripts/check-architecture.py
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter '$(FAST_SUITES)'

format:
	@Scripts/format.sh format

interop: build
	bash $(SHARED)/interop/selftest.sh --a $(SHARED)/interop/peer --b $$($(SWIFT) build --show-bin-path)/parley-interop-peer

bench: deps
	Scripts/compare-benchmarks.sh

protos:
	Scripts/generate-protos.sh

fuzz: deps
	Scripts/fuzz.sh
