# sim/plots.mk - the two plots of a design review, from sweeps (docs/sim.md "Plots for a design
# review"; scripts/plot-sweep):
#   make plot-latency-load   latency against offered load, PFC and IB, saturation marked
#   make plot-fct-slowdown   flow completion time slowdown by flow size, PFC and IB
#   make test-plot-sweep     both from short sweeps, the numbers behind them checked; in TEST_STEPS
# Each writes its CSV files beside the PNG under $(BUILD)/plots/. PLOT_JOBS points run at once.

.PHONY: plot-latency-load plot-fct-slowdown test-plot-sweep

PLOT_JOBS ?= 2
PLOT_DIR = $(BUILD)/plots

plot-latency-load: deps-sim deps-sweep $(BUILD)/lfc-sim
	@echo "== latency against offered load: $(PLOT_DIR)/latency-load/latency_load.png"
	@scripts/plot-sweep latency-load sim/tests/plot_latency_load.ini --out $(PLOT_DIR)/latency-load \
	  -j $(PLOT_JOBS) --lfc-sim $(BUILD)/lfc-sim
	@scripts/plot-sweep check-latency-load $(PLOT_DIR)/latency-load

plot-fct-slowdown: deps-sim deps-sweep $(BUILD)/lfc-sim
	@echo "== FCT slowdown by flow size: $(PLOT_DIR)/fct-slowdown/fct_slowdown.png"
	@scripts/plot-sweep fct-slowdown sim/tests/plot_fct.ini --out $(PLOT_DIR)/fct-slowdown \
	  -j $(PLOT_JOBS) --lfc-sim $(BUILD)/lfc-sim
	@scripts/plot-sweep check-fct-slowdown $(PLOT_DIR)/fct-slowdown

TEST_STEPS += test-plot-sweep
test-plot-sweep: deps-sim deps-sweep $(BUILD)/lfc-sim $(BUILD)/lfc-sim-check
	@echo "== scripts/plot-sweep: latency-load and FCT slowdown, the numbers behind the plots checked"
	@sim/tests/test_plot_sweep.sh $(BUILD)/plot-sweep-test $(BUILD)/lfc-sim
