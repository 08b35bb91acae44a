// The host's readout of every queue over AXI4-Lite, as case arms of a testbench's `pc` state
// machine, shared by the rtl-probe testbenches of whole designs: INFO once ("I"), then per queue
// SEL, and per entry STATUS, HEAD_LO and HEAD_HI ("Q probe status lo hi"), one entry per read of
// HEAD_HI (the IP pops there). Starts at `pc == READOUT` and ends at READOUT + 6, which the
// includer's `default` arm finishes. Needs `probe_host.svh`, `waiting` (cleared by `p_done`)
// and the registers `probe`, `entry`, `depth`, `status`, `lo`. Included inside `ifdef PROBED`.
READOUT:     begin probe <= 0; p_go <= 1; p_we <= 0; p_addr <= 6'h04; waiting <= 1; pc <= READOUT + 1; end
READOUT + 1: begin if (probe == 0) $display("I %0d", p_rdata); p_go <= 1; p_we <= 1; p_addr <= 6'h18; p_wdata <= {16'd0, probe}; entry <= 0; waiting <= 1; pc <= READOUT + 2; end
READOUT + 2: begin p_go <= 1; p_we <= 0; p_addr <= 6'h1C; waiting <= 1; pc <= READOUT + 3; end
READOUT + 3: begin status <= p_rdata; depth <= {8'd0, p_rdata[15:8]}; p_go <= 1; p_we <= 0; p_addr <= 6'h20; waiting <= 1; pc <= READOUT + 4; end
READOUT + 4: begin lo <= p_rdata; p_go <= 1; p_we <= 0; p_addr <= 6'h24; waiting <= 1; pc <= READOUT + 5; end
READOUT + 5: begin
    $display("Q %0d %0d %0d %0d", probe, status, lo, p_rdata);
    entry <= entry + 1;
    if (entry + 1 < depth) pc <= READOUT + 2;
    else if (probe + 1 < `NPROBES) begin probe <= probe + 1; pc <= READOUT + 1; end
    else pc <= READOUT + 6;
end
