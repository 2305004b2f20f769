// Small portfolio-risk jobs for tests.
#pragma once
#include <string>

// A stock and a put on one asset (exact references exist), Student-t or normal.
inline std::string var_job(const std::string& extra_run = "", const std::string& distribution = "normal") {
  return "run: { name: risk, paths: 300_001, seed: 5, chunk_paths: 16384" + extra_run +
         " }\n"
         "model:\n"
         "  type: var\n"
         "  horizon_days: 10\n"
         "  confidence: [0.95, 0.99]\n"
         "  rate: 0.03\n"
         "  factors:\n"
         "    distribution: " + distribution + (distribution == "student_t" ? "\n    dof: 5\n" : "\n") +
         "    assets: [{ name: ACME, spot: 100, volatility: 0.3, drift: 0.05 }]\n"
         "  portfolio:\n"
         "    - { name: stock, type: stock, asset: ACME, quantity: 1000 }\n"
         "    - { name: put, type: option, option: put, asset: ACME, strike: 95, maturity: 0.25, quantity: 1000 }\n";
}

// Three correlated assets with stocks, a forward and options long and short.
inline std::string var_book_job(const std::string& extra_run = "") {
  return "run: { name: book, paths: 200_003, seed: 11, chunk_paths: 8192" + extra_run +
         " }\n"
         "model:\n"
         "  type: var\n"
         "  horizon_days: 5\n"
         "  confidence: [0.9, 0.99, 0.999]\n"
         "  rate: 0.02\n"
         "  factors:\n"
         "    distribution: normal\n"
         "    assets:\n"
         "      - { name: A, spot: 100, volatility: 0.3, drift: 0.05 }\n"
         "      - { name: B, spot: 40, volatility: 0.5, drift: 0.0 }\n"
         "      - { name: C, spot: 250, volatility: 0.2, drift: 0.02 }\n"
         "      - { name: AV, spot: 0.3, volatility: 0.9 }\n"  // A's implied volatility
         "    correlation: [[1, 0.6, 0.3, -0.5], [0.6, 1, 0.2, -0.3], [0.3, 0.2, 1, -0.1], [-0.5, -0.3, -0.1, 1]]\n"
         "  portfolio:\n"
         "    - { type: stock, asset: A, quantity: 1000 }\n"
         "    - { type: option, option: put, asset: A, strike: 90, maturity: 0.5, quantity: 800 }\n"
         "    - { type: option, option: call, asset: B, strike: 45, maturity: 0.25, quantity: -1500 }\n"
         "    - { type: forward, asset: C, strike: 255, maturity: 1.0, quantity: 300 }\n"
         "    - { type: option, option: put, asset: C, strike: 230, maturity: 0.75, quantity: -400 }\n"
         "    - { type: exchange, asset: C, other: A, maturity: 0.6, quantity: 200 }\n"
         "    - { type: option, option: call, asset: A, volatility_factor: AV, strike: 105, maturity: 0.5, quantity: 500 }\n";
}

// A stock, cash-or-nothing digitals and a down-and-out call on one asset whose
// value rises with the spot (a long digital call, a short digital put, a long
// knock-out call struck above its barrier), so exact references exist. Near the
// 99% VaR the knock-out is knocked: its share is flat there, the others' are not.
inline std::string var_exotic_job(const std::string& extra_run = "") {
  return "run: { name: exotics, paths: 300_001, seed: 9, chunk_paths: 16384" + extra_run +
         " }\n"
         "model:\n"
         "  type: var\n"
         "  horizon_days: 10\n"
         "  confidence: [0.95, 0.99]\n"
         "  rate: 0.03\n"
         "  factors:\n"
         "    assets: [{ name: ACME, spot: 100, volatility: 0.3, drift: 0.05 }]\n"
         "  portfolio:\n"
         "    - { name: stock, type: stock, asset: ACME, quantity: 1000 }\n"
         "    - { name: up, type: digital, option: call, asset: ACME, strike: 102, maturity: 0.25, quantity: 20000 }\n"
         "    - { name: down, type: digital, option: put, asset: ACME, strike: 90, maturity: 0.5, quantity: -8000 }\n"
         "    - { name: ko, type: barrier, option: call, kind: down-and-out, barrier: 92, asset: ACME, strike: 100,"
         " maturity: 0.5, quantity: 3000 }\n"
         "    - { name: avg, type: asian, average: geometric, fixings: 26, option: call, asset: ACME, strike: 100,"
         " maturity: 0.5, quantity: 2000 }\n";
}

// A book on one Hull-White short-rate factor whose value falls as rates rise (a
// zero and a coupon bond, a receiver swaption and a floor long, a cap short), so
// exact references exist: the loss is monotone in the factor's level.
inline std::string var_rates_job(const std::string& extra_run = "") {
  return "run: { name: rates, paths: 200_003, seed: 13, chunk_paths: 8192" + extra_run +
         " }\n"
         "model:\n"
         "  type: var\n"
         "  horizon_days: 10\n"
         "  confidence: [0.95, 0.99]\n"
         "  rate: 0.03\n"
         "  factors:\n"
         "    assets: [{ name: USD, short_rate: { a: 0.05, sigma: 0.012 } }]\n"
         "  portfolio:\n"
         "    - { name: zero, type: bond, asset: USD, maturity: 5, quantity: 1000000 }\n"
         "    - { name: bullet, type: bond, asset: USD, maturity: 7.25, coupon: 0.04, period: 0.5, quantity: 400000 }\n"
         "    - { name: receiver, type: swaption, position: receiver, asset: USD, strike: 0.03, start: 2, maturity: 7,"
         " period: 1, quantity: 3000000 }\n"
         "    - { name: floor, type: floor, asset: USD, strike: 0.025, start: 0.5, maturity: 3, period: 0.25,"
         " quantity: 1000000 }\n"
         "    - { name: cap, type: cap, asset: USD, strike: 0.035, start: 1, maturity: 5, period: 0.5, quantity: -2000000 }\n";
}
