# mpirr top-level Makefile: the two set-up commands are `make demo` and `make check`.
#   make deps     install missing Debian packages (compilers, CMake, zstd, Open MPI, MPICH)
#   make build    configure and build into build/ (CMake; -Wall -Wextra -Werror)
#   make demo     deps + build + record and replay the bundled nondeterministic example
#   make check    demo + every test (unit, sanitized unit, integration on both MPIs)
#   make fuzz     build the libFuzzer targets with clang into build-fuzz/ (tests/fuzz/README.md)
#   make bench    native vs record vs replay benchmarks (bench/run.sh)
#   make install PREFIX=/opt/mpirr
BUILD ?= build
SAN_BUILD ?= build-san
FUZZ_BUILD ?= build-fuzz
PREFIX ?= /usr/local
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_ARGS ?=

# Open MPI refuses root and more ranks than cores unless told; CI runs as root on 2 cores.
export OMPI_ALLOW_RUN_AS_ROOT = 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM = 1
export OMPI_MCA_rmaps_base_oversubscribe = 1

.PHONY: all deps build demo check test unit sanitize fuzz fuzz-check bench install clean

all: build

deps:
	@scripts/install-deps

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@examples/demo.sh $(BUILD)

# Tests run JOBS at a time; the few that race a clock run alone (tests/CMakeLists.txt).
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# ASan+UBSan (and LeakSanitizer) on the format and analysis libraries, the unit tests and the CLI, which the
# bad-input tests drive through corrupted, truncated and missing logs.
# Only the folders those tests run programs of are built (the CLI and runtime in src, the unit
# and analysis tests, the error tests' programs, the race simulator unit.races_sim runs), one
# quarter less to compile than the whole tree; a Makefile tree, so that each folder builds alone.
SAN_DIRS = src/format src/runtime src/analysis src/cli tests/unit tests/analysis tests/integration bench/races_sim
sanitize: deps
	cmake -S . -B $(SAN_BUILD) -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Debug -DMPIRR_SANITIZE=ON
	for d in $(SAN_DIRS); do $(MAKE) --no-print-directory -C $(SAN_BUILD)/$$d -j $(JOBS) || exit 1; done
	cd $(SAN_BUILD) && ctest --output-on-failure -j $(JOBS) -R '^(unit|errors|analysis)\.'

# libFuzzer targets (clang only): built apart, since the whole build stays with the default
# compiler; skipped with a note where clang's fuzzer runtime is missing.
HAVE_LIBFUZZER = $(shell echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' | \
	clang -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1 && echo yes)
fuzz: deps
ifeq ($(HAVE_LIBFUZZER),yes)
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMPIRR_FUZZ=ON
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_targets
else
	@echo "mpirr: clang with libFuzzer not found (clang, libclang-rt-14-dev): fuzz targets skipped"
endif

# Each target over its seed corpus for a fixed number of runs, under ASan and UBSan.
fuzz-check: fuzz
ifeq ($(HAVE_LIBFUZZER),yes)
	cd $(FUZZ_BUILD) && ctest --output-on-failure -R '^fuzz\.'
endif

check: demo sanitize fuzz-check test

bench: build
	@bench/run.sh $(BUILD)
	@bench/table1/table1.sh $(BUILD)
	@bench/events/events_bench.sh $(BUILD)
	@bench/analysis/analysis_bench.sh $(BUILD)
	@bench/threads/lock_bench.sh $(BUILD)
	@bench/lammps/lammps_bench.sh $(BUILD)

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(SAN_BUILD) $(FUZZ_BUILD)
