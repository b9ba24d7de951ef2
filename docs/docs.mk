# docs/docs.mk - the figures of docs/mechanisms/. Included by the top Makefile.
#
#   make doc-figures        regenerate docs/mechanisms/figures/*.png (about 10 s once built)
#   make test-doc-figures   regenerate only their data and check the facts the pages state
#                           (scripts/doc-figures.sh --check); in TEST_STEPS, a few seconds
#
# The data come from the programs in docs/mechanisms/src/*.c (one per page, liblfc's public
# API only) and from lfc-sim; scripts/doc-figures.sh runs them, checks, and plots with gnuplot.

.PHONY: doc-figures test-doc-figures doc-figures-progs

DOC_FIG_SRCS = $(wildcard docs/mechanisms/src/*.c)
DOC_FIG_BINS = $(patsubst docs/mechanisms/src/%.c,$(BUILD)/doc-figures/bin/%,$(DOC_FIG_SRCS))

# Built like any user program of the library: the public headers and liblfc.a.
$(BUILD)/doc-figures/bin/%: docs/mechanisms/src/%.c docs/mechanisms/src/fig.h $(BUILD)/liblfc.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/liblfc.a $(LDLIBS)

doc-figures-progs: deps-sim $(DOC_FIG_BINS) $(BUILD)/lfc-sim

doc-figures: doc-figures-progs
	@scripts/doc-figures.sh --built $(BUILD)

TEST_STEPS += test-doc-figures
test-doc-figures: doc-figures-progs
	@echo "== docs/mechanisms: figure data regenerated, the pages' facts checked"
	@scripts/doc-figures.sh --built --check $(BUILD)
