// Testbench of hlsinstr_watch_sites (2 sites; site s has offset s): an out-of-bounds access, a
// watched element whose value breaks the invariant (its record, then the value record), a hit
// with its value, an access outside the watched range (no record), a reset in the middle.
// Prints PASS or FAIL lines.
`resetall
`timescale 1ns / 1ps
`default_nettype none

module hlsinstr_watch_sites_tb;
    localparam integer IB = 32, VB = 32, IDB = 2;
    reg clk = 1'b0, rst = 1'b1;
    reg [1:0] access = 2'b00, post = 2'b00;
    reg [2*IB-1:0] idx = 0;
    reg [2*VB-1:0] val = 0;
    wire rec_valid;
    wire [IDB+VB-1:0] rec_data;
    integer fails = 0;

    hlsinstr_watch_sites #(.SITES(2), .ID_BITS(IDB), .N(64), .A(16), .B(32), .VMIN(0), .VMAX(1000)) dut (
        .clk(clk), .rst(rst), .access(access), .post(post), .idx(idx), .val(val),
        .rec_valid_reg(rec_valid), .rec_data_reg(rec_data));

    always #5 clk = ~clk;

    task step;
        begin
            @(posedge clk);
            #1;
            access = 2'b00;
            post = 2'b00;
        end
    endtask

    // The record the last step posted: id, element, kind (or, for a value record, the value).
    task expect_record(input [IDB-1:0] id, input [VB-1:0] word);
        begin
            if (!rec_valid || rec_data[IDB-1:0] !== id || rec_data[IDB+VB-1:IDB] !== word) begin
                $display("FAIL: record valid %b id %0d word %h, expected id %0d word %h", rec_valid,
                         rec_data[IDB-1:0], rec_data[IDB+VB-1:IDB], id, word);
                fails = fails + 1;
            end
        end
    endtask

    task expect_none;
        begin
            if (rec_valid) begin
                $display("FAIL: unexpected record id %0d word %h", rec_data[IDB-1:0], rec_data[IDB+VB-1:IDB]);
                fails = fails + 1;
            end
        end
    endtask

    initial begin
        step;
        step;
        rst = 1'b0;
        // Site 1 (offset 1) at subscript 63: element 64, out of bounds.
        access = 2'b10;
        idx[IB +: IB] = 63;
        step;
        expect_record(2, {30'd64, 2'd2});
        // Site 0 at subscript 20: watched; its statement leaves -5 there.
        access = 2'b01;
        idx[0 +: IB] = 20;
        step;
        post = 2'b01;
        val[0 +: VB] = -5;
        step;
        expect_record(1, {30'd20, 2'd3});
        step;
        expect_record(3, -32'sd5);
        // Site 1 at subscript 16: element 17, a hit with value 7.
        access = 2'b10;
        idx[IB +: IB] = 16;
        step;
        post = 2'b10;
        val[VB +: VB] = 7;
        step;
        expect_record(2, {30'd17, 2'd1});
        step;
        expect_record(3, 32'd7);
        // Site 0 at subscript 40: in bounds, not watched: nothing.
        access = 2'b01;
        idx[0 +: IB] = 40;
        step;
        post = 2'b01;
        step;
        expect_none;
        // A reset between an access and its POST forgets the kept element.
        access = 2'b01;
        idx[0 +: IB] = 18;
        step;
        rst = 1'b1;
        step;
        rst = 1'b0;
        post = 2'b01;
        step;
        expect_none;
        if (fails == 0) $display("PASS");
        $finish;
    end
endmodule

`resetall
