# The two commands of README.md. Both set the machine up first (idempotent), then build what
# they need.
BUILD_DIR ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
ARCH ?= configs/arch/simba-6x6.json
WORKLOAD ?= resnet50
OUT ?= out

.PHONY: all deps configure build run test bench clean

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

clean:
	rm -rf $(BUILD_DIR) $(OUT)
