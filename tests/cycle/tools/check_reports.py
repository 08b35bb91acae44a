#!/usr/bin/env python3
"""Reads every case's csynth.xml back (not the model) and checks the rules hold in it:
pipelined loop = (TC-1)*II + depth - 1, _Pipeline_ module = its loop + 2, non-pipelined loop =
TC * iteration latency, at both ends of every range; and that expected.json's calls lie in the
report's top latency range."""

import glob
import json
import os
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rng(el):
    if el is None:
        return None
    r = el.find("range")
    if r is not None:
        return int(r.find("min").text), int(r.find("max").text)
    t = (el.text or "").strip()
    if "~" in t:
        a, b = t.split("~")
        return int(a), int(b)
    return int(t), int(t)


def check_loop(case, lp, errors):
    tc, lat = rng(lp.find("TripCount")), rng(lp.find("Latency"))
    ii = lp.find("PipelineII")
    for k in (0, 1):
        if ii is not None and lp.find("PipelineType").text == "yes":
            want = 0 if tc[k] == 0 else (tc[k] - 1) * int(ii.text) + int(lp.find("PipelineDepth").text) - 1
        else:
            want = tc[k] * rng(lp.find("IterationLatency"))[k]
        if lat[k] != want:
            errors.append(f"{case}: loop {lp.find('Name').text}: latency {lat[k]} != {want}")
    for c in lp:
        if c.find("Name") is not None:
            check_loop(case, c, errors)


def main():
    errors = []
    for path in sorted(glob.glob(os.path.join(ROOT, "*", "csynth.xml"))):
        case = os.path.basename(os.path.dirname(path))
        root = ET.parse(path).getroot()
        for m in root.find("ModuleInformation").findall("Module"):
            name = m.find("Name").text
            o = m.find("PerformanceEstimates/SummaryOfOverallLatency")
            lat = (int(o.find("Best-caseLatency").text), int(o.find("Worst-caseLatency").text))
            loops = [lp for lp in (m.find("PerformanceEstimates/SummaryOfLoopLatency") or [])]
            for lp in loops:
                check_loop(case, lp, errors)
            if "_Pipeline_" in name:
                ll = rng(loops[0].find("Latency"))
                if (ll[0] + 2, ll[1] + 2) != lat:
                    errors.append(f"{case}: {name}: module {lat} != loop {ll} + 2")
        top = root.find("PerformanceEstimates/SummaryOfOverallLatency")
        lo, hi = int(top.find("Best-caseLatency").text), int(top.find("Worst-caseLatency").text)
        exp = json.load(open(os.path.join(os.path.dirname(path), "expected.json")))
        # A call is the report's cycles less 2 a run of each `_Pipeline_<loop>` module (its RTL
        # ends with its loop: model.rtl_saving), so never above the worst case, and an even
        # number below an exact report.
        for v in exp["calls"]:
            if v > hi:
                errors.append(f"{case}: call {v} above the report's {lo} ~ {hi}")
        if lo == hi and any(v > lo or (lo - v) % 2 for v in exp["calls"]):
            errors.append(f"{case}: exact report {lo} but calls {exp['calls']}")
        print(f"{case}: checked")
    for e in errors:
        print("ERROR", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
