# SPDX-License-Identifier: GPL-3.0-or-later
# The two commands: `make demo` and `make test`. Both install what is missing first.
BUILD_DIR ?= build/dev
PRESET ?= dev
DEMO_STATE ?= $(BUILD_DIR)/demo-state
JOBS ?= $(shell nproc)
# Tests mostly wait (on peers, timers, simulated time): the suite used 60 % of one core at -j2
# on 2 cores, and took 278 s at twice the cores against 477 s (docs/benchmarks.md).
TEST_JOBS ?= $(shell echo $$(( $$(nproc) * 2 )))

.PHONY: all deps build demo test bench format clean

all: build

deps:
	@scripts/install-deps

build: deps
	@if [ ! -f $(BUILD_DIR)/build.ninja ]; then cmake --preset $(PRESET); fi
	cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	@scripts/run-demo $(BUILD_DIR) $(DEMO_STATE)

# One more try for a test that fails (ctest prints every try, so a test that needed two says so
# in the log; one that fails twice fails).
test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(TEST_JOBS) --repeat until-pass:2

bench: build
	@scripts/run-benchmarks $(BUILD_DIR)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf build
