// lfc_dpi_bind - puts an lfc_dpi_checker beside every lfc_switch, with that instance's
// parameters (evaluated in its scope) and all its ports (.*: same names). Nothing in rtl/ or in
// the testbench refers to the checker: remove this file and the checking is gone.
bind lfc_switch lfc_dpi_checker #(
  .Mode(Mode), .Ports(Ports), .Classes(Classes), .Latency(Latency), .CutThrough(CutThrough),
  .MtuBlocks(MtuBlocks), .Seed(Seed), .VlBlocks(VlBlocks), .Vl15Blocks(Vl15Blocks),
  .FcpPeriod(FcpPeriod), .FcpHoldoff(FcpHoldoff), .VlarbHighLen(VlarbHighLen),
  .VlarbHigh(VlarbHigh), .VlarbLowLen(VlarbLowLen), .VlarbLow(VlarbLow),
  .VlarbHighLimit(VlarbHighLimit),
  .LosslessMask(LosslessMask), .ReserveBlocks(ReserveBlocks), .SharedBlocks(SharedBlocks),
  .HeadroomBlocks(HeadroomBlocks), .DynamicTh(DynamicTh), .XoffTh(XoffTh),
  .AlphaLog2(AlphaLog2), .XonOffset(XonOffset), .PauseQuanta(PauseQuanta),
  .RefreshCycles(RefreshCycles), .StrictMask(StrictMask), .DrrQuantum(DrrQuantum),
  .WdEnable(WdEnable), .WdDetect(WdDetect), .WdRestore(WdRestore), .WdAction(WdAction),
  .EcnMask(EcnMask), .Kmin(Kmin), .Kmax(Kmax), .Pmax(Pmax), .SpeedDiv(SpeedDiv),
  .WireTime(WireTime)
) u_lfc_dpi_checker (.*);
