# scripts/install.mk - the version, installation and packaging of lfc. Included by the top
# Makefile.
#
#   make install PREFIX=/usr/local [DESTDIR=/stage]
#       liblfc.a, liblfc.so.X.Y.Z (soname liblfc.so.X) with the liblfc.so.X and liblfc.so links,
#       the headers under include/lfc/, the programs that exist (lfc-demo, lfc-trace, lfc-check,
#       and lfc-sim when sim/sim.mk builds it), lib/pkgconfig/lfc.pc, man pages made from each
#       program's --help (help2man, man/*.h2m), the library's page man/lfc.3, a page per public
#       function made from its header (scripts/man3.py: man lfc_switch_step), and the
#       documentation under share/doc/lfc/, the example scenarios of lfc-sim (sim/scenarios) under
#       share/lfc/scenarios/, and the Python package lfc (python/lfc) in PYTHONDIR with a link
#       liblfc.so to the installed library beside its __init__.py, so that `import lfc` loads it.
#       BINDIR, LIBDIR, INCLUDEDIR, PKGCONFIGDIR, MANDIR, DOCDIR, DATADIR and PYTHONDIR may be
#       set one by one (PYTHONDIR: scripts/python_dir.py, the interpreter's own directory when it
#       lies under PREFIX, else PREFIX/lib/python3.X/site-packages for PYTHONPATH).
#   make uninstall PREFIX=... [DESTDIR=...]
#       removes what install wrote (include/lfc/, share/doc/lfc/, share/lfc/ and PYTHONDIR/lfc/
#       as whole directories)
#   make man
#       the man pages, in $(BUILD)/dist/man/
#   make test-man              (a step of make test; a few seconds)
#       every function liblfc.so exports has a page with a description from its header, and
#       every page renders without a groff warning (scripts/test_man3.sh)
#   make test-install          (a step of make test; about 10 s after the build)
#       installs into $(BUILD)/test-install, checks the tree, builds a small C program with
#       pkg-config against it (shared and static) and runs it; scripts/install_check.sh
#   make fusesoc-venv
#       FuseSoC from PyPI in a virtual environment, $(BUILD)/venv-fusesoc
#   make test-fusesoc          (a step of make test; 15-40 s once the venv exists)
#       parses lfc.core with FuseSoC, checks its file list and runs its lint target with the
#       Verilator on this machine (scripts/fusesoc_check.sh)
#   make fusesoc-sim [FUSESOC_ARGS="--seed=7 --cycles=5000"]
#       lfc.core's sim target: the lockstep co-simulation under FuseSoC (about 2 minutes)
#
# The version is written once, in the file VERSION (MAJOR.MINOR.PATCH, https://semver.org).
# This file hands it to cmodel/src/version.c (lfc_version()), to lfc.pc and to the soname.

# ---------------------------------------------------------------------------------------
# The version
# ---------------------------------------------------------------------------------------

LFC_VERSION := $(strip $(file < VERSION))
LFC_SEMVER_RE = (0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)
ifeq ($(shell printf '%s\n' '$(LFC_VERSION)' | grep -Ex '$(LFC_SEMVER_RE)'),)
$(error VERSION:1: version '$(LFC_VERSION)' is not allowed: write MAJOR.MINOR.PATCH, three \
  whole numbers without leading zeros, e.g. 0.2.0)
endif
LFC_VERSION_MAJOR := $(word 1,$(subst ., ,$(LFC_VERSION)))

# src/version.c refuses to compile without this. A pattern-specific variable, so that every
# build of the library that compiles with $(CPPFLAGS) gets it (plain, ASan, other parts'),
# whatever its object directory.
LFC_VERSION_CPPFLAGS = -DLFC_VERSION_STRING='"$(LFC_VERSION)"'
%/src/version.o: CPPFLAGS += $(LFC_VERSION_CPPFLAGS)
# A new VERSION rebuilds the object that holds it.
$(BUILD)/obj/src/version.o $(BUILD)/asan/obj/src/version.o: VERSION

# ---------------------------------------------------------------------------------------
# Where things go (GNU coding standards' names; DESTDIR stages a package)
# ---------------------------------------------------------------------------------------

PREFIX       ?= /usr/local
BINDIR       ?= $(PREFIX)/bin
LIBDIR       ?= $(PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
MANDIR       ?= $(PREFIX)/share/man
DOCDIR       ?= $(PREFIX)/share/doc/lfc
DATADIR      ?= $(PREFIX)/share/lfc
PYTHONDIR    ?= $(shell python3 scripts/python_dir.py $(abspath $(PREFIX)))

INSTALL         ?= install
INSTALL_PROGRAM  = $(INSTALL) -m 755
INSTALL_DATA     = $(INSTALL) -m 644
HELP2MAN        ?= help2man
PKG_CONFIG      ?= pkg-config

# ---------------------------------------------------------------------------------------
# What is installed, staged in $(BUILD)/dist
# ---------------------------------------------------------------------------------------

DIST          = $(BUILD)/dist
LFC_SONAME    = liblfc.so.$(LFC_VERSION_MAJOR)
LFC_SO_REAL   = liblfc.so.$(LFC_VERSION)
LFC_HEADERS   = $(wildcard cmodel/include/lfc/*.h)
LFC_DOCS      = README.md CHANGELOG.md $(wildcard docs/*.md docs/*.svg docs/*.png)
LFC_SCENARIOS = $(wildcard sim/scenarios/*.ini)
LFC_PYTHON    = $(wildcard python/lfc/*.py)

# Programs: installed name = built file (sim/sim.mk builds lfc-sim).
LFC_PROGRAMS  = lfc-demo lfc-trace lfc-check lfc-sim
LFC_PROG_lfc-demo  = $(BUILD)/lfc-demo
LFC_PROG_lfc-trace = $(BUILD)/tools/lfc_trace
LFC_PROG_lfc-check = $(BUILD)/tools/lfc_check
LFC_PROG_lfc-sim   = $(BUILD)/lfc-sim
LFC_PROG_FILES = $(foreach p,$(LFC_PROGRAMS),$(LFC_PROG_$(p)))
LFC_MAN_PAGES  = $(patsubst %,$(DIST)/man/%.1,$(LFC_PROGRAMS))

.PHONY: install uninstall man test-install fusesoc-venv test-fusesoc
TEST_STEPS += test-install test-fusesoc

# The shared library as installed: named after the full version, with the soname of the major
# one, so that programs linked against 0.x.y load any later 0.x (SONAME convention, ld(1)).
$(DIST)/lib/$(LFC_SO_REAL): $(LIB_OBJS)
	@test -n "$^" || { echo "no library sources in cmodel/src/*.c" >&2; exit 1; }
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(LFC_SONAME) -o $@ $^ $(LDLIBS)

# lfc.pc for this PREFIX. Directories under PREFIX are written relative to ${prefix}, so that
# pkg-config --define-prefix can relocate the tree. Remade on every install: PREFIX may change.
LFC_PC_REL = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
define lfc_pc_generate
	@mkdir -p $(DIST)
	sed -e 's|@PREFIX@|$(PREFIX)|g' \
	    -e 's|@LIBDIR@|$(call LFC_PC_REL,$(LIBDIR))|g' \
	    -e 's|@INCLUDEDIR@|$(call LFC_PC_REL,$(INCLUDEDIR))|g' \
	    -e 's|@VERSION@|$(LFC_VERSION)|g' scripts/lfc.pc.in > $(DIST)/lfc.pc
	@! grep -n '@[A-Z]*@' $(DIST)/lfc.pc || \
	  { echo "scripts/lfc.pc.in: a placeholder above has no value in scripts/install.mk" >&2; \
	    exit 1; }
endef

# Man pages from --help and --version (help2man), with the sections of man/<program>.h2m. The
# help texts are UTF-8 (SPEC's section signs): help2man's default locale C would turn them to ?.
$(DIST)/man/%.1: man/%.h2m | deps-packaging
	@mkdir -p $(@D)
	$(HELP2MAN) --locale=C.UTF-8 --no-info --no-discard-stderr --include=$< --output=$@ \
	  $(LFC_PROG_$*)
$(foreach p,$(LFC_PROGRAMS),$(eval $(DIST)/man/$(p).1: $(LFC_PROG_$(p))))

# A page per public function, from the comments of its header (scripts/man3.py). The stamp
# stands for the pages: their names come from the headers.
LFC_MAN3_DIR   = $(DIST)/man/man3
LFC_MAN3_STAMP = $(LFC_MAN3_DIR)/.stamp
$(LFC_MAN3_STAMP): scripts/man3.py $(LFC_HEADERS) VERSION
	@rm -rf $(LFC_MAN3_DIR)
	@python3 scripts/man3.py cmodel/include $(LFC_MAN3_DIR) $(LFC_VERSION)
	@touch $@

man: $(LFC_MAN_PAGES) $(LFC_MAN3_STAMP)

.PHONY: test-man
TEST_STEPS += test-man
test-man: $(LFC_MAN3_STAMP) $(BUILD)/liblfc.so
	@scripts/test_man3.sh $(BUILD)/liblfc.so $(LFC_MAN3_DIR)

# ---------------------------------------------------------------------------------------
# install, uninstall
# ---------------------------------------------------------------------------------------

LFC_INSTALL_INPUTS = $(BUILD)/liblfc.a $(DIST)/lib/$(LFC_SO_REAL) $(LFC_PROG_FILES) \
                     $(LFC_MAN_PAGES) man/lfc.3 scripts/lfc.pc.in $(LFC_MAN3_STAMP)

# PYTHONDIR comes from python3: without one it is empty, and install and uninstall stop before
# writing or removing anything under "$(DESTDIR)/lfc".
lfc_pythondir_check = @test -n "$(PYTHONDIR)" || { echo "install: PYTHONDIR is empty (is python3 \
  installed?): give PYTHONDIR=/path/to/site-packages" >&2; exit 2; }

install: $(LFC_INSTALL_INPUTS)
	$(lfc_pythondir_check)
	$(lfc_pc_generate)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/lfc \
	  $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
	  $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DATADIR)/scenarios $(DESTDIR)$(PYTHONDIR)/lfc
	$(INSTALL_DATA) $(BUILD)/liblfc.a $(DESTDIR)$(LIBDIR)/liblfc.a
	$(INSTALL_PROGRAM) $(DIST)/lib/$(LFC_SO_REAL) $(DESTDIR)$(LIBDIR)/$(LFC_SO_REAL)
	ln -sf $(LFC_SO_REAL) $(DESTDIR)$(LIBDIR)/$(LFC_SONAME)
	ln -sf $(LFC_SONAME) $(DESTDIR)$(LIBDIR)/liblfc.so
	$(INSTALL_DATA) $(LFC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/lfc/
	$(foreach p,$(LFC_PROGRAMS),\
	  $(INSTALL_PROGRAM) $(LFC_PROG_$(p)) $(DESTDIR)$(BINDIR)/$(p) &&) true
	$(INSTALL_DATA) $(DIST)/lfc.pc $(DESTDIR)$(PKGCONFIGDIR)/lfc.pc
	$(INSTALL_DATA) $(LFC_MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL_DATA) man/lfc.3 $(DESTDIR)$(MANDIR)/man3/lfc.3
	$(INSTALL_DATA) $(LFC_MAN3_DIR)/lfc_*.3 $(DESTDIR)$(MANDIR)/man3/
	$(INSTALL_DATA) $(LFC_DOCS) $(DESTDIR)$(DOCDIR)/
	$(INSTALL_DATA) $(LFC_SCENARIOS) $(DESTDIR)$(DATADIR)/scenarios/
	$(INSTALL_DATA) $(LFC_PYTHON) $(DESTDIR)$(PYTHONDIR)/lfc/
	ln -sf $(LIBDIR)/$(LFC_SONAME) $(DESTDIR)$(PYTHONDIR)/lfc/liblfc.so
	@echo "install: lfc $(LFC_VERSION) in $(DESTDIR)$(PREFIX); the Python package in $(PYTHONDIR)"

# Every program that any version installs (lfc-sim too), whether or not it exists here.
uninstall:
	$(lfc_pythondir_check)
	rm -f $(DESTDIR)$(LIBDIR)/liblfc.a $(DESTDIR)$(LIBDIR)/liblfc.so \
	  $(DESTDIR)$(LIBDIR)/$(LFC_SONAME) $(DESTDIR)$(LIBDIR)/$(LFC_SO_REAL) \
	  $(DESTDIR)$(PKGCONFIGDIR)/lfc.pc $(DESTDIR)$(MANDIR)/man3/lfc.3 \
	  $(DESTDIR)$(MANDIR)/man3/lfc_*.3 \
	  $(foreach p,lfc-demo lfc-trace lfc-check lfc-sim,\
	    $(DESTDIR)$(BINDIR)/$(p) $(DESTDIR)$(MANDIR)/man1/$(p).1)
	rm -rf $(DESTDIR)$(INCLUDEDIR)/lfc $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DATADIR) \
	  $(DESTDIR)$(PYTHONDIR)/lfc
	@echo "uninstall: lfc $(LFC_VERSION) from $(DESTDIR)$(PREFIX)"

# ---------------------------------------------------------------------------------------
# test-install
# ---------------------------------------------------------------------------------------

# The CHANGELOG has a section for VERSION. Two installs: one under a PREFIX to build against,
# one staged with DESTDIR and then uninstalled, which must leave no file behind.
# scripts/install_check.sh checks both trees, and shows that it fails on copies with a part
# missing or damaged.
LFC_TI = $(abspath $(BUILD))/test-install
test-install: deps-minimal deps-packaging $(LFC_INSTALL_INPUTS)
	@echo "== install: PREFIX, DESTDIR, pkg-config (shared and static), uninstall"
	@grep -q '^## \[$(LFC_VERSION)\] - ' CHANGELOG.md || \
	  { echo "install: FAIL CHANGELOG.md has no section '## [$(LFC_VERSION)] - date'" \
	         "for VERSION $(LFC_VERSION)" >&2; exit 1; }
	@rm -rf $(LFC_TI)
	@$(MAKE) --no-print-directory -s install PREFIX=$(LFC_TI)/prefix DESTDIR= > /dev/null
	@$(MAKE) --no-print-directory -s install PREFIX=/opt/lfc DESTDIR=$(LFC_TI)/stage > /dev/null
	@CC="$(CC)" PKG_CONFIG="$(PKG_CONFIG)" scripts/install_check.sh \
	  $(LFC_TI) $(LFC_VERSION) "$(LFC_PROGRAMS)"
	@$(MAKE) --no-print-directory -s uninstall PREFIX=/opt/lfc DESTDIR=$(LFC_TI)/stage > /dev/null
	@left="$$(find $(LFC_TI)/stage ! -type d)"; test -z "$$left" || \
	  { echo "install: FAIL uninstall left files behind:" >&2; echo "$$left" >&2; exit 1; }
	@echo "install: PASS lfc $(LFC_VERSION): install, pkg-config shared and static, uninstall"

# ---------------------------------------------------------------------------------------
# FuseSoC
# ---------------------------------------------------------------------------------------

# FuseSoC from PyPI, pinned: CAPI2 and the flow/tool options of lfc.core as this version
# reads them.
FUSESOC_VERSION ?= 2.4.7
FUSESOC_VENV     = $(BUILD)/venv-fusesoc
FUSESOC          = $(FUSESOC_VENV)/bin/fusesoc
# Made last, once fusesoc==FUSESOC_VERSION is installed: a new pin makes a new venv.
FUSESOC_STAMP    = $(FUSESOC_VENV)/.fusesoc-$(FUSESOC_VERSION)
PYTHON3         ?= python3

fusesoc-venv: $(FUSESOC_STAMP)

$(FUSESOC_STAMP): | deps-packaging
	@rm -rf $(FUSESOC_VENV)
	$(PYTHON3) -m venv $(FUSESOC_VENV)
	$(FUSESOC_VENV)/bin/pip install --quiet fusesoc==$(FUSESOC_VERSION)
	@test -x $(FUSESOC)
	@touch $@

# lfc.core's sim target: the co-simulation of tb/ under FuseSoC (Verilator build about 2
# minutes). FUSESOC_ARGS for its parameters, e.g. FUSESOC_ARGS="--seed=7 --cycles=5000".
FUSESOC_ARGS ?=
.PHONY: fusesoc-sim
fusesoc-sim: $(FUSESOC_STAMP)
	@mkdir -p $(BUILD)
	@touch $(BUILD)/FUSESOC_IGNORE
	$(FUSESOC) --cores-root . run --no-export --build-root $(BUILD)/fusesoc-sim --target=sim \
	  lfc:lfc:switch $(FUSESOC_ARGS)

# The C side of the co-simulation for lfc.core's sim target (scripts/fusesoc_cosim_prebuild.sh):
# the model and the test, each one archive, built with gcc.
.PHONY: fusesoc-cosim-c
fusesoc-cosim-c: $(BUILD)/liblfc.a $(BUILD)/tb/libtb_common.a

$(BUILD)/tb/libtb_common.a: $(TB_COMMON_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# deps-packaging installs pip and venv (python3-pip, python3-venv), so nothing is skipped.
test-fusesoc: deps-hdl deps-packaging
	@$(MAKE) --no-print-directory -s fusesoc-venv
	@echo "== fusesoc: lfc.core (FuseSoC $(FUSESOC_VERSION)): parse, lint target"
	@FUSESOC="$(abspath $(FUSESOC))" \
	  scripts/fusesoc_check.sh $(abspath $(BUILD))/fusesoc $(LFC_VERSION)
