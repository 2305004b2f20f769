"""Independent references for the basket Greeks of validation/basket.yaml (mpmath only).

Two correlated GBM assets A and B (spots, dividend yields q, volatilities v,
correlation rho, rate r). Margrabe's closed form for the exchange option
(S_A - S_B)+, which does not depend on r; the best-of call (max(S_A, S_B) - K)+ by
one integral over A's normal, B's conditional expectation being Black's formula
(split where S_A = K, where the payoff bends). The Greeks are mpmath's numerical
derivatives at 30 digits: delta and gamma in each spot, vega in each volatility,
dividend rho in each yield, rho in r, and the correlation sensitivity in rho, the
other inputs held.

Run:  python3 validation/reference/basket_greeks.py   (about a minute)
"""
from mpmath import mp, mpf, ncdf, npdf, exp, log, sqrt, diff, quad, inf
mp.dps = 30

def black_call(f, k, sd):
    if k <= 0:
        return f - k
    d1 = (log(f / k) + sd * sd / 2) / sd
    return f * ncdf(d1) - k * ncdf(d1 - sd)

def margrabe(s1, s2, q1, q2, v1, v2, rho, r, t):
    v = sqrt(v1 * v1 + v2 * v2 - 2 * rho * v1 * v2) * sqrt(t)
    f1, f2 = s1 * exp(-q1 * t), s2 * exp(-q2 * t)
    d1 = (log(f1 / f2) + v * v / 2) / v
    return f1 * ncdf(d1) - f2 * ncdf(d1 - v)

def best_of_call(s1, s2, q1, q2, v1, v2, rho, r, t, k):
    a, b = v1 * sqrt(t), v2 * sqrt(t)
    m1 = log(s1) + (r - q1 - v1 * v1 / 2) * t
    m2 = log(s2) + (r - q2 - v2 * v2 / 2) * t
    c = b * sqrt(1 - rho * rho)
    def given(z):
        x = exp(m1 + a * z)
        f = exp(m2 + b * rho * z + c * c / 2)
        if x >= k:
            return x - k + black_call(f, x, c)
        return black_call(f, k, c)
    kink = (log(k) - m1) / a
    g = lambda z: npdf(z) * given(z)
    return exp(-r * t) * (quad(g, [-inf, kink]) + quad(g, [kink, inf]))

BASE = dict(s1=mpf(100), s2=mpf(90), q1=mpf("0.02"), q2=mpf(0), v1=mpf("0.3"), v2=mpf("0.2"), rho=mpf("0.6"), r=mpf("0.05"), t=mpf(1))

def greeks(price):
    p = dict(BASE)
    def at(key, x):
        q = dict(p); q[key] = x; return price(**q)
    out = {"price": price(**p)}
    for name, s, v, q in (("A", "s1", "v1", "q1"), ("B", "s2", "v2", "q2")):
        out["delta_" + name] = diff(lambda x: at(s, x), p[s])
        out["gamma_" + name] = diff(lambda x: at(s, x), p[s], 2)
        out["vega_" + name] = diff(lambda x: at(v, x), p[v])
        out["dividend_rho_" + name] = diff(lambda x: at(q, x), p[q])
    out["rho"] = diff(lambda x: at("r", x), p["r"])
    out["correlation_A_B"] = diff(lambda x: at("rho", x), p["rho"])
    return out

for name, f in (("exchange", lambda **k: margrabe(**k)), ("best-of-call", lambda **k: best_of_call(k=100, **k))):
    g = greeks(f)
    print(name + ": { " + ", ".join(f"{k}: {mp.nstr(x, 17)}" for k, x in g.items()) + " }")
