// lfc_defs.vh - constants shared by the lfc RTL: link word kinds (docs/SPEC.md §2), drop causes
// (SPEC §10, the C model's lfc_drop_cause_t) and the descriptor layouts of the virtual buffer
// (SPEC §2.3, §7.4). Included inside modules; guarded so that one compilation unit may include
// it many times.
`ifndef LFC_DEFS_VH
`define LFC_DEFS_VH

// Link word kinds (SPEC §2).
`define LFC_KIND_IDLE 2'd0
`define LFC_KIND_DATA 2'd1
`define LFC_KIND_FCP  2'd2
`define LFC_KIND_PFC  2'd3

// Drop causes (SPEC §10; values of lfc_drop_cause_t).
`define LFC_DROP_HEADROOM  3'd0
`define LFC_DROP_SHARED    3'd1
`define LFC_DROP_WATCHDOG  3'd2
`define LFC_DROP_CREDIT    3'd3
`define LFC_DROP_VL15      3'd4
`define LFC_DROP_MALFORMED 3'd5

// ECN codepoints (RFC 3168 §5).
`define LFC_ECN_CE 2'd3

// Pipeline descriptor (SPEC §7.3): {pad[5:0], dst[3:0], cls[3:0], ecn[1:0], tag[31:0],
// nblk[7:0]}.
`define LFC_PD_W         56
`define LFC_PD_NBLK      7:0
`define LFC_PD_TAG       39:8
`define LFC_PD_ECN       41:40
`define LFC_PD_CLS       45:42
`define LFC_PD_DST       49:46
`define LFC_PD_PAD       55:50

// Egress queue descriptor (SPEC §7.4): {pad[5:0], ingress[3:0], ecn[1:0], tag[31:0], nblk[7:0]}.
// The class is the queue's and the destination is the egress port (identity route, SPEC §7.1).
`define LFC_QD_W         52
`define LFC_QD_NBLK      7:0
`define LFC_QD_TAG       39:8
`define LFC_QD_ECN       41:40
`define LFC_QD_ING       45:42
`define LFC_QD_PAD       51:46

`endif  // LFC_DEFS_VH
