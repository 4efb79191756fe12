# Thin entry points; longer logic lives in scripts/ and in each package.
# `make test` is what CI runs on a fresh machine: it installs what it needs first.

NODE_BIN := node_modules/.bin
export PATH := $(CURDIR)/$(NODE_BIN):$(PATH)

.PHONY: email-client-report test-browser bootstrap lint lint-fix test-quick setup build test test-engine test-binary test-server test-studio test-client-js test-client-python test-client-php run bench fixtures fixtures-lint spec engine engine-all test-release typecheck

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

test: bootstrap build typecheck lint test-engine test-browser test-binary test-release test-server test-studio test-client-js test-client-python test-client-php
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

# Every fixture's html and react-email output in headless Chromium at 800 and 375 px.
test-browser: build
	bash scripts/test-browser.sh

# The shipped executable against the golden fixtures, one process per render and long-lived.
test-binary: engine
	fixtures/run --program $(ENGINE_BIN)
	fixtures/run --program $(ENGINE_BIN) --serve
	fixtures/run --program $(ENGINE_BIN) --serve --layout

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

bench: build engine
	bash scripts/bench.sh

# Regenerate the golden outputs from the engine (review `git diff fixtures/` afterwards).
fixtures: build
	tsx engine/scripts/update-fixtures.ts

fixtures-lint: setup
	tsx engine/scripts/lint-fixtures.ts

# What caniemail flags per client family (Gmail, Outlook, Apple Mail) in every fixture's html and
# react-email output; `--features` lists them.
email-client-report: build
	tsx engine/scripts/email-client-report.ts --features

# Regenerate the generated contracts in spec/ (template JSON Schema, OpenAPI).
spec: build
	tsx engine/scripts/generate-template-schema.ts
	tsx engine/scripts/generate-protocol-schema.ts
	tsx server/scripts/generate-openapi.ts

# The standalone engine executable: engine/dist/<os>-<arch>/mailrender-engine (Node, startup
# snapshot: the host's development and --serve build), rebuilt when its sources change.
# `make engine-all`: the release build for every platform on QuickJS-ng (engine/README.md,
# "Distribution") into engine/dist/release/<os>-<arch>/ with SHA256SUMS; `make test-release` tests it.
ENGINE_BIN := engine/dist/$(shell node -p 'process.platform + "-" + process.arch')/mailrender-engine
ENGINE_SOURCES := $(shell find engine/src -name '*.ts') engine/scripts/build-binary.ts engine/scripts/bundle-stubs.ts engine/runtimes/package.json

engine: $(ENGINE_BIN)

$(ENGINE_BIN): $(ENGINE_SOURCES) node_modules/.setup-done
	tsx engine/scripts/build-binary.ts

RELEASE_SUMS := engine/dist/release/SHA256SUMS
RELEASE_SOURCES := $(ENGINE_SOURCES) $(shell find engine/runtimes/quickjs -name '*.ts' -o -name '*.c' -o -name 'Cargo.*') engine/scripts/build-quickjs.ts

engine-all: $(RELEASE_SUMS)

$(RELEASE_SUMS): $(RELEASE_SOURCES) node_modules/.setup-done
	tsx engine/scripts/build-quickjs.ts

test-release: engine-all
	bash scripts/test-engine-release.sh
