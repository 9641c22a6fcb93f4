# kvo-run: `make run` and `make test` work on a new machine: they install what
# is missing (GNU readline's headers, Graphviz, rsvg-convert) and build.
SWIFT ?= swift
BIN := .build/release/kvo-run
# The kvo-run the unit tests build beside themselves (`make test-unit`): the
# same release flags plus -enable-testing.
TEST_BIN := .build-test/release/kvo-run
# The shared contract's conformance cases when present, else the copy in Tests/.
CONFORMANCE := $(firstword $(wildcard ../shared/conformance) Tests/Conformance)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build run test test-unit test-golden test-conformance test-checked test-tsan clean revision

setup:
	@if [ ! -f /usr/include/readline/readline.h ]; then \
		echo "Installing libreadline-dev (GNU readline headers)…"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libreadline-dev; \
	fi
	@# Graphviz renders `kvo-run graph -o X.svg`; rsvg-convert lets the tests
	@# check that the SVG pictures render to something; zsh and fish let them
	@# run the completion scripts (bash is always there); groff renders the
	@# man page, checked for warnings.
	@if ! command -v dot >/dev/null 2>&1 || ! command -v rsvg-convert >/dev/null 2>&1 \
		|| ! command -v zsh >/dev/null 2>&1 || ! command -v fish >/dev/null 2>&1 \
		|| ! command -v groff >/dev/null 2>&1; then \
		echo "Installing graphviz, librsvg2-bin (SVG rendering), zsh and fish (completion tests), groff-base (the man page)…"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq graphviz librsvg2-bin zsh fish groff-base; \
	fi

# The tool alone: KVOFoundation (the Swift route's runtime) is a target of the
# package so that `make test` type-checks it, but kvo-run compiles the copy a
# program links itself, so `make run` and `make install` need not build it.
build: setup revision
	$(SWIFT) build -c release --product kvo-run

# `kvo-run --version` names the git revision of the build: written into a
# git-ignored C header, and only when it changed, so an unchanged revision
# rebuilds nothing. Outside a git checkout (a tarball) there is no header and
# the binary says "unknown revision".
REVISION_HEADER := Sources/CBuildInfo/revision.h
revision:
	@rev=$$(git rev-parse --short=12 HEAD 2>/dev/null) || exit 0; \
	if [ -n "$$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then rev="$$rev-dirty"; fi; \
	line="#define KVO_REVISION \"$$rev\""; \
	if [ "$$(cat $(REVISION_HEADER) 2>/dev/null)" != "$$line" ]; then echo "$$line" > $(REVISION_HEADER); fi

run: build
	$(BIN) scenarios/tour.kvo

# Each golden scenario runs once: the unit tests' GoldenTests run every
# scenarios/**/X.kvo against X.out in-process (`make test-golden` runs them
# through the binary, `kvo-run test scenarios`, on its own).
# One release build: the conformance cases run against the kvo-run that
# `test-unit` built in .build-test, the binary the CLI tests run too, so
# `make test` never builds .build as well.
test: test-unit setup-browser
	scripts/conformance $(TEST_BIN) $(CONFORMANCE)
	scripts/test-browser $(TEST_BIN)

# The playground (`kvo-run serve`) in a real browser: Debian's chromium,
# driven headless through its WebDriver (chromium-driver) by python3-selenium,
# installed here as the other test tools are. `make test` runs it against the
# binary the unit tests built; `--screenshot docs/playground.png` (make
# screenshot) writes the README's picture.
.PHONY: setup-browser test-browser screenshot
setup-browser:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1 \
		|| ! /usr/bin/python3 -c 'import selenium' >/dev/null 2>&1; then \
		echo "Installing chromium, chromium-driver and python3-selenium (the playground's browser test)…"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium chromium-driver python3-selenium; \
	fi

test-browser: build setup-browser
	scripts/test-browser $(BIN)

screenshot: build setup-browser
	scripts/test-browser $(BIN) --screenshot docs/playground.png

# The tests run against an optimised build: the adversarial suite drives
# kvo-run to its limits (10-million-deep arrays, 100,000-deep recursion). The
# `.releaseOnly` trait (Tests/_KVOTestTraits/ReleaseOnly.swift) marks, with
# the reason, a case a debug build's larger frames cannot survive (releasing a
# 10-million-deep array), so that a plain debug `swift test` skips it.
# One test at a time: release builds count references non-atomically
# (Package.swift), so no two tests may run the engine at once.
# Its own scratch path (.build-test): `-Xswiftc -enable-testing` reaches every
# target, so sharing .build with `make build` would rebuild everything twice
# on every `make test`. It goes stale as .build-checked does (below): after
# KVORuntime gained a stored property, a test object compiled before it kept
# the old field offsets and `HostileMachineTests` corrupted the heap
# (2026-11-29; a clean build passed). Then `rm -rf .build-test` first.
test-unit: setup revision
	$(SWIFT) test -c release -Xswiftc -enable-testing --no-parallel --scratch-path .build-test

# The checked lane: release without the unsafe speed flags of Package.swift
# (exclusivity checks on, atomic reference counting), in its own scratch path,
# running every unit test (goldens included). CI runs it after `make test`.
# A warm scratch path can go stale: SwiftPM did not recompile the modules that
# use KVOCore after KVORuntime gained an internal stored property, and the tests
# corrupted the heap at the old field offsets (seen 2026-11-26; a clean build
# passed). If a checked run fails that way, `rm -rf .build-checked` first.
test-checked: setup
	KVO_CHECKED=1 $(SWIFT) test -c release -Xswiftc -enable-testing --no-parallel --scratch-path .build-checked

# The thread-safety lane: the Swift route's runtime (KVOCore, KVOOutput,
# KVOFoundation) and Tests/ThreadStress/stress.swift, rewritten by kvo-run,
# compiled as kvo-run compiles them plus -sanitize=thread into .build-tsan/,
# run 5 times with kvo-run's environment for a program: any ThreadSanitizer
# report, bad exit or output other than Tests/ThreadStress/stress.expected
# fails it. About 2 minutes from scratch (the runtime under TSan), seconds
# when the runtime is unchanged. CI runs it after `make test-checked`. Options
# (TSAN_STRESS_RUNS, TSAN_STRESS_ALL=1 to list every race) in the script.
# Then `kvo-run serve`, the one part of kvo-run with threads of its own, built
# in debug with -sanitize=thread into .build-tsan-serve/ and loaded by 8
# clients at once (scripts/tsan-serve; about 4 minutes from scratch).
test-tsan: build
	scripts/tsan-stress $(BIN)
	scripts/tsan-serve

test-golden: build
	$(BIN) test scenarios

test-conformance: build
	scripts/conformance $(BIN) $(CONFORMANCE)

# make format rewrites Sources/ and Tests/ with swift-format (.swift-format:
# 4 spaces, 120 columns); make lint (run by CI) fails on anything it would
# still change, except a long line holding a string literal (scripts/lint).
.PHONY: format lint
format:
	find Sources Tests -name '*.swift' -not -path 'Tests/RewriterPairs/*' -print0 \
		| xargs -0 $(SWIFT) format -i --configuration .swift-format

lint:
	scripts/lint

# make stress (not part of make test): every hostile input (Fuzz/stress/*.kvo
# and the cases scripts/stress generates: /dev/zero and 20 MB sources, binary
# files, FIFOs and symlink loops under `kvo-run test`, /dev/full, a print loop
# into a closed pipe, long chains, --max-depth 100000 recursion), each under
# `ulimit -v` 4 GB and 20 seconds; each must end with status 0, 1 or 2.
.PHONY: stress
stress: build
	scripts/stress $(BIN)

clean:
	rm -rf .build

# --- make install / uninstall ------------------------------------------------
# The binary, its man page (docs/kvo-run.1, written in mdoc: the one
# swift-argument-parser's generate-manual plugin made had only the options,
# and warnings), completion scripts for bash, zsh and fish, under
# $(DESTDIR)$(PREFIX) in the places each shell looks, the Swift runtime's
# sources and the examples.
# `make test-install` checks the whole round trip in a temporary DESTDIR.
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_BIN := $(DESTDIR)$(PREFIX)/bin
INSTALL_MAN := $(DESTDIR)$(PREFIX)/share/man/man1
INSTALL_BASH := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
INSTALL_ZSH := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
INSTALL_FISH := $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
# The Swift runtime's and the rewriter helper's sources (SPEC §11.0): kvo-run
# compiles them on the first Swift program, with the toolchain that compiles
# the program (the helper against its own swift-syntax), and caches them.
INSTALL_RUNTIME := $(DESTDIR)$(PREFIX)/share/kvo-run/runtime
# The examples --help, the man page and docs/cli.md#install name: the tour,
# the folders the tutorial and docs/index.md point to (Apple's guide, objc.io,
# --explain) and a few Swift programs, each with its golden, so that
# `kvo-run test $(PREFIX)/share/kvo-run/examples` checks an installation.
INSTALL_EXAMPLES := $(DESTDIR)$(PREFIX)/share/kvo-run/examples
# `kvo-run serve`'s page (HTML, CSS, JavaScript, read at start-up) and the
# tutorial whose steps its examples menu offers.
INSTALL_SERVE := $(DESTDIR)$(PREFIX)/share/kvo-run/serve
INSTALL_TUTORIAL := $(DESTDIR)$(PREFIX)/share/kvo-run/tutorial.md
EXAMPLES := scenarios/tour.kvo $(sort $(wildcard scenarios/guide/*.kvo scenarios/objcio/*.kvo scenarios/explain/*.kvo)) \
	$(addprefix scenarios/swift/,01_dynamic_or_not.swift 02_observe_tokens.swift 03_observe_value_override.swift \
		10_labcolor_dependent_keys.swift 27_apple_using_kvo_in_swift.swift 45_explain_dependent_keys.swift)
INSTALLED := $(INSTALL_BIN)/kvo-run $(INSTALL_MAN)/kvo-run.1 $(INSTALL_BASH)/kvo-run \
	$(INSTALL_ZSH)/_kvo-run $(INSTALL_FISH)/kvo-run.fish
MAN_PAGE := docs/kvo-run.1
COMPLETIONS := .build/completions

.PHONY: completions install uninstall test-install

completions: build
	@mkdir -p $(COMPLETIONS)
	$(BIN) --generate-completion-script bash > $(COMPLETIONS)/kvo-run.bash
	$(BIN) --generate-completion-script zsh > $(COMPLETIONS)/_kvo-run
	$(BIN) --generate-completion-script fish > $(COMPLETIONS)/kvo-run.fish

install: build completions
	install -d $(INSTALL_BIN) $(INSTALL_MAN) $(INSTALL_BASH) $(INSTALL_ZSH) $(INSTALL_FISH)
	install -s -m 755 $(BIN) $(INSTALL_BIN)/kvo-run
	@# The man page names /usr/local's folders: the installed one names $(PREFIX)'s.
	sed 's|/usr/local/share/kvo-run|$(PREFIX)/share/kvo-run|g' $(MAN_PAGE) > $(INSTALL_MAN)/kvo-run.1
	chmod 644 $(INSTALL_MAN)/kvo-run.1
	install -m 644 $(COMPLETIONS)/kvo-run.bash $(INSTALL_BASH)/kvo-run
	install -m 644 $(COMPLETIONS)/_kvo-run $(INSTALL_ZSH)/_kvo-run
	install -m 644 $(COMPLETIONS)/kvo-run.fish $(INSTALL_FISH)/kvo-run.fish
	rm -rf $(INSTALL_RUNTIME) && install -d $(INSTALL_RUNTIME)
	cp -R Sources/KVOCore Sources/KVOOutput Sources/KVOFoundation Sources/RewriterProtocol Sources/RewriterHelper $(INSTALL_RUNTIME)/
	@# Each example in its folder under scenarios/, with its X.out (a missing one fails the install).
	rm -rf $(INSTALL_EXAMPLES)
	@for f in $(EXAMPLES); do \
		dest="$(INSTALL_EXAMPLES)/$${f#scenarios/}"; \
		install -D -m 644 "$$f" "$$dest" && install -m 644 "$${f%.*}.out" "$${dest%.*}.out" || exit 1; \
	done
	@echo "installed $(words $(EXAMPLES)) examples in $(INSTALL_EXAMPLES)"
	rm -rf $(INSTALL_SERVE) && install -d $(INSTALL_SERVE)
	install -m 644 Sources/KVOServe/Page/index.html Sources/KVOServe/Page/page.css Sources/KVOServe/Page/page.js $(INSTALL_SERVE)/
	install -m 644 docs/tutorial.md $(INSTALL_TUTORIAL)

uninstall:
	rm -f $(INSTALLED)
	rm -rf $(INSTALL_RUNTIME) $(INSTALL_EXAMPLES) $(INSTALL_SERVE) $(INSTALL_TUTORIAL)
	@# share/kvo-run itself, when nothing else is left in it.
	@rmdir "$(DESTDIR)$(PREFIX)/share/kvo-run" 2>/dev/null || true

test-install: build
	scripts/test-install

# ---------------------------------------------------------------------------
# make bench: kvo-run against GNUstep Base's KVO in compiled Objective-C
# (Benchmarks/README.md). Installs Debian's GNUstep packages when missing,
# builds kvo-run in release and the peers into .build/bench/, then runs the
# harness. Pass options through BENCH_ARGS, e.g. `make bench BENCH_ARGS=--quick`.
BENCH_DIR := .build/bench
BENCH_PEER_SRC := Benchmarks/peers/gnustep
BENCH_PEERS := $(patsubst $(BENCH_PEER_SRC)/%.m,$(BENCH_DIR)/%,$(wildcard $(BENCH_PEER_SRC)/*.m))
BENCH_ARGS ?=

.PHONY: bench bench-setup bench-peers

bench-setup:
	@if ! command -v gnustep-config >/dev/null 2>&1; then \
		echo "Installing gobjc gnustep-make libgnustep-base-dev (GNUstep Base)…"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq gobjc gnustep-make libgnustep-base-dev; \
	fi
	@# wrk loads `kvo-run serve` (the "serve" row).
	@if ! command -v wrk >/dev/null 2>&1; then \
		echo "Installing wrk (the playground's load check)…"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq wrk; \
	fi

bench-peers: bench-setup $(BENCH_PEERS)

$(BENCH_DIR)/%: $(BENCH_PEER_SRC)/%.m $(BENCH_PEER_SRC)/common.h | bench-setup
	@mkdir -p $(BENCH_DIR)
	gcc -std=gnu11 -O2 $$(gnustep-config --objc-flags) -Wno-unused-variable -o $@ $< $$(gnustep-config --base-libs)

bench: build bench-peers
	python3 Benchmarks/run.py --bin $(BIN) --peers $(BENCH_DIR) $(BENCH_ARGS)

# --- Robustness: fuzzing and AddressSanitizer -------------------------------
# `make fuzz SECONDS=N` builds a libFuzzer target (Fuzz/FuzzKVO.swift) over the
# lexer, parser, checker and interpreter with ASan, seeds .build/fuzz/corpus/
# from every scenario, conformance case, fuzz regression and stress input, and fuzzes for N
# seconds (default 60) in one worker process that keeps going after a crash.
# Crashes, timeouts and OOMs land in .build/fuzz/artifacts/; minimise one with
#   .build/fuzz/fuzzer-address/fuzz-kvo -minimize_crash=1 -runs=100000 CRASH_FILE
# and keep it as Fuzz/regressions/NAME.kvo (Tests/KVORunTests/Adversarial/FuzzRegressionTests
# runs every file there through kvo-run).
SWIFTC ?= swiftc
comma := ,
SECONDS ?= 60
# FUZZ_SANITIZE=fuzzer builds without ASan: about ten times more executions
# per second, for long runs (crashes still stop it; memory errors may not).
FUZZ_SANITIZE ?= fuzzer,address
FUZZ_DIR := .build/fuzz
FUZZ_BUILD := $(FUZZ_DIR)/$(subst $(comma),-,$(FUZZ_SANITIZE))
FUZZ_BIN := $(FUZZ_BUILD)/fuzz-kvo
FUZZ_SWIFTFLAGS := -sanitize=$(FUZZ_SANITIZE) -parse-as-library -O -g
# detect_stack_use_after_return=0: ASan would otherwise put address-taken
# locals on a heap "fake stack", which blinds StackGuard (it compares a local's
# address with the thread's stack) and costs time.
FUZZ_ENV := ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0:malloc_context_size=2:allocator_may_return_null=1
# Extra libFuzzer flags, e.g. FUZZ_ARGS=-max_len=8192
FUZZ_ARGS ?=

.PHONY: fuzz fuzz-build test-asan

fuzz-build: $(FUZZ_BIN)

# Every source of the three libraries, in whatever sub-folders they sit.
KVOCORE_SOURCES := $(shell find Sources/KVOCore -name '*.swift' | sort)
KVOOUTPUT_SOURCES := $(shell find Sources/KVOOutput -name '*.swift' | sort)
KVOSCRIPT_SOURCES := $(shell find Sources/KVOScript -name '*.swift' | sort)

$(FUZZ_BIN): Fuzz/FuzzKVO.swift $(KVOCORE_SOURCES) $(KVOOUTPUT_SOURCES) $(KVOSCRIPT_SOURCES)
	@mkdir -p $(FUZZ_BUILD)/modules
	$(SWIFTC) $(FUZZ_SWIFTFLAGS) -wmo -module-name KVOCore \
		-emit-module -emit-module-path $(FUZZ_BUILD)/modules/KVOCore.swiftmodule \
		-c $(KVOCORE_SOURCES) -o $(FUZZ_BUILD)/KVOCore.o
	$(SWIFTC) $(FUZZ_SWIFTFLAGS) -wmo -module-name KVOOutput -I $(FUZZ_BUILD)/modules \
		-emit-module -emit-module-path $(FUZZ_BUILD)/modules/KVOOutput.swiftmodule \
		-c $(KVOOUTPUT_SOURCES) -o $(FUZZ_BUILD)/KVOOutput.o
	$(SWIFTC) $(FUZZ_SWIFTFLAGS) -wmo -module-name KVOScript -I $(FUZZ_BUILD)/modules \
		-emit-module -emit-module-path $(FUZZ_BUILD)/modules/KVOScript.swiftmodule \
		-c $(KVOSCRIPT_SOURCES) -o $(FUZZ_BUILD)/KVOScript.o
	$(SWIFTC) $(FUZZ_SWIFTFLAGS) -I $(FUZZ_BUILD)/modules Fuzz/FuzzKVO.swift \
		$(FUZZ_BUILD)/KVOCore.o $(FUZZ_BUILD)/KVOOutput.o $(FUZZ_BUILD)/KVOScript.o -o $@ 2>&1 | { grep -v 'Cannot export local symbol' || true; }
	@test -x $@

fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	@for f in $$(find scenarios Tests/Conformance Fuzz/regressions Fuzz/stress -name '*.kvo' 2>/dev/null); do \
		cp "$$f" "$(FUZZ_DIR)/corpus/seed_$$(echo "$$f" | tr / _)"; \
	done
	@before=$$(ls $(FUZZ_DIR)/artifacts | wc -l); \
	$(FUZZ_ENV) $(FUZZ_BIN) $(FUZZ_DIR)/corpus \
		-max_total_time=$(SECONDS) -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		-timeout=10 -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/artifacts/ $(FUZZ_ARGS) 2>&1 | tee $(FUZZ_DIR)/last-run.log | grep -v ' NEW \| REDUCE \|NEW_FUNC'; \
	after=$$(ls $(FUZZ_DIR)/artifacts | wc -l); \
	echo "fuzz: corpus $$(ls $(FUZZ_DIR)/corpus | wc -l) files; artifacts $$before -> $$after in $(FUZZ_DIR)/artifacts (log: $(FUZZ_DIR)/last-run.log)"; \
	test "$$after" = "$$before"

# Every test (unit and CLI: the CLI tests run the ASan-built kvo-run beside
# the test runner) and the golden scenarios, built with AddressSanitizer in
# its own scratch path. Release configuration, as `make test`: the adversarial
# suite needs it (see test-unit). Leak checking is off: the interpreter's object graph
# has reference cycles that are freed at exit by the OS, not by ARC.
# ASan frames are several times larger, and unit tests that recurse to the
# default --max-depth run on the test runner's threads (kvo-run itself uses a
# 1 GB thread): `ulimit -s` raises the default stack of those threads.
# detect_stack_use_after_return=0 keeps locals on the real stack, where
# StackGuard measures the stack (with ASan's default fake stacks, the guard never
# fires and deep recursion overflows instead of reporting an error).
ASAN_ENV := ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0
ASAN_STACK_KB ?= 262144
# KVO_DYNAMIC_RUNTIME=1: the Swift runtime stays a shared library here (see
# Package.swift: a static one hides ASan's malloc from libreadline).
test-asan: setup
	ulimit -s $(ASAN_STACK_KB) && $(ASAN_ENV) KVO_DYNAMIC_RUNTIME=1 $(SWIFT) test -c release -Xswiftc -enable-testing --no-parallel \
		--sanitize=address --scratch-path .build-asan
	$(ASAN_ENV) .build-asan/release/kvo-run test scenarios

# --- make bench-core: allocation benchmarks of the engine (KVOCore) ---------
# Benchmarks/Package.swift is a package of its own (ordo-one/benchmark), built
# in release in its own scratch path .build-bench/ (never .build/), two jobs at
# most. `bench-core` runs the benchmarks (allocations, bytes and wall clock per
# iteration, for reading), then checks the malloc counts, and only them,
# against Benchmarks/Thresholds/*.p90.json: any difference fails. More
# allocations is a regression; fewer fails too, until `make bench-core-update`
# re-records the files (review the JSON diff and commit it), so the gate stays
# exact. Wall clock is never gated. Not part of `make test`. First build: about
# 5 minutes on 2 cores. See Benchmarks/README.md.
BENCH_CORE := $(SWIFT) package --package-path Benchmarks --scratch-path .build-bench --jobs 2
BENCH_CORE_THRESHOLDS := $(CURDIR)/Benchmarks/Thresholds

.PHONY: bench-core bench-core-update

bench-core:
	$(BENCH_CORE) benchmark run --no-progress
	@$(BENCH_CORE) benchmark thresholds check --path $(BENCH_CORE_THRESHOLDS) --metric mallocCountTotal \
		--no-progress > .build-bench/thresholds-check.log 2>&1; \
	status=$$?; \
	cat .build-bench/thresholds-check.log; \
	if grep -q "BETTER than the defined thresholds" .build-bench/thresholds-check.log; then \
		echo "bench-core: fewer allocations than Benchmarks/Thresholds records: run 'make bench-core-update' and commit the new files."; \
	elif [ $$status != 0 ]; then \
		echo "bench-core: allocation counts differ from Benchmarks/Thresholds (see above)."; \
	fi; \
	exit $$status

bench-core-update:
	@mkdir -p $(BENCH_CORE_THRESHOLDS)
	$(BENCH_CORE) --allow-writing-to-directory $(BENCH_CORE_THRESHOLDS) benchmark thresholds update \
		--path $(BENCH_CORE_THRESHOLDS) --metric mallocCountTotal --no-progress
