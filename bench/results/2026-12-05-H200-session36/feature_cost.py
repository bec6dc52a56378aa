#!/usr/bin/env python3
"""The predictor's features against one conversion: bench_calibrate -feature_times CSVs of session 36
(host_features_s, gpu_features_s: MatPELLRPredictTimeFeatures() medians; conv_*: the conversions measured by
session 32's calibration). Usage: python3 feature_cost.py job2/feature-times.csv [more.csv ...]"""
import csv, sys, statistics

for path in sys.argv[1:]:
    rows = list(csv.DictReader(open(path)))
    print(f"\n{path}\n")
    print("| matrix | rows | nnz | host features (ms) | GPU features (ms) | PELLR conversion (ms) | GPU / conversion | host / conversion |")
    print("|---|---|---|---|---|---|---|---|")
    rg, rh = [], []
    for r in rows:
        h, g, c = float(r["host_features_s"]), float(r["gpu_features_s"]), float(r["conv_pellr_s"])
        if c != c or c <= 0:
            c = float(r["conv_csr_s"])
        rg.append(g / c); rh.append(h / c)
        print(f"| {r['matrix']} | {r['rows']} | {r['nnz']} | {h*1e3:.3f} | {g*1e3:.3f} | {c*1e3:.2f} | {100*g/c:.2f}% | {100*h/c:.2f}% |")
    print(f"\nmedian GPU / conversion {100*statistics.median(rg):.2f}% (max {100*max(rg):.2f}%), host {100*statistics.median(rh):.2f}% (max {100*max(rh):.2f}%);"
          f" GPU within 1%: {sum(x <= 0.01 for x in rg)} of {len(rg)}")
