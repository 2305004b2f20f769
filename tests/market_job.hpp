// A GBM option job on market data, for the market tests: a discount and a dividend
// yield curve, a proportional dividend and a volatility term structure (or `vol`).
#pragma once
#include <string>

inline std::string market_job(const std::string& instrument, const std::string& extra = "",
                              const std::string& vol = "{ times: [0.5, 1], values: [0.3, 0.2] }",
                              const std::string& run = "{ name: t, paths: 400_000, seed: 7, chunk_paths: 16384 }") {
  return "run: " + run + "\n"
         "model:\n"
         "  type: option\n"
         "  market:\n"
         "    discount: { times: [0.5, 1, 2], zero_rates: [0.02, 0.03, 0.045] }\n"
         "    dividend_yield: { times: [1, 3], zero_rates: [0.01, 0.015] }\n"
         "    dividends: [{ time: 0.75, proportional: 0.02 }]\n"
         "  process: { type: gbm, spot: 100, volatility: " + vol + " }\n"
         "  instrument: { " + instrument + " }\n" + extra;
}
