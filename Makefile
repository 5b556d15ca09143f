# Strata: build, test and try the package. `make test` is what CI runs.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
APT_PACKAGES := libsqlite3-dev libxml2-dev liblmdb-dev zlib1g-dev pkg-config libpq-dev postgresql e2fsprogs
# Warnings fail the build, as in CI.
SWIFT_FLAGS := -Xswiftc -warnings-as-errors

.PHONY: deps build test example soak fuzz tsan demo sync-example bench lint format docs

## deps: install the system libraries Strata links against, when missing (Debian/Ubuntu); its
## messages go to standard error, so that `make bench BENCH_ARGS=--json` prints only JSON.
deps:
	@missing=""; \
	for p in $(APT_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing" >&2; \
		{ $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing; } >&2; \
	fi

## build: compile every target.
build: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)

## test: install what is missing, build, and run every test.
test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build

## example: build the packages in Examples/, which depend on Strata by path as an outside
## author's would, and run their tests: the third-party store's conformance suite, and the HTTP
## service's end-to-end tests over loopback (SQLite and the PostgreSQL test server).
example: deps
	$(SWIFT) build --build-tests --package-path Examples/ThirdPartyStore $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build --package-path Examples/ThirdPartyStore
	$(SWIFT) build --build-tests --package-path Examples/InventoryService $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build --package-path Examples/InventoryService

## soak: build, then run the long variants: every store's conformance suite with 1,000 kills per
## durability check, two processes writing one SQLite and one LMDB store for five minutes each,
## 1,000,000-object memory soaks, 100,000 objects in the LMDB map growth test, 1,000 kills at each
## step of a save across SQLite, LMDB and XML and of one across SQLite and PostgreSQL, and 5 sync
## replicas × 1,000,000 saves converging through a server killed at random (docs/SYNC.md). See docs/RELIABILITY.md.
soak: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	STRATA_SOAK=1 $(SWIFT) test --skip-build --filter "StoreConformanceTests|SoakTests|LMDBMapGrowthTests|StripedSaveKillTests|PostgresStripedSaveTests|SyncConvergenceTests"

## fuzz: build the fuzzer (libFuzzer and the address sanitizer, in .build-fuzz) and run each
## target for FUZZ_SECONDS (600 by default) from its corpus, or until FUZZ_RUNS executions when
## set; FUZZ_TARGETS picks targets. See docs/RELIABILITY.md.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= predicate xcodeModel compiledModel modelCache mappingModel jsonModel keyedArchive xmlStore \
	binaryStore lmdbFile sqliteMetadata
# The driver keeps only the last `-sanitize=`, so both sanitizers go in one flag after SwiftPM's.
FUZZ_BUILD := $(SWIFT) build -c release --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
	-Xswiftc -DSTRATA_FUZZING --product StrataFuzzer
fuzz: deps
	$(FUZZ_BUILD)
	FUZZ_RUNS=$(FUZZ_RUNS) Fuzz/run-fuzzers.sh "$$($(FUZZ_BUILD) --show-bin-path)/StrataFuzzer" $(FUZZ_SECONDS) $(FUZZ_TARGETS)

## tsan: build with the thread sanitizer (in .build-tsan) and run the concurrency tests; any report fails
## but the dependencies' false positives listed in .tsan-suppressions.
TSAN_SUITES := ContextConcurrencyTests|PersistentContainerServiceTests|MetricsAndTracingTests|ChildContextConcurrencyTests|SQLiteConcurrencyTests|LMDBConcurrencyTests|ManagedObjectContextAutomaticMergeTests|FetchedResultsObservationTests|QueryGenerationConcurrencyTests|RemoteChangeTests|SearchIndexExporterTests|SyncEngineTests|SyncServerTests
tsan: deps
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/.tsan-suppressions" $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "$(TSAN_SUITES)"

## demo: build a guidebook across SQLite, LMDB and XML stores and narrate each step (`strata demo`).
demo: deps
	$(SWIFT) run $(SWIFT_FLAGS) strata demo

## sync-example: run two replicas of a notes app, one SQLite and one XML, kept in step through a
## hub served over HTTP on loopback (Examples/SyncNotes, docs/SYNC.md).
sync-example: deps
	$(SWIFT) run $(SWIFT_FLAGS) SyncNotesExample

## bench: build the benchmark package (Benchmarks/) in release mode and run it; pass options
## with BENCH_ARGS, e.g. `make bench BENCH_ARGS='--quick --json'` (then only JSON goes to stdout).
bench: deps
	@$(SWIFT) build -c release --package-path Benchmarks >&2
	@"$$($(SWIFT) build -c release --package-path Benchmarks --show-bin-path)/StrataBench" $(BENCH_ARGS)

## docs: build the DocC documentation of every library module with swift-docc-plugin, into
## .build/plugins/Swift-DocC/outputs; any warning (a broken symbol link, a parameter without
## documentation) fails it.
DOC_TARGETS := Strata StrataSQLite StrataLMDB StrataPostgres StrataPostgresTesting StrataXML StrataBinary StrataStores StrataSearch StrataService StrataTelemetry StrataConformance StrataSync StrataSyncServer \
	StrataConformanceTesting StrataXcodeModel
docs: deps
	$(SWIFT) package --disable-sandbox generate-documentation $(addprefix --target ,$(DOC_TARGETS)) --warnings-as-errors

## lint: check formatting against .swift-format, and that shared state uses Locked, not Mutex.
lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Stores Conformance Fuzz Tests Benchmarks/Package.swift Benchmarks/Sources \
		Examples/ThirdPartyStore/Package.swift Examples/ThirdPartyStore/Sources Examples/ThirdPartyStore/Tests \
		Examples/InventoryService/Package.swift Examples/InventoryService/Sources Examples/InventoryService/Tests \
		Examples/SyncNotes
	@! grep -rnE '\bMutex\b[<(]' --include='*.swift' Sources Stores Conformance Tests \
		|| { echo "Use Locked instead of Mutex: the thread sanitizer cannot see Mutex on Linux."; exit 1; }

## format: rewrite sources in the project's format.
format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Stores Conformance Fuzz Tests Benchmarks/Package.swift Benchmarks/Sources \
		Examples/ThirdPartyStore/Package.swift Examples/ThirdPartyStore/Sources Examples/ThirdPartyStore/Tests \
		Examples/InventoryService/Package.swift Examples/InventoryService/Sources Examples/InventoryService/Tests \
		Examples/SyncNotes
