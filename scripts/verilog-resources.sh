#!/usr/bin/env bash
# Resource figures of the Verilog parts, from yosys's Xilinx synthesis (out of context: no I/O or
# clock buffers, as the module sits inside an HLS kernel). Prints LUT / FF / CARRY counts per
# module. These are yosys's counts, not Vivado's: Vivado may pack differently. docs/verilog.md
# and rtl_resource_usage in verilog/*.json quote this script's output.
#
#   scripts/verilog-resources.sh            # UltraScale+ (xcup), the Alveo/Vitis family
#   FAMILY=xc7 scripts/verilog-resources.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
family="${FAMILY:-xcup}"
command -v yosys >/dev/null || { echo "missing yosys: install it (apt-get install yosys) and run again" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for module in hlsinstr_counter; do
  yosys -q -p "read_verilog $root/verilog/$module.v; synth_xilinx -top $module -family $family -noiopad -noclkbuf; tee -q -o $tmp/stat.txt stat" >"$tmp/log.txt" 2>&1 \
    || { cat "$tmp/log.txt" >&2; exit 1; }
  # LUT: LUT1..LUT6 and INV (an inverter is a LUT1 on the device); FF: FDRE/FDSE/FDCE/FDPE;
  # CARRY: CARRY4/CARRY8 (each covers 4 or 8 bits of a carry chain).
  awk -v m="$module" -v fam="$family" -v ver="$(yosys -V | awk '{print $2}')" '
    $1 ~ /^(LUT[1-6]|INV)$/ { lut += $2 }
    $1 ~ /^FD[RSCP]E$/      { ff += $2 }
    $1 ~ /^CARRY[48]$/      { carry += $2; ctype = $1 }
    END {
      printf "%s (yosys %s, synth_xilinx -family %s, out of context)\n", m, ver, fam
      printf "LUT   %d\nFF    %d\nCARRY %d%s\n", lut, ff, carry, (ctype ? " (" ctype ")" : "")
    }' "$tmp/stat.txt"
done
