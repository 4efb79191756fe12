# Thin entry points; longer logic lives in scripts/ and in each package.
# `make test` is what CI runs on a fresh machine: it installs what it needs first.

NODE_BIN := node_modules/.bin
export PATH := $(CURDIR)/$(NODE_BIN):$(PATH)

.PHONY: check-report email-client-report test-browser bootstrap lint lint-fix test-quick setup build test test-engine test-binary test-server test-studio test-client-js test-client-python test-client-php run bench fixtures fixtures-lint spec engine engine-node engine-all test-release typecheck packages packages-all test-install

# Installs the workspaces and compiles the engine library, so `@mailrender/engine` is importable.
setup: node_modules/.setup-done
	npm run build --workspace @mailrender/engine --silent

node_modules/.setup-done: package.json package-lock.json engine/package.json server/package.json clients/js/package.json
	npm install --no-audit --no-fund --loglevel=error
	touch $@

build: setup

typecheck: setup
	tsc -p engine --noEmit
	tsc -p engine/test-browser --noEmit
	tsc -p engine/runtimes/quickjs
	tsc -p server --noEmit
	tsc -p server/studio
	tsc -p server/browser
	tsc -p clients/js --noEmit

# System packages (PostgreSQL, PHP, Chromium, qemu-user), installed in one step when missing.
bootstrap:
	bash scripts/bootstrap

test: bootstrap build typecheck lint test-engine test-browser test-binary test-release test-server test-studio test-client-js test-client-python test-client-php test-install
	@echo "make test: all suites passed"

# The inner loop: type checks, the engine suite and the fixtures' completeness; no executable,
# no databases, no clients. `make test` (what CI runs) stays complete.
test-quick: build typecheck test-engine fixtures-lint

lint: setup
	bash scripts/lint.sh

lint-fix: setup
	bash scripts/lint.sh --fix

test-engine: build
	cd engine && vitest run

# Every fixture's html and react-email output at 800 and 375 px in Chromium, Firefox and WebKit.
test-browser: build
	bash scripts/test-browser.sh

# Both executable builds for this machine, the release one (`make engine`) and the Node one, against
# the golden fixtures (one process per render and long-lived) and the protocol's edge cases
# (test-engine runs those on the release build).
test-binary: engine engine-node
	for program in $(ENGINE_BIN) $(NODE_ENGINE_BIN); do \
	  fixtures/run --program $$program && fixtures/run --program $$program --serve && fixtures/run --program $$program --serve --layout || exit 1; \
	done
	cd engine && MAILRENDER_ENGINE_UNDER_TEST=$(CURDIR)/$(NODE_ENGINE_BIN) vitest run test/protocol-binary.test.ts test/bounded-cost-binary.test.ts

test-server: build
	bash scripts/test-server.sh

# The studio page in Debian's chromium (installed when missing) through puppeteer-core.
test-studio: build
	bash scripts/test-studio.sh

test-client-js: build
	bash scripts/test-client-js.sh

test-client-python: build
	bash scripts/test-client-python.sh

test-client-php: build
	bash scripts/test-client-php.sh

run: build
	bash scripts/run-server.sh

# Each client README's install recipe and the operations guide's server install, followed outside
# the repository over dist/ (scripts/test-install.mjs).
test-install: packages
	node scripts/test-install.mjs

# Every installable artefact from this checkout into dist/ (npm tarballs, wheels, the PHP archive, the
# engine files), for this machine's platform; `make packages-all` for every platform (scripts/packages.sh).
packages: setup
	bash scripts/packages.sh

packages-all: setup
	bash scripts/packages.sh --all

bench: build engine
	bash scripts/bench.sh

# Regenerate the golden outputs from the engine (review `git diff fixtures/` afterwards).
fixtures: build
	tsx engine/scripts/update-fixtures.ts

fixtures-lint: setup
	tsx engine/scripts/lint-fixtures.ts

# What the template checks (spec/checks.md) find in every render fixture, the editor's forms of them,
# the starter templates and the corpus of mistakes; `--details` prints each finding.
check-report: build
	tsx engine/scripts/check-report.ts

# What caniemail flags per client family (Gmail, Outlook, Apple Mail) in every fixture's html and
# react-email output; `--features` lists them.
email-client-report: build
	tsx engine/scripts/email-client-report.ts --features

# Regenerate the generated contracts in spec/ (template JSON Schema, the checks' codes, OpenAPI).
spec: build
	tsx engine/scripts/generate-template-schema.ts
	tsx engine/scripts/generate-checks-doc.ts
	tsx engine/scripts/generate-protocol-schema.ts
	tsx server/scripts/generate-openapi.ts

# The engine executable. `make engine`: the release build (QuickJS-ng, ~1.7 MiB) for this machine
# into engine/dist/<os>-<arch>/ — what the suites, the clients' development installs and
# `make packages` use. `make engine-all`: the release build for every platform into
# engine/dist/release/ with SHA256SUMS (engine/README.md, "Distribution"); `make test-release`
# tests it. `make engine-node`: the Node build (~130 MiB) into engine/dist/node/<os>-<arch>/, for
# those who choose V8's `--serve` throughput over size. Each is rebuilt when its sources change.
HOST_PLATFORM := $(shell node -p 'process.platform + "-" + process.arch')
ENGINE_BIN := engine/dist/$(HOST_PLATFORM)/mailrender-engine
NODE_ENGINE_BIN := engine/dist/node/$(HOST_PLATFORM)/mailrender-engine
ENGINE_SOURCES := $(shell find engine/src -name '*.ts') engine/scripts/bundle-stubs.ts
QUICKJS_SOURCES := $(ENGINE_SOURCES) $(shell find engine/runtimes/quickjs -name '*.ts' -o -name '*.c' -o -name '*.h' -o -name 'Cargo.*') engine/scripts/build-quickjs.ts engine/scripts/quickjs-patches.ts engine/scripts/lazy-modules.ts engine/scripts/source-patch.ts

engine: $(ENGINE_BIN)

$(ENGINE_BIN): $(QUICKJS_SOURCES) node_modules/.setup-done
	tsx engine/scripts/build-quickjs.ts --host

engine-node: $(NODE_ENGINE_BIN)

$(NODE_ENGINE_BIN): $(ENGINE_SOURCES) engine/scripts/build-binary.ts engine/runtimes/package.json node_modules/.setup-done
	tsx engine/scripts/build-binary.ts

RELEASE_SUMS := engine/dist/release/SHA256SUMS

engine-all: $(RELEASE_SUMS)

$(RELEASE_SUMS): $(QUICKJS_SOURCES) node_modules/.setup-done
	tsx engine/scripts/build-quickjs.ts

test-release: engine-all
	bash scripts/test-engine-release.sh
