# rtl/rtl.mk - lint and synthesis of the Verilog RTL (rtl/*.v). Included by the top Makefile.
#
#   make lint    Verilator 5 (--lint-only -Wall) and Icarus Verilog 11 (-g2005 -Wall) on the top,
#                lfc_switch, for each configuration in RTL_LINT_CONFIGS; any warning fails.
#   make synth   Yosys 0.23: synthesise the switch (generic gates, hierarchy kept) for each
#                configuration in RTL_SYNTH_CONFIGS, print `stat` per module and write
#                $(BUILD)/synth/<config>.json (cells and flip-flops per module, per module type
#                and in total; rtl/synth_stat.py) with the script, log and stat beside it.
#                Run time on one core: pfc_small about 1.5 minutes, pfc16_small about 17
#                minutes (1.8 million cells) and 3.4 GB of memory.
#
# make lint-<config> / make synth-<config> run one configuration.

RTL_DIR     = rtl
RTL_TOP     = lfc_switch
RTL_SRCS    = $(sort $(wildcard $(RTL_DIR)/*.v))
RTL_HDRS    = $(wildcard $(RTL_DIR)/*.vh)
VERILATOR  ?= verilator
IVERILOG   ?= iverilog
YOSYS      ?= yosys
PYTHON3    ?= python3

# Named configurations: NAME = list of Parameter=value. Values are Verilog constants.
#   default   the SPEC defaults (IB, 4 ports, 2 data VLs)
#   ib        IB, 4 ports, 2 data VLs, VL15, a high table, store-and-forward with latency 3,
#             line time (WireTime, SPEC §2.4)
#   pfc       PFC, 4 ports, 2 classes, watchdog (drop), ECN, dynamic threshold, cut-through
#   pfc16     PFC, 16 ports, 8 classes, mixed strict/DRR, watchdog (forward), ECN, speeds 1..4,
#             line time
#   pfc_small PFC, 4 ports, 2 classes, small buffer (synthesis)
#   pfc16_small PFC, 16 ports, 8 classes, tiny buffer (synthesis)
RTL_CFG_default   = Mode=0
RTL_CFG_ib        = Mode=0 Ports=4 Classes=2 Latency=3 Vl15Blocks=16 VlarbHighLen=1 \
                    VlarbHigh=768'h140 VlarbHighLimit=1 WireTime=1
RTL_CFG_pfc       = Mode=1 Ports=4 Classes=2 Latency=4 CutThrough=1 WdEnable=1 EcnMask=8'h03 \
                    DynamicTh=1 AlphaLog2=-1 LosslessMask=8'h01
RTL_CFG_pfc16     = Mode=1 Ports=16 Classes=8 Latency=2 StrictMask=8'hC0 WdEnable=1 WdAction=1 \
                    EcnMask=8'h0F SpeedDiv=80'h20c4120c4120c4120c41 SharedBlocks=256 \
                    HeadroomBlocks=8 MtuBlocks=4 DrrQuantum=96'h008008008008008008008008 \
                    WireTime=1
RTL_CFG_pfc_small = Mode=1 Ports=4 Classes=2 Latency=2 MtuBlocks=4 ReserveBlocks=1 \
                    SharedBlocks=16 HeadroomBlocks=4 DynamicTh=1 WdEnable=1 EcnMask=8'h03 \
                    XoffTh=8 XonOffset=2 PauseQuanta=64 RefreshCycles=32 WdDetect=256 \
                    WdRestore=256 Kmin=2 Kmax=8 DrrQuantum=96'h004004004004004004004004
RTL_CFG_pfc16_small = Mode=1 Ports=16 Classes=8 Latency=1 MtuBlocks=2 SharedBlocks=8 \
                    HeadroomBlocks=0 StrictMask=8'hC0 WdEnable=1 EcnMask=8'h0F XoffTh=4 \
                    XonOffset=1 PauseQuanta=64 RefreshCycles=32 WdDetect=256 WdRestore=256 \
                    Kmin=2 Kmax=6 DrrQuantum=96'h002002002002002002002002

RTL_LINT_CONFIGS  ?= default ib pfc pfc16
RTL_SYNTH_CONFIGS ?= pfc_small pfc16_small

# No waivers on the command line. In the sources: signals a configuration does not need are
# collected in wires named unused_* (Verilator's default --unused-regexp); lfc_switch.v turns
# WIDTH off around its elaboration checks only (they compare parameter fields of every width
# with integer limits); lfc_buffer.v marks its admission chain split_var (else Verilator sees a
# combinational loop through one vector, UNOPTFLAT).
VERILATOR_LINT_FLAGS = --lint-only -Wall -I$(RTL_DIR) --top-module $(RTL_TOP)
IVERILOG_LINT_FLAGS  = -g2005 -Wall -I$(RTL_DIR) -s $(RTL_TOP)

.PHONY: lint synth $(addprefix lint-,$(RTL_LINT_CONFIGS)) $(addprefix synth-,$(RTL_SYNTH_CONFIGS))

lint: $(addprefix lint-,$(RTL_LINT_CONFIGS))
	@echo "lint: clean ($(RTL_LINT_CONFIGS))"

# One configuration: both tools, any diagnostic fails (Icarus exits 0 on warnings, so its
# output is captured and must be empty).
$(addprefix lint-,$(RTL_LINT_CONFIGS)): lint-%: $(RTL_SRCS) $(RTL_HDRS) | deps-hdl
	@echo "== lint $* (verilator)"
	@$(VERILATOR) $(VERILATOR_LINT_FLAGS) $(foreach p,$(RTL_CFG_$*),"-G$(p)") $(RTL_SRCS)
	@echo "== lint $* (iverilog)"
	@mkdir -p $(BUILD)/lint
	@$(IVERILOG) $(IVERILOG_LINT_FLAGS) $(foreach p,$(RTL_CFG_$*),"-P$(RTL_TOP).$(p)") \
	  -o $(BUILD)/lint/$*.vvp $(RTL_SRCS) > $(BUILD)/lint/$*.iverilog.log 2>&1; \
	  rc=$$?; cat $(BUILD)/lint/$*.iverilog.log; \
	  test $$rc -eq 0 && test ! -s $(BUILD)/lint/$*.iverilog.log

synth: $(addprefix synth-,$(RTL_SYNTH_CONFIGS))

$(addprefix synth-,$(RTL_SYNTH_CONFIGS)): synth-%: $(RTL_SRCS) $(RTL_HDRS) $(RTL_DIR)/synth_stat.py \
    | deps-hdl
	@echo "== synth $* (yosys)"
	@mkdir -p $(BUILD)/synth
	@echo "read_verilog -defer -I$(RTL_DIR) $(RTL_SRCS)" > $(BUILD)/synth/$*.ys
	@echo "hierarchy -top $(RTL_TOP) $(foreach p,$(RTL_CFG_$*),-chparam $(subst =, ,$(p)))" \
	  >> $(BUILD)/synth/$*.ys
	@echo "synth -top $(RTL_TOP)" >> $(BUILD)/synth/$*.ys
	@echo "tee -q -o $(BUILD)/synth/$*.stat stat" >> $(BUILD)/synth/$*.ys
	@$(YOSYS) -q -l $(BUILD)/synth/$*.log -s $(BUILD)/synth/$*.ys
	@cat $(BUILD)/synth/$*.stat
	@$(PYTHON3) $(RTL_DIR)/synth_stat.py $* $(BUILD)/synth/$*.stat $(BUILD)/synth/$*.json
