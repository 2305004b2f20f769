"""Independent references for validation/greeks.yaml (mpmath only).

Closed forms under GBM (rate r, dividend yield q, volatility sigma), written here
from the literature: Kemna-Vorst's geometric Asian on discrete fixings (the log
of the geometric mean is normal), Rubinstein's forward start, Reiner-Rubinstein's
continuously watched down-and-out call with a rebate paid at expiry, and
Goldman-Sosin-Gatto's floating-strike lookback call. The Greeks are mpmath's
numerical derivatives of these prices at 30 digits: delta and gamma in the spot
(a lookback's running minimum is the spot, so it moves with it), vega in sigma,
rho in r with q held, dividend rho in q with r held.

Run:  python3 validation/reference/greeks.py
"""
from mpmath import mp, mpf, ncdf, exp, log, sqrt, diff

mp.dps = 30
BASE = dict(s=mpf(100), r=mpf("0.04"), q=mpf("0.015"), v=mpf("0.3"))


def bs(s, k, r, q, v, t, call=True):
    sd = v * sqrt(t)
    d1 = (log(s / k) + (r - q) * t) / sd + sd / 2
    w = 1 if call else -1
    return w * (s * exp(-q * t) * ncdf(w * d1) - k * exp(-r * t) * ncdf(w * (d1 - sd)))


def geometric_asian(s, r, q, v, k, times, call=True):
    n, t = len(times), times[-1]
    mean = log(s) + (r - q - v * v / 2) * sum(times) / n
    var = v * v * sum(min(a, b) for a in times for b in times) / n**2
    sd = sqrt(var)
    d1 = (mean - log(k) + var) / sd
    w = 1 if call else -1
    return exp(-r * t) * w * (exp(mean + var / 2) * ncdf(w * d1) - k * ncdf(w * (d1 - sd)))


def forward_start(s, r, q, v, moneyness, start, t, call=True):
    return s * exp(-q * start) * bs(1, moneyness, r, q, v, t - start, call)


def down_and_out_call(s, r, q, v, k, h, rebate, t):
    """k >= h; the rebate is paid at expiry on the paths that touched h."""
    b, sd = r - q, v * sqrt(t)
    mu = (b - v * v / 2) / (v * v)
    x1 = log(s / k) / sd + (1 + mu) * sd
    y1 = log(h * h / (s * k)) / sd + (1 + mu) * sd
    x2 = log(s / h) / sd + (1 + mu) * sd
    y2 = log(h / s) / sd + (1 + mu) * sd
    a = s * exp((b - r) * t) * ncdf(x1) - k * exp(-r * t) * ncdf(x1 - sd)
    c = s * exp((b - r) * t) * (h / s) ** (2 * (mu + 1)) * ncdf(y1) - k * exp(-r * t) * (h / s) ** (2 * mu) * ncdf(y1 - sd)
    survive = ncdf(x2 - sd) - (h / s) ** (2 * mu) * ncdf(y2 - sd)
    return a - c + rebate * exp(-r * t) * (1 - survive)


def floating_lookback_call(s, r, q, v, t):
    """The running minimum is the spot today."""
    b, sd, m = r - q, v * sqrt(t), s
    a1 = (log(s / m) + (b + v * v / 2) * t) / sd
    a2 = a1 - sd
    return (s * exp((b - r) * t) * ncdf(a1) - m * exp(-r * t) * ncdf(a2)
            + s * exp(-r * t) * v * v / (2 * b) * ((s / m) ** (-2 * b / (v * v)) * ncdf(-a1 + 2 * b * sqrt(t) / v)
                                                   - exp(b * t) * ncdf(-a1)))


def greeks(price):
    """price(s, r, q, v) -> its value and Greeks at BASE."""
    s, r, q, v = BASE["s"], BASE["r"], BASE["q"], BASE["v"]
    return {
        "price": price(s, r, q, v),
        "delta": diff(lambda x: price(x, r, q, v), s),
        "gamma": diff(lambda x: price(x, r, q, v), s, 2),
        "vega": diff(lambda x: price(s, r, q, x), v),
        "rho": diff(lambda x: price(s, x, q, v), r),
        "dividend_rho": diff(lambda x: price(s, r, x, v), q),
    }


CASES = {
    "asian-geometric-monthly-call": lambda s, r, q, v: geometric_asian(s, r, q, v, 100, [mpf(i) / 12 for i in range(1, 13)]),
    "asian-geometric-times-put": lambda s, r, q, v: geometric_asian(s, r, q, v, 95, [mpf("0.2"), mpf("0.7"), mpf("1.5")], False),
    "forward-start-call": lambda s, r, q, v: forward_start(s, r, q, v, mpf("1.05"), mpf("0.5"), mpf("1.5")),
    "down-and-out-call-continuous-rebate": lambda s, r, q, v: down_and_out_call(s, r, q, v, 100, 85, 2, 1),
    "lookback-floating-call-continuous": lambda s, r, q, v: floating_lookback_call(s, r, q, v, 1),
}

if __name__ == "__main__":
    for name, price in CASES.items():
        g = greeks(price)
        print(name + ": { " + ", ".join(f"{k}: {mp.nstr(x, 17)}" for k, x in g.items()) + " }")
