# cubemu -- a Boolean-cube multiprocessor emulator.
#
#   make run      install missing dependencies, build, run the default scenario
#   make check    install missing dependencies, build, run every test
#   make bench    the benchmark (docs/performance.md), recorded in
#                 bench/results.tsv; make bench-report prints it
#   make simgrid-baseline  the SimGrid programs make bench compares cubemu
#                 with (bench/simgrid/, or SIMGRID_BASELINE), in build/simgrid/
#   make sanitize the unit tests under AddressSanitizer + UBSan
#   make check-mpi build/cubemu-mpi under mpirun against the emulator, and
#                 libcubemu's tests and examples/ (make check-lib alone)
#   make smpi     build-smpi/cubemu-smpi: the MPI program built with SimGrid's
#                 smpicc (SMPI), for simulated runs at 256 and 1024 ranks
#   make check-smpi  tests/smpi.sh: those runs under smpirun on an n-cube
#   make check-determinism  every scenario twice: identical JSON and traces,
#                      again in the locality order, and with 2 threads in
#                      both orders: the same JSON
#   make check-tsan    the engine's threads under ThreadSanitizer (build-tsan/)
#   make install  PREFIX=/usr/local [DESTDIR=...]: cubemu, cubemu-view (where
#                 SDL2 is), cubemu-mpi and libcubemu (where Open MPI is), the
#                 header, pkg-config file, man pages, bash and zsh completion,
#                 presets, scenarios and docs; make uninstall removes them
#   make install-lib  libcubemu alone (lib/cubemu.h, cubemu.pc)
#   make man      build/man/: cubemu(1), cubemu-scenario(5), cubemu-mpi(1),
#                 generated from the programs' --help (docs/man/gen-man.py)
#   make completion  build/completion/: bash and zsh completion, generated
#                 from cubemu list --json and --help (docs/completion/)
#   make check-lib libcubemu's tests and examples/ under mpirun -np 1..8
#   make bench-mpi libcubemu's transposes against MPI_Alltoall on 8 ranks
#   make bench-loggopsim  Schedgen's schedules against LogGOPSim
#                 (LOGGOPSIM=DIR): the LogGP model's finish times
#                 (bench/loggopsim-agree.sh), then the replay's speed
#                 (bench/loggopsim.sh)
#   make bench-faults     the exchange with n - 1 link faults against none
#   make bench-threads    1 thread against 2: exchange, gray-to-binary, reshape
#   make fuzz     the libFuzzer harnesses (tests/fuzz/, clang, build-fuzz/),
#                 each for FUZZ_SECONDS (default 60)
#
# Objects go to build/ (or build-san/ for the sanitizer build). The engine
# and the algorithms form one static library that the program and the tests
# link, with the trace format, its exporters and the sweep plots (traces/*.c,
# cairo, no SDL); the SDL2 viewer (traces/sdl/*.c) is compiled with SDL's
# flags and linked only into cubemu-view and tests/view_check, on their own
# line.

VERSION  := 0.1.0
BUILD    ?= build
CC       ?= cc
OPT      ?= -O2
WERROR   ?= -Werror
SAN      ?=
PKGS     := glib-2.0 json-glib-1.0 cairo fftw3 zlib blas
# Linked: all but CBLAS, FFTW and cairo, which are loaded when first
# needed (algorithms/common/dynlib.c: CBLAS when an algorithm that calls
# BLAS is prepared, FFTW when an FFT reference needs it; traces/plot.c when
# a plot is saved): with what they bring, they cost every start 14 ms.
# Tests that draw with cairo themselves link it.
LINK_PKGS := glib-2.0 json-glib-1.0 zlib
CAIRO_LIBS := $(shell pkg-config --libs cairo 2>/dev/null)
DEPS_PKGS := glib-2.0 json-glib-1.0 cairo fftw3 zlib blas openblas ompi-c sdl2 SDL2_ttf SDL2_image check
# giflib has no pkg-config file, and the font of the viewer and the plots is
# not a library: make deps checks these files instead (clang: make fuzz).
DEPS_FILES := /usr/include/gif_lib.h /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
              /usr/bin/pj_dump /usr/bin/clang /usr/bin/python3 /usr/bin/man \
              /usr/lib/python3/dist-packages/jsonschema/__init__.py
APT_PKGS := libglib2.0-dev libjson-glib-dev libcairo2-dev libfftw3-dev zlib1g-dev libopenblas-dev \
            libsdl2-dev libsdl2-ttf-dev libsdl2-image-dev libgif-dev fonts-dejavu-core check \
            pkg-config pajeng libopenmpi-dev openmpi-bin clang python3 man-db \
            python3-jsonschema
SDL_PKGS := sdl2 SDL2_ttf SDL2_image

PKG_CFLAGS   := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS     := $(shell pkg-config --libs $(LINK_PKGS) 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)
SDL_CFLAGS   := $(shell pkg-config --cflags $(SDL_PKGS) 2>/dev/null)
SDL_LIBS     := $(shell pkg-config --libs $(SDL_PKGS) 2>/dev/null) -lgif

# MPI (Open MPI's ompi-c, else whatever mpicc reports): build/cubemu-mpi is
# built only where it is found; everything else builds without it.
MPI_CFLAGS := $(shell pkg-config --cflags ompi-c 2>/dev/null || mpicc --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell pkg-config --libs ompi-c 2>/dev/null || mpicc --showme:link 2>/dev/null)

# make V=1 shows whole command lines.
Q := $(if $(V),,@)

ALG_DIRS := $(sort $(dir $(wildcard algorithms/*/*.c)))
CPPFLAGS += -Iutil -Iemu -Imachines -Irun -Itraces -Isdk -Iworkloads -Ialgorithms -Ialgorithms/common \
            $(addprefix -I,$(ALG_DIRS)) \
            -D_POSIX_C_SOURCE=200809L -DCUBEMU_VERSION='"$(VERSION)"' \
            -DCUBEMU_SOURCE_DIR='"$(CURDIR)"' -MMD -MP $(SMPI_DEFS)
CFLAGS   += -std=c11 $(OPT) -g -Wall -Wextra $(WERROR) $(SAN) $(PKG_CFLAGS)
LDLIBS   += $(PKG_LIBS) -lm

LIB_SRC  := $(wildcard util/*.c emu/*.c machines/*.c run/*.c sdk/*.c workloads/*.c \
              algorithms/*.c algorithms/*/*.c traces/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libcubemu-emu.a
# The programs that load node programs (sdk/) export the SDK's cubemu_*
# functions, and only those, for the loaded objects to call.
SDK_EXPORTS := -Wl,--dynamic-list=sdk/exports.list
SDK_PC := $(BUILD)/sdk/cubemu-program.pc
# cubemu and cubemu-view share the command line (cli/*.c); `view` is the
# SDL2 viewer (cmd_view.c) in cubemu-view and, in cubemu, view_exec.c,
# which starts cubemu-view: SDL2's libraries cost 18 ms on every start.
CLI_SRC  := $(filter-out cli/cmd_view.c cli/view_exec.c,$(wildcard cli/*.c))
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)
SDL_SRC  := $(wildcard traces/sdl/*.c)
SDL_OBJ  := $(SDL_SRC:%.c=$(BUILD)/%.o)
PROGRAM  := $(BUILD)/cubemu
VIEWER   := $(BUILD)/cubemu-view
VIEW_CHECK := $(BUILD)/tests/view_check
TEST_SRC := $(wildcard tests/check_*.c)
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
BENCH    := $(BUILD)/bench/bench
# The Theorem 3 research tools (tools/, tools/README.md), each one file
# linked with the library. tools/thm3-types.c: every delta = 8 shape
# against the slot tables (README, Reshape): the 16-cube's node by node
# (half an hour, by hand), every cube's by linearity (--all, 2 minutes, by
# hand); tests/thm3.sh, part of make check, checks the linear method
# against the enumeration.
THM3_TYPES := $(BUILD)/tools/thm3-types
# tools/thm3-sample.c: random delta = 8 shapes of 17- to 26-cubes, prepared
# (and some run) with schedule = slots; run by hand (README, Reshape).
THM3_SAMPLE := $(BUILD)/tools/thm3-sample
# The fuzz harnesses (tests/fuzz/fuzz_*.c). In a regular or sanitized build
# each is linked with tests/fuzz/driver.c, a main() that runs the files it
# is given (tests/fuzz.sh: the seed corpora and the regressions); make fuzz
# rebuilds everything with clang into build-fuzz/ and links them with
# libFuzzer instead (FUZZ_DRIVER empty, FUZZ_LINK -fsanitize=fuzzer).
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZERS  := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/tests/fuzz/%)
FUZZ_DRIVER ?= tests/fuzz/driver.c
FUZZ_LINK ?=
# The MPI program: mpi/*.c with the library minus the engine (emu/sim.c,
# its units emu/sim_*.c, and run/run.c, which uses it): node_mpi.c defines
# the node API instead.
ENGINE_SRC := emu/sim.c $(wildcard emu/sim_*.c) run/run.c
MPI_SRC  := $(wildcard mpi/*.c)
MPI_OBJ  := $(MPI_SRC:%.c=$(BUILD)/%.o)
MPI_CORE := $(BUILD)/libcubemu-core.a
MPI_PROGRAM := $(if $(MPI_LIBS),$(BUILD)/cubemu-mpi)
# The wait limit's test (tests/mpi_wait.c): node programs of its own.
MPI_WAIT := $(if $(MPI_LIBS),$(BUILD)/tests/mpi_wait)

# libcubemu, the library for MPI programs (lib/cubemu.h): the MPI core, the
# backend and lib/cubemu.c compiled position-independent with hidden
# symbols (only the cubemu_* API is exported), as a static and a shared
# library, installed with its header and pkg-config file by make install.
SOVERSION := 0
PIC_SRC  := $(filter-out $(ENGINE_SRC),$(LIB_SRC)) mpi/node_mpi.c lib/cubemu.c
PIC_OBJ  := $(PIC_SRC:%.c=$(BUILD)/pic/%.o)
LIBCUBEMU_A  := $(BUILD)/lib/libcubemu.a
LIBCUBEMU_SO := $(BUILD)/lib/libcubemu.so.$(VERSION)
LIBCUBEMU := $(if $(MPI_LIBS),$(LIBCUBEMU_A) $(LIBCUBEMU_SO) $(BUILD)/lib/cubemu.pc \
               $(BUILD)/lib/cubemu-uninstalled.pc)
# Where make install puts it; make check-lib installs into STAGE and builds
# the tests and examples/ from there through pkg-config, as a user would.
PREFIX   ?= /usr/local
DESTDIR  ?=
STAGE    := $(CURDIR)/$(BUILD)/stage

.PHONY: install-lib install-sdk uninstall man completion
.PHONY: check-tsan bench-frontier bench-threads bench-faults bench-loggopsim bench-report bench-targets bench-against deps-simgrid simgrid-baseline all run check check-determinism check-mpi check-lib bench-mpi install examples smpi check-smpi test unit scenarios bench sanitize fuzz fuzzers deps clean
all: $(SDK_PC) $(BUILD)/sdk/cubemu-program-uninstalled.pc $(PROGRAM) $(VIEWER) $(TESTS) $(BENCH) $(THM3_TYPES) $(THM3_SAMPLE) $(VIEW_CHECK) $(MPI_PROGRAM) $(MPI_WAIT) $(LIBCUBEMU) $(FUZZERS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  CC      $<")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(SDL_OBJ) $(BUILD)/cli/cmd_view.o: CFLAGS += $(SDL_CFLAGS)

$(LIB): $(LIB_OBJ)
	$(Q)$(AR) rcs $@ $^

$(MPI_OBJ): CFLAGS += $(MPI_CFLAGS)
$(MPI_OBJ): CPPFLAGS += -Impi

$(MPI_CORE): $(filter-out $(ENGINE_SRC:%.c=$(BUILD)/%.o),$(LIB_OBJ))
	$(Q)$(AR) rcs $@ $^

$(BUILD)/cubemu-mpi: $(MPI_OBJ) $(MPI_CORE) sdk/exports.list
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) $(SDK_EXPORTS) $(MPI_OBJ) $(MPI_CORE) -o $@ $(LDLIBS) $(MPI_LIBS)

$(BUILD)/tests/mpi_wait.o: CFLAGS += $(MPI_CFLAGS)
$(BUILD)/tests/mpi_wait.o: CPPFLAGS += -Impi
$(BUILD)/tests/mpi_wait: $(BUILD)/tests/mpi_wait.o $(BUILD)/mpi/node_mpi.o $(MPI_CORE)
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS) $(MPI_LIBS)

$(PIC_OBJ): $(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  CC  PIC $<")
	$(Q)$(CC) $(CPPFLAGS) -Impi -Ilib $(CFLAGS) $(MPI_CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@

$(LIBCUBEMU_A): $(PIC_OBJ)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LIBCUBEMU_SO): $(PIC_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) -shared -Wl,-soname,libcubemu.so.$(SOVERSION) $(CFLAGS) $^ -o $@ $(LDLIBS) $(MPI_LIBS)
	$(Q)ln -sf libcubemu.so.$(VERSION) $(BUILD)/lib/libcubemu.so.$(SOVERSION)
	$(Q)ln -sf libcubemu.so.$(SOVERSION) $(BUILD)/lib/libcubemu.so

$(BUILD)/lib/cubemu.pc: lib/cubemu.pc.in Makefile
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
	  -e 's|@REQUIRES@|$(LINK_PKGS)|' $< > $@

# Programs build against the tree without installing: pkg-config finds
# cubemu-uninstalled.pc before cubemu.pc in the same folder, so
# PKG_CONFIG_PATH=build/lib pkg-config --cflags --libs cubemu gives the
# source tree's lib/cubemu.h and build/lib (with its rpath: the program runs
# without LD_LIBRARY_PATH).
$(BUILD)/lib/cubemu-uninstalled.pc: lib/cubemu.pc.in Makefile
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@PREFIX@|$(CURDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	  -e 's|@REQUIRES@|$(LINK_PKGS)|' -e 's|^includedir=.*|includedir=$${prefix}/lib|' \
	  -e 's|^libdir=.*|libdir=$(abspath $(BUILD))/lib|' \
	  -e 's|^Libs: .*|Libs: -L$${libdir} -Wl,-rpath,$${libdir} -lcubemu|' $< > $@

# make install-lib PREFIX=... [DESTDIR=...]: header, both libraries,
# cubemu.pc (make check-lib stages it so).
install-lib: $(LIBCUBEMU)
	@if [ -z "$(LIBCUBEMU)" ]; then echo "install-lib: no MPI, no libcubemu (apt-get install -y libopenmpi-dev openmpi-bin)"; exit 1; fi
	install -d $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 lib/cubemu.h $(DESTDIR)$(PREFIX)/include/cubemu.h
	install -m 644 $(LIBCUBEMU_A) $(DESTDIR)$(PREFIX)/lib/libcubemu.a
	install -m 755 $(LIBCUBEMU_SO) $(DESTDIR)$(PREFIX)/lib/libcubemu.so.$(VERSION)
	ln -sf libcubemu.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libcubemu.so.$(SOVERSION)
	ln -sf libcubemu.so.$(SOVERSION) $(DESTDIR)$(PREFIX)/lib/libcubemu.so
	sed 's|^prefix=.*|prefix=$(PREFIX)|' $(BUILD)/lib/cubemu.pc > $(DESTDIR)$(PREFIX)/lib/pkgconfig/cubemu.pc

# The node-program SDK (sdk/): <cubemu/program.h> and cubemu-program.pc,
# whose prefix is the .pc file's own place (pcfiledir), so the installed
# tree may move. Compile flags only: a program links against nothing.
$(SDK_PC): sdk/cubemu-program.pc.in Makefile
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@VERSION@|$(VERSION)|' $< > $@
# In the tree, without installing: PKG_CONFIG_PATH=build/sdk finds
# cubemu-program-uninstalled.pc first, with the tree's sdk/.
$(BUILD)/sdk/cubemu-program-uninstalled.pc: sdk/cubemu-program.pc.in Makefile
	@mkdir -p $(dir $@)
	$(Q)sed -e 's|@VERSION@|$(VERSION)|' -e 's|^includedir=.*|includedir=$(CURDIR)/sdk|' $< > $@
install-sdk: $(SDK_PC)
	install -d $(DESTDIR)$(PREFIX)/include/cubemu $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 sdk/cubemu/program.h $(DESTDIR)$(PREFIX)/include/cubemu/program.h
	install -m 644 $(SDK_PC) $(DESTDIR)$(PREFIX)/lib/pkgconfig/cubemu-program.pc

# The man pages and the completion, generated from what the built programs
# print (docs/man/gen-man.py, docs/completion/gen-completion.py): remade
# whenever a program is relinked, so a new option is in them at once.
# cubemu view --help is cubemu-view's, hence the viewer among the inputs.
HAVE_SDL := $(shell pkg-config --exists $(SDL_PKGS) 2>/dev/null && echo yes)
INSTALL_VIEWER := $(if $(HAVE_SDL),$(VIEWER))
MAN_OUT  := $(BUILD)/man
MAN_PAGES := $(MAN_OUT)/cubemu.1 $(MAN_OUT)/cubemu-scenario.5 \
             $(if $(MPI_PROGRAM),$(MAN_OUT)/cubemu-mpi.1)
COMPLETION := $(BUILD)/completion/cubemu $(BUILD)/completion/_cubemu
HELP_PY  := docs/man/cubemu_help.py
MACHINE_FILES := $(sort $(wildcard machines/*.ini machines/*.tbl machines/*.md))
$(MAN_OUT)/%: docs/man/%.in docs/man/gen-man.py $(HELP_PY) $(PROGRAM) $(INSTALL_VIEWER) \
              $(MPI_PROGRAM) $(MACHINE_FILES)
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  MAN     $@")
	$(Q)python3 docs/man/gen-man.py --cubemu $(PROGRAM) \
	  $(if $(MPI_PROGRAM),--mpi $(MPI_PROGRAM)) --version $(VERSION) \
	  --srcdir $(CURDIR) --out $(MAN_OUT) --page $*
$(BUILD)/completion/%: docs/completion/gen-completion.py $(HELP_PY) $(PROGRAM) \
                       $(INSTALL_VIEWER) $(MACHINE_FILES)
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  GEN     $@")
	$(Q)python3 docs/completion/gen-completion.py --cubemu $(PROGRAM) \
	  --machines $(CURDIR)/machines --out $(dir $@) --only $*
man: $(MAN_PAGES)
completion: $(COMPLETION)

# make install PREFIX=... [DESTDIR=...]: the programs, libcubemu (where
# Open MPI is), the man pages, the completion, and under share/cubemu the
# presets (machines/, found there by an installed cubemu: PREFIX/bin/../
# share/cubemu/machines, so the tree may move) and the scenarios, as
# examples. make uninstall with the same PREFIX and DESTDIR removes
# exactly those files, and share/cubemu and share/doc/cubemu once empty.
BINDIR   := $(PREFIX)/bin
DATADIR  := $(PREFIX)/share
PKGDATADIR := $(DATADIR)/cubemu
MANDIR   := $(DATADIR)/man
DOCDIR   := $(DATADIR)/doc/cubemu
BASH_COMPLETION_DIR := $(DATADIR)/bash-completion/completions
ZSH_COMPLETION_DIR  := $(DATADIR)/zsh/site-functions
INSTALL_BINS := $(PROGRAM) $(INSTALL_VIEWER) $(MPI_PROGRAM)
SCENARIO_FILES := $(sort $(shell find scenarios -name '*.ini' 2>/dev/null))
SCENARIO_DIRS  := $(sort $(patsubst %/,%,$(dir $(SCENARIO_FILES))))
DOC_FILES := README.md $(sort $(wildcard docs/*.md))
# The node-program examples, to build from the installed tree alone.
SDK_EXAMPLES := $(sort $(wildcard examples/programs/*.c examples/programs/*.ini \
                  examples/programs/README.md examples/programs/Makefile))
install: $(INSTALL_BINS) $(MAN_PAGES) $(COMPLETION) $(if $(LIBCUBEMU),install-lib) install-sdk
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
	  $(DESTDIR)$(BASH_COMPLETION_DIR) $(DESTDIR)$(ZSH_COMPLETION_DIR) \
	  $(DESTDIR)$(PKGDATADIR)/machines $(DESTDIR)$(DOCDIR)
	install -m 755 $(INSTALL_BINS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(filter %.5,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man5/
	install -m 644 $(BUILD)/completion/cubemu $(DESTDIR)$(BASH_COMPLETION_DIR)/cubemu
	install -m 644 $(BUILD)/completion/_cubemu $(DESTDIR)$(ZSH_COMPLETION_DIR)/_cubemu
	install -m 644 $(MACHINE_FILES) $(DESTDIR)$(PKGDATADIR)/machines/
	@echo "install -m 644 scenarios/... $(DESTDIR)$(PKGDATADIR)/scenarios/..."
	$(Q)$(foreach d,$(SCENARIO_DIRS),install -d $(DESTDIR)$(PKGDATADIR)/$(d) && \
	  install -m 644 $(wildcard $(d)/*.ini) $(DESTDIR)$(PKGDATADIR)/$(d)/ &&) true
	install -m 644 $(DOC_FILES) $(DESTDIR)$(DOCDIR)/
	install -d $(DESTDIR)$(DOCDIR)/examples/programs
	install -m 644 $(SDK_EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/programs/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,cubemu cubemu-view cubemu-mpi)
	rm -f $(DESTDIR)$(PREFIX)/include/cubemu/program.h \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig/cubemu-program.pc
	$(Q)if [ -d $(DESTDIR)$(PREFIX)/include/cubemu ]; then \
	  rmdir --ignore-fail-on-non-empty $(DESTDIR)$(PREFIX)/include/cubemu; fi
	rm -f $(DESTDIR)$(PREFIX)/include/cubemu.h $(DESTDIR)$(PREFIX)/lib/pkgconfig/cubemu.pc \
	  $(addprefix $(DESTDIR)$(PREFIX)/lib/,libcubemu.a libcubemu.so \
	    libcubemu.so.$(SOVERSION) libcubemu.so.$(VERSION))
	rm -f $(DESTDIR)$(MANDIR)/man1/cubemu.1 $(DESTDIR)$(MANDIR)/man1/cubemu-mpi.1 \
	  $(DESTDIR)$(MANDIR)/man5/cubemu-scenario.5
	rm -f $(DESTDIR)$(BASH_COMPLETION_DIR)/cubemu $(DESTDIR)$(ZSH_COMPLETION_DIR)/_cubemu
	rm -f $(addprefix $(DESTDIR)$(PKGDATADIR)/,$(MACHINE_FILES))
	@echo "rm -f $(DESTDIR)$(PKGDATADIR)/scenarios/..."
	$(Q)rm -f $(addprefix $(DESTDIR)$(PKGDATADIR)/,$(SCENARIO_FILES))
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/,$(notdir $(DOC_FILES)))
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/examples/programs/,$(notdir $(SDK_EXAMPLES)))
	$(Q)for d in $$(printf '%s\n' $(DESTDIR)$(PKGDATADIR) $(DESTDIR)$(DOCDIR) \
	    $(DESTDIR)$(DOCDIR)/examples/programs $(DESTDIR)$(DOCDIR)/examples \
	    $(addprefix $(DESTDIR)$(PKGDATADIR)/,$(SCENARIO_DIRS) scenarios machines) \
	    | sort -ru); do \
	  if [ -d "$$d" ]; then rmdir --ignore-fail-on-non-empty "$$d"; fi; \
	done

# The library's tests and the examples, built against a staged install
# through pkg-config (tests/lib/*.c, examples/*.c), run by tests/lib-mpi.sh.
LIB_TESTS := $(patsubst tests/lib/%.c,$(BUILD)/lib-tests/%,$(wildcard tests/lib/*.c)) \
             $(patsubst examples/%.c,$(BUILD)/examples/%,$(wildcard examples/*.c))
STAGE_PC := PKG_CONFIG_PATH=$(STAGE)/lib/pkgconfig
$(BUILD)/stage/.installed: $(LIBCUBEMU) lib/cubemu.h
	$(Q)$(MAKE) --no-print-directory install-lib PREFIX=$(STAGE) DESTDIR= >/dev/null
	$(Q)touch $@
$(BUILD)/lib-tests/%: tests/lib/%.c $(BUILD)/stage/.installed
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  MPICC   $@")
	$(Q)mpicc -std=c11 $(OPT) -g -Wall -Wextra $(WERROR) $< -o $@ $$($(STAGE_PC) pkg-config --cflags --libs cubemu) -Wl,-rpath,$(STAGE)/lib
$(BUILD)/examples/%: examples/%.c $(BUILD)/stage/.installed
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  MPICC   $@")
	$(Q)mpicc -std=c11 $(OPT) -g -Wall -Wextra $(WERROR) $< -o $@ $$($(STAGE_PC) pkg-config --cflags --libs cubemu) -Wl,-rpath,$(STAGE)/lib
examples: $(LIB_TESTS)

check-lib: deps
	@$(MAKE) --no-print-directory all
	@if [ -z "$(LIBCUBEMU)" ]; then echo "check-lib: no MPI (apt-get install -y libopenmpi-dev openmpi-bin)"; exit 1; fi
	@$(MAKE) --no-print-directory examples
	@BUILD=$(BUILD) tests/lib-mpi.sh

# libcubemu's BMMC transpose and the transpose methods against
# MPI_Alltoall on 8 ranks, a small and a large matrix.
bench-mpi: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory examples
	@BUILD=$(BUILD) bench/mpi.sh

# The same program under SMPI: every object rebuilt with smpicc into
# build-smpi/ (a sub-make with BUILD=build-smpi CC=smpicc), linked by smpicc,
# which adds SimGrid; GLib, json-glib and BLAS come from pkg-config as above.
SMPICC ?= smpicc
# SimGrid (smpicc, and simgrid.pc for the bench's baseline) is installed
# here, not by deps: only smpi, check-smpi and bench need it.
SMPI_APT := libsimgrid-dev simgrid
deps-simgrid:
	@if ! (command -v $(SMPICC) && pkg-config --exists simgrid) >/dev/null 2>&1 \
	    && [ "$$(id -u)" = 0 ]; then \
	  echo "installing $(SMPI_APT)"; \
	  (apt-get install -y $(SMPI_APT) || (apt-get update && apt-get install -y $(SMPI_APT))); \
	fi

smpi: deps-simgrid
	@if ! command -v $(SMPICC) >/dev/null 2>&1; then \
	  echo "smpi: skipped, no smpicc (apt-get install -y $(SMPI_APT))"; \
	else \
	  $(MAKE) --no-print-directory BUILD=build-smpi CC=$(SMPICC) MPI_CFLAGS= MPI_LIBS= \
	    SMPI_DEFS=-DCUBEMU_SMPI build-smpi/cubemu-smpi; \
	fi

$(BUILD)/cubemu-smpi: $(MPI_OBJ) $(MPI_CORE)
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# tests/smpi.sh: scenarios at 256 and 1024 simulated ranks under smpirun,
# each compared with the emulator's run (build/cubemu).
check-smpi: $(PROGRAM)
	@$(MAKE) --no-print-directory smpi
	@if command -v $(SMPICC) >/dev/null 2>&1; then BUILD_EMU=$(BUILD) tests/smpi.sh; fi

$(PROGRAM): $(CLI_OBJ) $(BUILD)/cli/view_exec.o $(LIB) sdk/exports.list
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) $(SDK_EXPORTS) $(filter %.o %.a,$^) -o $@ $(LDLIBS)

$(VIEWER): $(CLI_OBJ) $(BUILD)/cli/cmd_view.o $(SDL_OBJ) $(LIB) sdk/exports.list
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) $(CFLAGS) $(SDK_EXPORTS) $(filter %.o %.a,$^) -o $@ $(LDLIBS) $(SDL_LIBS)

$(VIEW_CHECK): tests/view_check.c $(SDL_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(SDL_CFLAGS) $< $(SDL_OBJ) $(LIB) -o $@ $(LDLIBS) $(SDL_LIBS)

$(BUILD)/tests/%: tests/%.c $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(CHECK_CFLAGS) $(SDK_EXPORTS) $< $(LIB) -o $@ $(LDLIBS) $(CHECK_LIBS) $(CAIRO_LIBS)

$(THM3_TYPES) $(THM3_SAMPLE): $(BUILD)/tools/%: tools/%.c $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $< $(LIB) -o $@ $(LDLIBS)

$(FUZZERS): $(BUILD)/tests/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(FUZZ_DRIVER) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) $(CPPFLAGS) -Itests/fuzz $(CFLAGS) $(FUZZ_LINK) $< $(FUZZ_DRIVER) $(LIB) -o $@ $(LDLIBS)
fuzzers: $(FUZZERS)

$(BENCH): bench/bench.c $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  LINK    $@")
	$(Q)$(CC) $(CPPFLAGS) -Ibench $(CFLAGS) $< $(LIB) -o $@ $(LDLIBS)

# Dependencies: installed with apt-get when run as root, else the command
# is printed. run, check and bench call this first.
deps:
	@if pkg-config --exists $(DEPS_PKGS) 2>/dev/null && ls $(DEPS_FILES) >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "installing $(APT_PKGS)"; \
	  (apt-get install -y $(APT_PKGS) || (apt-get update && apt-get install -y $(APT_PKGS))); \
	else \
	  echo "missing packages; run as root: apt-get install -y $(APT_PKGS)"; exit 1; \
	fi

run: deps
	@$(MAKE) --no-print-directory $(PROGRAM)
	$(PROGRAM) run

# Check's timeouts (tests/check_main.h, ck_tcase) are multiplied by the
# build's TIMEOUT_FACTOR, given to Check as CK_TIMEOUT_MULTIPLIER: 1 in a
# regular build, SAN_TIMEOUT_FACTOR under make sanitize. The margin check
# (tests/margins.sh, part of make check, make unit and make sanitize) fails
# any test that takes more than half of its timeout times that factor.
TIMEOUT_FACTOR ?= 1

check test: deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) CK_TIMEOUT_MULTIPLIER=$(TIMEOUT_FACTOR) tests/run-all.sh

# The MPI program against the emulator (tests/mpi.sh), then libcubemu's
# tests and example (tests/lib-mpi.sh); needs mpirun.
check-mpi: deps
	@$(MAKE) --no-print-directory all
	@if [ -z "$(MPI_PROGRAM)" ]; then echo "check-mpi: no MPI (apt-get install -y libopenmpi-dev openmpi-bin)"; exit 1; fi
	@BUILD=$(BUILD) tests/mpi.sh
	@BUILD=$(BUILD) tests/sdk.sh --mpi
	@$(MAKE) --no-print-directory examples
	@BUILD=$(BUILD) tests/lib-mpi.sh

# Every scenario run twice: byte-identical JSON (but wall time) and traces.
check-determinism: deps
	@$(MAKE) --no-print-directory $(PROGRAM)
	@BUILD=$(BUILD) tests/determinism.sh

unit: all
	@BUILD=$(BUILD) CK_TIMEOUT_MULTIPLIER=$(TIMEOUT_FACTOR) tests/run-all.sh --unit-only

# The benchmark (bench/run.sh): the cases of bench/bench.c, then cubemu
# against SimGrid and the memcpy floor (bench/peers.sh), the routed bit
# reversal against a second SimGrid baseline (bench/routed.sh), and every
# algorithm against the exchange (bench/algorithms.sh); every figure is
# also appended to bench/results.tsv (BENCH_DATA), which make bench-report
# prints as a table.
bench: deps deps-simgrid
	@$(MAKE) --no-print-directory $(PROGRAM) $(BENCH) simgrid-baseline
	@BUILD=$(BUILD) SIMGRID_BASELINE=$(SIMGRID_BASELINE) bench/run.sh

# cubemu's LogGP model (machines/loggp.ini) against LogGOPSim on Schedgen's
# patterns, every rank's finish time (bench/loggopsim-agree.sh): the peer
# is found through LOGGOPSIM (a folder with bin/schedgen, bin/txt2bin,
# bin/LogGOPSim) and skipped with a message where it is not given.
# The SimGrid baselines the benchmark runs cubemu against: each *.cpp of
# SIMGRID_BASELINE one program (cube_exchange for bench/peers.sh,
# bit_reversal for bench/routed.sh; bench/simgrid/README.md), with the
# header they share, built into $(BUILD)/simgrid/. Skipped with a message
# where SimGrid is not installed; the scripts skip their baseline then too.
SIMGRID_BASELINE ?= bench/simgrid
SIMGRID_PROGRAMS := $(patsubst $(SIMGRID_BASELINE)/%.cpp,$(BUILD)/simgrid/%,$(wildcard $(SIMGRID_BASELINE)/*.cpp))
SIMGRID_FLAGS := $(shell pkg-config --cflags --libs simgrid 2>/dev/null)
simgrid-baseline: $(if $(SIMGRID_FLAGS),$(SIMGRID_PROGRAMS))
	@if [ -z "$(SIMGRID_PROGRAMS)" ]; then \
	  echo "simgrid-baseline: no *.cpp in SIMGRID_BASELINE = $(SIMGRID_BASELINE)"; exit 2; \
	fi
	@$(if $(SIMGRID_FLAGS),:,echo "simgrid-baseline: skipped, no SimGrid (pkg-config simgrid; make deps-simgrid installs it)")

$(SIMGRID_PROGRAMS): $(BUILD)/simgrid/%: $(SIMGRID_BASELINE)/%.cpp $(wildcard $(SIMGRID_BASELINE)/*.hpp)
	@mkdir -p $(dir $@)
	@$(if $(V),:,echo "  CXX     $@")
	$(Q)$(CXX) -O2 -std=c++17 -Wall -Wextra $(WERROR) $< -o $@ $(SIMGRID_FLAGS)

bench-report:
	@python3 bench/report.py $(BENCH_REPORT_FLAGS)

# This build's exchange against an older build's (AGAINST, default the
# last one on huge pages), back to back and after pauses (bench/against.sh;
# BENCH_AGAINST_WORKLOADS adds other workloads).
AGAINST ?= 7befd67
bench-against: deps
	@$(MAKE) --no-print-directory $(PROGRAM)
	@BUILD=$(BUILD) bench/against.sh $(AGAINST)

# Large Schedgen schedules replayed by cubemu and by LogGOPSim, the peer
# in the directory LOGGOPSIM names (skipped without it; bench/loggopsim.sh)
bench-loggopsim: deps
	@$(MAKE) --no-print-directory $(PROGRAM)
	@BUILD=$(BUILD) bench/loggopsim-agree.sh
	@BUILD=$(BUILD) bench/loggopsim.sh

# What faults cost the engine: the exchange with and without n - 1 link
# faults (bench/faults.sh)
bench-faults: deps
	@$(MAKE) --no-print-directory $(PROGRAM)
	@BUILD=$(BUILD) bench/faults.sh

# What share of the runs that stop the locality order could run in it,
# tick by tick (bench/frontier.sh)
bench-frontier: deps
	@$(MAKE) --no-print-directory $(PROGRAM)
	@BUILD=$(BUILD) bench/frontier.sh

# What a second thread gives the engine: 1 thread against 2 on the
# exchange, gray-to-binary and reshape, and peak memory (bench/threads.sh)
bench-threads: deps
	@$(MAKE) --no-print-directory $(PROGRAM)
	@BUILD=$(BUILD) bench/threads.sh

# The targets of the latest recorded make bench run: fails if one was
# missed (make bench itself fails only when a case does).
bench-targets:
	@python3 bench/report.py --targets $(BENCH_REPORT_FLAGS)

# tests/lsan.supp: fontconfig's own state, which cairo's text starts.
# Check's timeouts are multiplied by SAN_TIMEOUT_FACTOR here: the
# sanitized build runs the slowest tests about that many times slower
# than the regular one (the median of their ratios; tests/margins.py
# --compare build/tests/timings build-san/tests/timings measures it), so a
# test keeps about the same margin in both builds, and the margin check
# still holds every test to half of its scaled timeout. A test the
# sanitizers slow far more than the factor (allocation in every step,
# string functions they intercept over long texts) is what that check
# finds here: it is made faster or its case given a timeout that says why
# (docs/testing.md, Timeouts and margins).
SAN_TIMEOUT_FACTOR := 3
sanitize: deps
	@LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  $(MAKE) --no-print-directory BUILD=build-san OPT=-O1 \
	  SAN='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' \
	  TIMEOUT_FACTOR=$(SAN_TIMEOUT_FACTOR) unit

# The engine's threads under ThreadSanitizer (tests/tsan.sh): a smoke set
# of scenarios whose ticks split, with 2 and 3 threads, against 1 thread;
# and the engine's unit tests, whose random programs run with threads.
check-tsan: deps
	@$(MAKE) --no-print-directory BUILD=build-tsan OPT=-O1 \
	  SAN='-fsanitize=thread -fno-omit-frame-pointer' \
	  build-tsan/cubemu build-tsan/tests/check_engine
	@TSAN_OPTIONS=halt_on_error=1 CK_TIMEOUT_MULTIPLIER=$(SAN_TIMEOUT_FACTOR) \
	  build-tsan/tests/check_engine
	@BUILD=build-tsan tests/tsan.sh

# Every harness for FUZZ_SECONDS under libFuzzer with ASan and UBSan
# (tests/fuzz/run.sh: seeds from tests/fuzz/corpus/ and regressions/, the
# growing corpus and any crash in build-fuzz/); fails if one crashes.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
            -fno-sanitize-recover=all
fuzz: deps
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) OPT=-O1 \
	  SAN='$(FUZZ_SAN)' FUZZ_DRIVER= FUZZ_LINK=-fsanitize=fuzzer fuzzers
	@tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

clean:
	rm -rf build build-san build-tsan build-smpi build-fuzz build-against

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(SDL_OBJ:.o=.d) $(MPI_OBJ:.o=.d) $(PIC_OBJ:.o=.d) \
  $(BUILD)/cli/cmd_view.d $(BUILD)/cli/view_exec.d $(MPI_WAIT:=.d) \
  $(TESTS:=.d) $(BENCH).d $(THM3_TYPES).d $(THM3_SAMPLE).d $(VIEW_CHECK).d $(FUZZERS:=.d)
