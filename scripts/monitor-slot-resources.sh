#!/usr/bin/env bash
# What one probe costs in the in-FPGA monitor, estimated: yosys's Xilinx synthesis of the RTL
# equivalent of one slot's datapath (verilog/estimate/hlsinstr_monitor_slot.v, hand-written: the
# same work per cycle as hlsinstr::hw::observe). Vitis's own result for hw/monitor.h needs
# Vitis, which is not here; this is the figure docs/in-fpga.md quotes against HLScope's 170 LUT + 1 BRAM.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
family="${FAMILY:-xcup}"
command -v yosys >/dev/null || { echo "missing yosys: install it (apt-get install yosys) and run again" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for longest in 0 1; do
  yosys -q -p "read_verilog $root/verilog/estimate/hlsinstr_monitor_slot.v; chparam -set LONGEST $longest hlsinstr_monitor_slot; synth_xilinx -top hlsinstr_monitor_slot -family $family -noiopad -noclkbuf; tee -q -o $tmp/stat.txt stat" >"$tmp/log.txt" 2>&1 \
    || { cat "$tmp/log.txt" >&2; exit 1; }
  awk -v fam="$family" -v ver="$(yosys -V | awk '{print $2}')" -v longest="$longest" '
    $1 ~ /^(LUT[1-6]|INV)$/ { lut += $2 }
    $1 ~ /^FD[RSCP]E$/      { ff += $2 }
    $1 ~ /^CARRY[48]$/      { carry += $2; ctype = $1 }
    $1 ~ /^RAMB/            { bram += $2 }
    END {
      printf "hlsinstr_monitor_slot, one probe, LONGEST=%s (yosys %s, synth_xilinx -family %s, out of context)\n", longest, ver, fam
      printf "LUT   %d\nFF    %d\nCARRY %d%s\nBRAM  %d\n", lut, ff, carry, (ctype ? " (" ctype ")" : ""), bram
    }' "$tmp/stat.txt"
done
