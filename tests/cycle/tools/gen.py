#!/usr/bin/env python3
"""Regenerates every case's csynth.xml (+ csynth.rpt, cosim files) and expected.json from cases.py.

    python3 tests/cycle/tools/gen.py          # rewrite the files
    python3 tests/cycle/tools/gen.py --check  # exit 1 if a file differs from what it would write
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from cases import CASES, ROOT, kernel_lines  # noqa: E402
from model import merge, rtl_saving, varying_modules  # noqa: E402
from writer import Design, write_rpt, write_xml  # noqa: E402

HEADER = ("Written by hand for hlsinstr's tests/cycle (not produced by Vitis), in the layout of a Vitis HLS "
          "{version} csynth.xml. The numbers follow the timing rules of tests/cycle/README.md; they come from "
          "tests/cycle/tools/cases.py (the same model that gives expected.json).")


def report_latency(m):
    return m.latency.lo if m.latency.exact else f"{m.latency.lo} ~ {m.latency.hi}"


def cosim_rpt(top, lats):
    avg = round(sum(lats) / len(lats))
    total = sum(lats)
    w = 15
    lines = [
        "Report time       : (hand-written for hlsinstr tests/cycle; not produced by Vitis).",
        "Solution          : solution1.",
        "Simulation tool   : xsim.",
        "",
        "+----------+----------+-----------------------------------------------+-----------------------------------------------+----------------------+",
        "|          |          |             Latency(Clock Cycles)             |              Interval(Clock Cycles)           | Total Execution Time |",
        "+   RTL    +  Status  +-----------------------------------------------+-----------------------------------------------+    (Clock Cycles)    +",
        "|          |          |      min      |      avg      |      max      |      min      |      avg      |      max      |                      |",
        "+----------+----------+-----------------------------------------------+-----------------------------------------------+----------------------+",
        "|      VHDL|        NA|" + "|".join(["NA".rjust(w)] * 6) + "|" + "NA".rjust(22) + "|",
        "|   Verilog|      Pass|" + "|".join(str(v).rjust(w) for v in (min(lats), avg, max(lats))) + "|"
        + "|".join(["NA".rjust(w)] * 3) + "|" + str(total).rjust(22) + "|",
        "+----------+----------+-----------------------------------------------+-----------------------------------------------+----------------------+",
        "",
    ]
    return "\n".join(lines)


def transaction_rpt(lats):
    lines = ["                             latency        interval"]
    for i, v in enumerate(lats):
        interval = v + 1 if i + 1 < len(lats) else 0
        lines.append(f"transaction {i:>7}:{v:>16}{interval:>16}")
    return "\n".join(lines) + "\n"


def outputs():
    files = {}
    for c in CASES:
        d = Design(c["dir"], c["top"], c["version"], c["flow"], c["control"], c["clock"], c["args"],
                   maxi=c.get("maxi", ()), kernel_lines=kernel_lines(c["dir"]),
                   header=HEADER.format(version=c["version"]))
        lo, hi = c["model"](c["pmin"]), c["model"](c["pmax"])
        ranged = merge(lo, hi)
        calls = []
        for p in c["calls"]:
            full = dict(c["pmin"])
            full.update({k: v for k, v in p.items() if k in c["pmin"]})
            for k in c["pmin"]:
                assert c["pmin"][k] <= full[k] <= c["pmax"][k], (c["dir"], k)
            calls.append(c["model"](full))
        if ranged.latency.exact:
            assert all(m.latency == ranged.latency.lo for m in calls), c["dir"]
        else:
            assert all(ranged.latency.lo <= m.latency <= ranged.latency.hi for m in calls), c["dir"]
        # The RTL's cycles: the report's, less what its `_Pipeline_` modules do not spend.
        varying = varying_modules(lo, hi)
        calls = [m.latency - rtl_saving(m, keep=bool(c.get("maxi")), varying=varying) for m in calls]
        base = os.path.join(ROOT, c["dir"])
        files[os.path.join(base, "csynth.xml")] = write_xml(d, ranged)
        if c.get("rpt"):
            files[os.path.join(base, "csynth.rpt")] = write_rpt(d, ranged)
        exp = {"top": c["top"], "rule": c["rule"], "calls": calls, "report_latency": report_latency(ranged),
               "why": c["why"]}
        if c.get("cosim"):
            exp["cosim"] = list(calls)
        exp["control"] = "ap_ctrl_hs" if c["control"] == "ap_ctrl_hs" else "s_axilite (ap_ctrl_chain)"
        exp["call_params"] = c["calls"]
        exp["report"] = ["csynth.xml"] + (["csynth.rpt"] if c.get("rpt") else [])
        if c.get("cosim_files"):
            lats = exp["cosim"]
            files[os.path.join(base, "cosim.rpt")] = cosim_rpt(c["top"], lats)
            files[os.path.join(base, "result.transaction.rpt")] = transaction_rpt(lats)
            exp["cosim_files"] = ["cosim.rpt", "result.transaction.rpt"]
        files[os.path.join(base, "expected.json")] = json.dumps(exp, indent=2) + "\n"
    return files


def main():
    check = "--check" in sys.argv[1:]
    bad = 0
    for path, text in sorted(outputs().items()):
        if check:
            try:
                same = open(path).read() == text
            except OSError:
                same = False
            if not same:
                print(f"differs: {os.path.relpath(path, ROOT)}")
                bad += 1
        else:
            with open(path, "w") as f:
                f.write(text)
            print(f"wrote {os.path.relpath(path, ROOT)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
