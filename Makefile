# kvo-run: `make run` and `make test` work on a new machine: they install what
# is missing (GNU readline's headers) and build.
SWIFT ?= swift
BIN := .build/release/kvo-run
# The shared contract's conformance cases when present, else the copy in Tests/.
CONFORMANCE := $(firstword $(wildcard ../shared/conformance) Tests/Conformance)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build run test test-unit test-golden test-conformance clean

setup:
	@if [ ! -f /usr/include/readline/readline.h ]; then \
		echo "Installing libreadline-dev (GNU readline headers)…"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libreadline-dev; \
	fi

build: setup
	$(SWIFT) build -c release

run: build
	$(BIN) scenarios/tour.kvo

test: build test-unit test-golden test-conformance

test-unit: setup
	$(SWIFT) test

test-golden: build
	$(BIN) test scenarios

test-conformance: build
	scripts/conformance $(BIN) $(CONFORMANCE)

clean:
	rm -rf .build
