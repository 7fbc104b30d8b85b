# harmonia — the two commands of the quick start, wrapping CMake.
#   make demo    install what is missing, build, run the main job on 2 ranks
#   make check   install what is missing, build, run every test (Open MPI,
#                MPICH, sanitizers: what CI runs)
# MPI=mpich selects MPICH for build/demo/test (default: Open MPI);
# MPI=smpi builds for SimGrid's SMPI into build-smpi (docs/scale.md).

MAKEFLAGS += --no-print-directory

MPI      ?= openmpi
JOBS     ?= 2
NP       ?= 2
BUILD    ?= build$(if $(filter mpich smpi,$(MPI)),-$(MPI),)
CMAKE_FLAGS ?=

ifeq ($(MPI),mpich)
MPICC   := mpicc.mpich
MPIEXEC := mpiexec.mpich
else ifeq ($(MPI),openmpi)
MPICC   := mpicc.openmpi
MPIEXEC := mpirun.openmpi
else ifeq ($(MPI),smpi)
MPICC   := smpicc
MPIEXEC := smpirun
else
$(error MPI must be openmpi, mpich or smpi, not "$(MPI)")
endif

# Open MPI refuses to run as root without these; harmless otherwise.
export OMPI_ALLOW_RUN_AS_ROOT := 1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM := 1

CONFIGURE = cmake -S . -B $(1) -DHARMONIA_WERROR=ON \
	-DMPI_C_COMPILER=$(2) -DMPIEXEC_EXECUTABLE=$$(command -v $(3)) $(CMAKE_FLAGS) $(4)

# SMPI: smpicc is the compiler itself; SMPI_PRETEND_CC lets CMake's test
# programs build as ordinary executables (only while configuring).
CONFIGURE_SMPI = SMPI_PRETEND_CC=1 cmake -S . -B $(1) -DHARMONIA_WERROR=ON \
	-DCMAKE_C_COMPILER=smpicc -DMPI_C_COMPILER=smpicc -DHARMONIA_SMPI=ON $(CMAKE_FLAGS)

.PHONY: all deps build demo check check-openmpi check-mpich check-sanitize check-smpi test \
	clean install

all: build

deps:
	@scripts/install-deps

build: deps
ifeq ($(MPI),smpi)
	$(call CONFIGURE_SMPI,$(BUILD))
else
	$(call CONFIGURE,$(BUILD),$(MPICC),$(MPIEXEC),)
endif
	cmake --build $(BUILD) -j $(JOBS)

# The main job on 2 ranks: clocks, then latency from a common start, then
# how well each process synchronization starts the ranks together.
demo: build
	$(MPIEXEC) -n $(NP) $(BUILD)/harmonia clock --clock-sync hca3,skampi --check-after 0,2
	@echo
	$(MPIEXEC) -n $(NP) $(BUILD)/harmonia bench
	@echo
	$(MPIEXEC) -n $(NP) $(BUILD)/harmonia skew

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Precision tests (label precision, cmake/HarmoniaTesting.cmake) compare
# against the truth within microseconds on a shared 2-core machine: one that
# fails is run once more, and fails the suite only if it fails again (a
# regression fails both times; a neighbour's load or, rarely, an unlucky fit
# does not). Every other test runs once. scripts/ctest-suite runs the two
# sets and prints, per suite, how many functional and how many precision
# tests failed, apart, and which precision tests needed the retry; `make
# check` repeats those lines at the end. `CTEST_RETRY=` disables.
CTEST_RETRY ?= --repeat until-pass:2

# Everything CI runs: the full suite with Open MPI (oversubscribed runs
# included), the suite with MPICH (few, small oversubscribed runs: its
# busy-polling makes them slow), the unit tests with ASan and UBSan, and the
# SMPI smoke test (64 simulated ranks, scale/smoke). Every suite runs, even
# after one failed (each is also a target of its own); at the end one line
# per suite (passed or failed, its seconds), then the counts of the two
# ctest suites, functional failures apart from precision ones, and their
# retries (scripts/ctest-suite), and the checks that failed, one line each;
# the status is non-zero if any suite failed.
CHECK_SUITES := openmpi mpich sanitize smpi

check: deps
	@rm -f build/suite.txt build/retries.txt build/failed.txt \
	    build-mpich/suite.txt build-mpich/retries.txt build-mpich/failed.txt
	@failed=0; report=""; \
	for s in $(CHECK_SUITES); do \
	    start=$$(date +%s); \
	    if $(MAKE) -f $(firstword $(MAKEFILE_LIST)) check-$$s; then r=passed; else r=failed; failed=$$((failed + 1)); fi; \
	    report="$$report|check-$$s: $$r ($$(( $$(date +%s) - start )) s)"; \
	done; \
	echo; echo "make check: $$failed of $(words $(CHECK_SUITES)) suites failed$$report" | tr '|' '\n'; \
	for b in build:openmpi build-mpich:mpich; do \
	    if [ -f $${b%%:*}/suite.txt ]; then cat $${b%%:*}/suite.txt $${b%%:*}/retries.txt; \
	        [ -f $${b%%:*}/failed.txt ] && cat $${b%%:*}/failed.txt; \
	    else echo "$${b#*:}: no counts (the suite stopped before its tests ran)"; fi; \
	done; \
	[ $$failed -eq 0 ]

check-openmpi:
	$(call CONFIGURE,build,mpicc.openmpi,mpirun.openmpi,)
	cmake --build build -j $(JOBS)
	scripts/ctest-suite openmpi build $(JOBS) $(CTEST_RETRY)

check-mpich:
	$(call CONFIGURE,build-mpich,mpicc.mpich,mpiexec.mpich,)
	cmake --build build-mpich -j $(JOBS)
	scripts/ctest-suite mpich build-mpich $(JOBS) $(CTEST_RETRY)

check-sanitize:
	$(call CONFIGURE,build-sanitize,mpicc.openmpi,mpirun.openmpi,-DHARMONIA_SANITIZE=ON)
	cmake --build build-sanitize -j $(JOBS)
	cd build-sanitize && ctest --output-on-failure -j $(JOBS) -L unit

check-smpi:
	$(call CONFIGURE_SMPI,build-smpi)
	cmake --build build-smpi -j $(JOBS)
	scale/smoke build-smpi

install: build
	cmake --install $(BUILD)

clean:
	rm -rf build build-mpich build-sanitize build-smpi
