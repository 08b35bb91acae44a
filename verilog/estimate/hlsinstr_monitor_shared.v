// hlsinstr_monitor_shared: the in-FPGA monitor of `--target vitis` for N probes, the RTL
// equivalent of the generated monitor's loop body (rewriter/templates/vitis/monitor.h.hbs with
// hls-lib/include/hlsinstr/hw/monitor.h), written by hand to estimate what it costs: it is not
// what Vitis generates (no Vitis here). Per cycle:
//
//   fronts   each probe's hlsinstr_monitor_front holds at most one stamped event;
//   arbiter  grants ONE holder: the lowest one with another event waiting in its FIFO (urgent),
//            else the lowest one holding an event;
//   stage 1  the granted event and its probe index are registered; the probe's state is read
//            from the state RAM (synchronous, one entry of SW bits per probe);
//   stage 2  hlsinstr_monitor_observe folds the event into the state, which is written back and
//            kept in a forwarding register: when the same probe comes in the next cycle, its
//            RAM read (issued while the write was still in flight) is replaced by that register.
//
// After reset the RAM is cleared, one entry per cycle (`clearing`), as the C++ reset loop does.
// `dump` hands the RAM's read port to `rd_addr`: `rd_state` is entry rd_addr one cycle later.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_monitor_shared #(
    // Probes; 1 to 512 (one 512-deep BRAM column holds every state).
    parameter integer N = 4,
    // 1: events carry their own timestamps; 0: stamped with the monitor's cycle when read.
    parameter integer EVENT_TIME = 0,
    // 1: keep each probe's longest invocation (`--monitor-longest`).
    parameter integer LONGEST = 0,
    // Derived (do not set): bits of a probe index, of a state.
    parameter integer IW = (N > 1) ? $clog2(N) : 1,
    parameter integer SW = 450 + 64 * LONGEST
) (
    input  wire          clk,
    input  wire          rst,          // synchronous, active high: the monitor's reset()
    input  wire [N-1:0]  fifo_valid,   // probe i's FIFO is not empty
    input  wire [97*N-1:0] fifo_data,  // probe i's head in [97*i +: 97]: {is_end, trips, time}
    output wire [N-1:0]  fifo_read,    // pop probe i's FIFO
    output reg  [63:0]   cycle_reg,    // the monitor's cycle counter
    output wire          idle,         // nothing held and nothing in flight
    output reg           late_reg,     // STATUS_LATE: an event waited in its FIFO
    output reg           clearing_reg, // the RAM is being cleared after reset
    input  wire          dump,         // read states for the dump instead of accumulating
    input  wire [IW-1:0] rd_addr,
    output wire [SW-1:0] rd_state
);

    initial begin
        if (N < 1 || N > 512) $error("N must be 1 to 512");
        if (IW != ((N > 1) ? $clog2(N) : 1) || SW != 450 + 64 * LONGEST) $error("IW and SW are derived");
    end

    localparam [SW-1:0] RESET_STATE = {{(SW - 194){1'b0}}, {64{1'b1}}, 130'd0}; // first_start all ones

    // ---- fronts and arbiter
    wire [N-1:0]    held_valid, urgent, late;
    wire [97*N-1:0] held;
    reg  [N-1:0]    grant;        // one-hot
    reg  [IW-1:0]   grant_index;
    wire            enable = !clearing_reg && !dump;
    wire            any_grant = |grant;

    genvar g;
    generate
        for (g = 0; g < N; g = g + 1) begin : probe
            hlsinstr_monitor_front #(.EVENT_TIME(EVENT_TIME)) u_front (
                .clk(clk), .rst(rst),
                .fifo_valid(fifo_valid[g]), .fifo_data(fifo_data[97*g +: 97]), .fifo_read(fifo_read[g]),
                .granted(grant[g]), .cycle(cycle_reg),
                .held_valid_reg(held_valid[g]), .held_reg(held[97*g +: 97]),
                .urgent(urgent[g]), .late(late[g])
            );
        end
    endgenerate

    // Lowest set bit of the candidates (x & -x rides the carry chain), and its index.
    wire [N-1:0] candidates = enable ? ((|urgent) ? urgent : held_valid) : {N{1'b0}};
    integer i;
    always @(*) begin
        grant = candidates & (~candidates + {{(N-1){1'b0}}, 1'b1});
        grant_index = {IW{1'b0}};
        for (i = 0; i < N; i = i + 1) begin
            if (grant[i]) grant_index = grant_index | i[IW-1:0];
        end
    end
    wire [96:0] granted_event = held[97*grant_index +: 97];

    // ---- the state RAM (one entry per probe), read in stage 1, written in stage 2
    (* ram_style = "block" *) reg [SW-1:0] state_mem [0:N-1];
    reg  [SW-1:0] ram_q;
    reg           s1_valid;
    reg  [IW-1:0] s1_slot;
    reg  [96:0]   s1_event;
    reg  [SW-1:0] fwd_state;
    reg  [IW-1:0] fwd_slot;
    reg           fwd_valid;
    reg  [IW-1:0] clear_index;

    wire [IW-1:0] read_addr = dump ? rd_addr : grant_index;
    always @(posedge clk) ram_q <= state_mem[read_addr];
    assign rd_state = ram_q;

    wire [SW-1:0] current = (fwd_valid && fwd_slot == s1_slot) ? fwd_state : ram_q;
    wire [SW-1:0] next;
    hlsinstr_monitor_observe #(.LONGEST(LONGEST)) u_observe (
        .state(current), .valid(s1_valid), .is_end(s1_event[96]), .trips(s1_event[95:64]), .now(s1_event[63:0]),
        .next(next)
    );

    wire          write_en   = clearing_reg || s1_valid;
    wire [IW-1:0] write_addr = clearing_reg ? clear_index : s1_slot;
    wire [SW-1:0] write_data = clearing_reg ? RESET_STATE : next;
    always @(posedge clk) begin
        if (write_en) state_mem[write_addr] <= write_data;
    end

    always @(posedge clk) begin
        s1_event <= granted_event;
        s1_slot  <= grant_index;
    end

    always @(posedge clk) begin
        if (s1_valid) begin
            fwd_state <= next;
            fwd_slot  <= s1_slot;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            cycle_reg    <= 64'd0;
            late_reg     <= 1'b0;
            clearing_reg <= 1'b1;
            clear_index  <= {IW{1'b0}};
            s1_valid     <= 1'b0;
            fwd_valid    <= 1'b0;
        end else begin
            if (!clearing_reg) cycle_reg <= cycle_reg + 64'd1;
            if (enable && |late) late_reg <= 1'b1;
            if (clearing_reg) begin
                clear_index <= clear_index + {{(IW-1){1'b0}}, 1'b1};
                if (clear_index == N[IW-1:0] - {{(IW-1){1'b0}}, 1'b1} || N == 1) clearing_reg <= 1'b0;
            end
            s1_valid  <= any_grant;
            if (s1_valid) fwd_valid <= 1'b1;
        end
    end

    assign idle = !(|held_valid) && !s1_valid;

endmodule

`resetall
