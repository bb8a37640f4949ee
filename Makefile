# The two commands of README.md. Both set the machine up first (idempotent), then build what
# they need.
BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
ARCH ?= configs/arch/simba-6x6.json
WORKLOAD ?= resnet50
OUT ?= out
FUZZ_BUILD_DIR ?= build-fuzz
FUZZ_SECONDS ?= 30
SAN_BUILD_DIR ?= build-asan
TSAN_BUILD_DIR ?= build-tsan

.PHONY: all deps configure build run test bench fuzz-smoke test-sanitized clean

all: build

deps:
	bash scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release

# The simulator alone.
build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target mcmsim

# The default simulation: a Simba-like 6x6 package running ResNet-50. Builds only mcmsim.
run: build
	$(BUILD_DIR)/sim/mcmsim run --arch $(ARCH) --workload $(WORKLOAD) --out $(OUT)

# Everything, the benchmarks compiled (not run) so that they cannot fall behind the code they
# time, then the whole suite.
test: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)
	cmake --build $(BUILD_DIR) -j $(JOBS) --target benchmarks
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

bench: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target benchmarks
	bash bench/run_all.sh $(BUILD_DIR)

# The input readers under libFuzzer with ASan/UBSan (tests/fuzz, docs/hardening.md): a clang
# build of only what the harnesses need, then each harness for FUZZ_SECONDS; any crash, UB,
# leak or timeout fails it.
fuzz-smoke: deps
	cmake -S . -B $(FUZZ_BUILD_DIR) -DCMAKE_CXX_COMPILER=clang++ -DMCMSIM_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(FUZZ_BUILD_DIR) -j $(JOBS) --target fuzzers
	bash tests/fuzz/run_fuzzers.sh $(FUZZ_BUILD_DIR) $(FUZZ_SECONDS)

# The suite under ASan + UBSan, the threads under TSan (scripts/test_sanitized.sh,
# docs/hardening.md): CI's subset, or every test with SAN_SUITE=full.
test-sanitized: deps
	SAN_BUILD_DIR=$(SAN_BUILD_DIR) TSAN_BUILD_DIR=$(TSAN_BUILD_DIR) JOBS=$(JOBS) bash scripts/test_sanitized.sh

clean:
	rm -rf $(BUILD_DIR) $(OUT) $(FUZZ_BUILD_DIR) $(SAN_BUILD_DIR) $(TSAN_BUILD_DIR)
