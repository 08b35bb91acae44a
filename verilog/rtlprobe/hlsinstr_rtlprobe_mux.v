// hlsinstr_rtlprobe_mux: the readout multiplexer of `hlsinstr rtl-probe`'s profiling IP: word
// `sel` of N words, as a tree of 4-to-1 stages (each bit of a stage is one LUT6).
//
// Why a tree written out: 4-to-1 stages cost N/4 + N/16 + ... ≈ N/3 LUTs per bit whatever N is
// (yosys, 84 bits: 470 LUT at N = 16, 1069 at N = 32), so each queue adds about the same; the
// IP's `heads[64*sel +: 64]` it replaces cost 66 LUT per queue added from N = 16 to 32 (60 with
// the tree, 64-bit timestamps). Inputs past N read as 0.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_rtlprobe_mux #(
    // Words; 1 or more.
    parameter integer N = 1,
    // Bits per word.
    parameter integer W = 1,
    // Bits of `sel`; at least 1.
    parameter integer SEL_WIDTH = 1
) (
    input  wire [W*N-1:0]       in,    // word i in [W*i +: W]
    input  wire [SEL_WIDTH-1:0] sel,   // past N-1: 0
    output wire [W-1:0]         out
);

    // L levels of 4-to-1 stages over M = 4^L leaves. The nodes form a heap: node 0 is the root,
    // the children of node k are 4k+1 .. 4k+4, the leaves are the last M nodes.
    localparam integer L = (N <= 1) ? 0 : ($clog2(N) + 1) / 2;
    localparam integer M = 4 ** L;
    localparam integer T = (4 * M - 1) / 3;
    localparam integer SW = (2 * L > SEL_WIDTH) ? 2 * L : SEL_WIDTH;

    initial begin
        if (N < 1 || W < 1 || SEL_WIDTH < 1) $error("N, W and SEL_WIDTH must be at least 1");
    end

    reg  [SW-1:0]  sel_pad;
    always @(*) begin
        sel_pad = {SW{1'b0}};
        sel_pad[SEL_WIDTH-1:0] = sel;
    end
    wire [W*T-1:0] tree /* verilator split_var */; // per level: no false loop

    genvar d, j;
    generate
        for (j = 0; j < M; j = j + 1) begin : leaf
            if (j < N) begin : used
                assign tree[W*(T-M+j) +: W] = in[W*j +: W];
            end else begin : pad
                assign tree[W*(T-M+j) +: W] = {W{1'b0}};
            end
        end
        for (d = 0; d < L; d = d + 1) begin : level
            for (j = 0; j < 4 ** d; j = j + 1) begin : node
                localparam integer K = (4 ** d - 1) / 3 + j;
                wire [1:0] s = sel_pad[2*(L-1-d) +: 2];
                assign tree[W*K +: W] = s[1] ? (s[0] ? tree[W*(4*K+4) +: W] : tree[W*(4*K+3) +: W])
                                             : (s[0] ? tree[W*(4*K+2) +: W] : tree[W*(4*K+1) +: W]);
            end
        end
    endgenerate

    assign out = tree[W-1:0];

    // N = 1: no stage reads `sel`.
    generate
        if (SW > 2 * L) begin : high
            wire unused_sel = &{1'b0, sel_pad[SW-1:2*L]};
        end
    endgenerate

endmodule

`resetall
