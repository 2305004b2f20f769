#!/usr/bin/env python3
"""Writes a risk book and a market history as CSV files, for examples and
benchmarks of risk jobs on files (model.portfolio: {file}, model.factors.history):

  BOOK.csv     one position a row: id, type, underlying, quantity, option, strike,
               maturity, desk, book; stocks, forwards and European options on the
               assets, long and short, strikes within 20% of the spot.
  HISTORY.csv  date, then one price column per asset: DAYS trading days (weekdays
               from 2019-01-02) of correlated GARCH(1,1) log returns with Student-t
               shocks, so that volatility clusters and tails are fat as in markets.
               The prices are synthetic; a real history has the same layout.

Deterministic for a given seed.

  scripts/var_book.py ASSETS POSITIONS DAYS BOOK.csv HISTORY.csv [--seed N]
"""
import argparse
import datetime
import math
import random

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("assets", type=int)
parser.add_argument("positions", type=int)
parser.add_argument("days", type=int)
parser.add_argument("book")
parser.add_argument("history")
parser.add_argument("--seed", type=int, default=7)
args = parser.parse_args()
rng = random.Random(args.seed)

names = [f"A{i:03d}" for i in range(args.assets)]
vol = [rng.uniform(0.15, 0.45) for _ in names]  # long-run annual volatilities

# One market factor loads every asset (correlation about 0.35), GARCH(1,1) per asset.
alpha, beta, dof = 0.08, 0.90, 5
prices = [[rng.uniform(20, 200) for _ in names]]
var = [v * v / 252 for v in vol]
day = datetime.date(2019, 1, 2)
dates = [day]
for _ in range(args.days - 1):
    day += datetime.timedelta(days=3 if day.weekday() == 4 else 1)
    dates.append(day)
    t_scale = math.sqrt((dof - 2) / rng.gammavariate(dof / 2, 2))  # unit-variance Student-t
    market = rng.gauss(0, 1)
    row = []
    for i, p in enumerate(prices[-1]):
        z = t_scale * (0.6 * market + 0.8 * rng.gauss(0, 1))
        r = math.sqrt(var[i]) * z
        row.append(p * math.exp(r - 0.5 * var[i]))
        long_run = vol[i] * vol[i] / 252
        var[i] = (1 - alpha - beta) * long_run + alpha * r * r + beta * var[i]
    prices.append(row)

with open(args.history, "w") as f:
    f.write("date," + ",".join(names) + "\n")
    for d, row in zip(dates, prices):
        f.write(d.isoformat() + "," + ",".join(f"{p:.4f}" for p in row) + "\n")

desks = ["equity", "derivatives", "delta-one"]
spot = prices[-1]
with open(args.book, "w") as f:
    f.write("id,type,underlying,quantity,option,strike,maturity,desk,book\n")
    for k in range(args.positions):
        i = rng.randrange(args.assets)
        kind = rng.choices(["stock", "forward", "option"], [0.3, 0.1, 0.6])[0]
        qty = rng.choice([-1, 1]) * rng.randint(1, 50) * 100
        option = strike = maturity = ""
        if kind != "stock":
            strike = f"{spot[i] * rng.uniform(0.8, 1.2):.2f}"
            maturity = f"{rng.uniform(0.1, 2.0):.3f}"
        if kind == "option":
            option = rng.choice(["call", "put"])
        desk = "equity" if kind == "stock" else "delta-one" if kind == "forward" else "derivatives"
        f.write(f"P{k:06d},{kind},{names[i]},{qty},{option},{strike},{maturity},{desk},book-{k % 7}\n")
