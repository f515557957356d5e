# Parley — the two commands of the README, plus helpers.
#   make demo   run the protocol walkthrough (installs missing system packages first)
#   make test   build and run every test suite: unit, known-answer, interop with Signal's C library,
#               the server on SQLite and on a private PostgreSQL, every fuzz target briefly (Scripts/run-tests.sh)
#   make fuzz   every libFuzzer target for FUZZ_SECONDS (60) each (Scripts/fuzz.sh)

SWIFT  ?= swift
SHARED ?= $(abspath ../shared)

.PHONY: demo test deps deps-test build bench interop protos fuzz

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

interop: build
	bash $(SHARED)/interop/selftest.sh --a $(SHARED)/interop/peer --b $$($(SWIFT) build --show-bin-path)/parley-interop-peer

bench: deps
	Scripts/compare-benchmarks.sh

protos:
	Scripts/generate-protos.sh

fuzz: deps
	Scripts/fuzz.sh
