// hlsinstr_monitor_slot: one probe's state kept in its own registers, with its own 64-bit
// arithmetic: the in-FPGA monitor's slot before the shared accumulator (167 LUT + 450 FF per
// probe by yosys). Kept as the reference model of hlsinstr_monitor_shared_tb.v, which feeds it
// every event at the time it is posted and compares its registers with the shared monitor's
// RAM, and as the figure the shared design is measured against (docs/in-fpga.md).
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_monitor_slot #(
    // 1: keep the longest invocation (`--monitor-longest`); 0: max_busy_reg stays 0.
    parameter integer LONGEST = 0
) (
    input  wire        clk,
    input  wire        rst,        // synchronous, active high: the monitor's reset()
    input  wire        valid,      // an event was read from the probe's FIFO this cycle
    input  wire        is_end,     // 0: begin, 1: end
    input  wire [31:0] trips,      // trip count carried by an end
    input  wire [63:0] now,        // the event's time (its timestamp, or the monitor cycle)
    output reg  [63:0] calls_reg,
    output reg  [63:0] busy_reg,
    output reg  [63:0] max_busy_reg,
    output reg  [63:0] first_start_reg,
    output reg  [63:0] last_end_reg,
    output reg  [63:0] trips_reg,
    output reg  [63:0] unmatched_reg,
    output reg  [63:0] open_start_reg,
    output reg         open_reg
);

    reg seen_reg; // a begin was seen: the first one's time is the first start

    initial begin
        if (LONGEST != 0 && LONGEST != 1) $error("LONGEST must be 0 or 1");
    end

    wire [63:0] duration = now - open_start_reg;

    always @(posedge clk) begin
        if (rst) begin
            calls_reg       <= 64'd0;
            busy_reg        <= 64'd0;
            max_busy_reg    <= 64'd0;
            first_start_reg <= {64{1'b1}};
            last_end_reg    <= 64'd0;
            trips_reg       <= 64'd0;
            unmatched_reg   <= 64'd0;
            open_start_reg  <= 64'd0;
            open_reg        <= 1'b0;
            seen_reg        <= 1'b0;
        end else if (valid && !is_end) begin
            if (open_reg) unmatched_reg <= unmatched_reg + 64'd1;
            open_reg       <= 1'b1;
            open_start_reg <= now;
            calls_reg      <= calls_reg + 64'd1;
            if (!seen_reg) first_start_reg <= now; // events arrive in time order
            seen_reg       <= 1'b1;
        end else if (valid) begin
            if (open_reg) begin
                busy_reg <= busy_reg + duration;
                if (LONGEST == 1 && duration > max_busy_reg) max_busy_reg <= duration;
            end else begin
                unmatched_reg <= unmatched_reg + 64'd1;
            end
            open_reg     <= 1'b0;
            last_end_reg <= now;
            trips_reg    <= trips_reg + {32'd0, trips};
        end
    end

endmodule

`resetall
