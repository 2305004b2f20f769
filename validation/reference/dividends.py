"""Independent references for validation/dividends.yaml (numpy and scipy only).

A GBM spot that drops by a cash amount D at each ex-date (to max(S - D, 0)).
Europeans and digitals: the spot just after an ex-date is max(S e^X - D, 0) with X
normal, so the price is nested scipy.integrate.quad over X, Black's formula after
the last dividend. A dividend paid at maturity: a call struck at K + D, a put as
(K + D - S)^+ less (D - S)^+. Asians, barriers, a cliquet and a forward start:
exact GBM steps on the fixings and the ex-dates, 8,000,000 paths, each value
printed with its standard error; a continuous barrier by the Brownian bridge's
survival probability between steps.

Run:  python3 validation/reference/dividends.py
"""
import numpy as np
from scipy import integrate, stats

S0, R, Q, VOL = 100.0, 0.03, 0.01, 0.25
CASH = [(0.3, 2.0), (0.8, 2.0)]  # the base case's dividends: (ex-date, amount)


def black(f, k, var, disc, call=True, digital=False):
    """Discounted call/put (or digital paying 1) on forward f."""
    if f <= 0:
        return disc * (0.0 if call else (1.0 if digital else k))
    sd = np.sqrt(var)
    d1 = np.log(f / k) / sd + 0.5 * sd
    d2 = d1 - sd
    w = 1 if call else -1
    if digital:
        return disc * stats.norm.cdf(w * d2)
    return disc * w * (f * stats.norm.cdf(w * d1) - k * stats.norm.cdf(w * d2))


def european(k, t, dividends, growth, variance, discount, call=True, digital=False):
    """growth(t0, t1): log forward growth (rate less yield, proportional dividends);
    variance(t0, t1): integrated sigma^2; discount(t): P(0, t)."""
    legs = [d for d in dividends if d[0] < t]

    def value(s, t0, i):
        if i == len(legs):
            return black(s * np.exp(growth(t0, t)), k, variance(t0, t), discount(t) / discount(t0), call, digital)
        td, amount = legs[i]
        g, v = growth(t0, td), variance(t0, td)

        def f(z):
            after = s * np.exp(g - 0.5 * v + np.sqrt(v) * z) - amount
            return stats.norm.pdf(z) * value(max(after, 0.0), td, i + 1)

        return discount(td) / discount(t0) * integrate.quad(f, -9, 9, epsabs=1e-12, epsrel=1e-11, limit=200)[0]

    return value(S0, 0.0, 0)


def flat(r=R, q=Q, vol=VOL):
    return (lambda a, b: (r - q) * (b - a)), (lambda a, b: vol**2 * (b - a)), (lambda t: np.exp(-r * t))


def monte_carlo(fixings, dividends, payoff, t, paths=8_000_000, seed=1, barrier=None, batch=500_000):
    """payoff(fixing values (paths x fixings)) discounted at R; barrier: (level, 'down-out'
    continuous). Exact log steps on the union of fixings and ex-dates."""
    grid = sorted(set(fixings) | {d for d, _ in dividends if d <= t})
    cash = {d: a for d, a in dividends}
    rng = np.random.default_rng(seed)
    total, total2, n = 0.0, 0.0, 0
    while n < paths:
        m = min(batch, paths - n)
        x = np.full(m, np.log(S0))
        live = np.ones(m)
        seen = []
        t0 = 0.0
        for t1 in grid:
            dt = t1 - t0
            before = x
            x = x + (R - Q - 0.5 * VOL**2) * dt + VOL * np.sqrt(dt) * rng.standard_normal(m)
            moved = x
            if t1 in cash:
                x = np.log(np.maximum(np.exp(x) - cash[t1], 1e-300))
            if barrier is not None:
                lb = np.log(barrier)
                a, b = before - lb, moved - lb
                p = np.where((b <= 0) | (x <= lb), 0.0, 1 - np.exp(np.minimum(-2 * a * b / (VOL**2 * dt), 0)))
                live *= p
            if t1 in fixings:
                seen.append(np.exp(x))
            t0 = t1
        y = np.exp(-R * t) * payoff(np.array(seen).T) * live
        total += y.sum()
        total2 += (y * y).sum()
        n += m
    mean = total / n
    return mean, np.sqrt((total2 / n - mean**2) / (n - 1))


def curves():
    """validation/data/discount-curve.csv, a 1% -> 1.5% yield curve, a proportional
    dividend of 2% at 0.5, and a volatility of 30% to 0.5 years, 20% after."""
    tp, zp = np.array([0.5, 1, 2]), np.array([0.02, 0.03, 0.045])
    ty, zy = np.array([1.0, 3.0]), np.array([0.01, 0.015])

    def log_p(t, ts, zs):
        lp = -zs * ts
        if t <= ts[0]:
            return lp[0] * t / ts[0]
        if t >= ts[-1]:
            return -zs[-1] * t
        return np.interp(t, ts, lp)

    def log_growth(t):
        g = log_p(t, ty, zy) - log_p(t, tp, zp)
        return g + (np.log(0.98) if t >= 0.5 else 0.0)

    def var(a, b):
        lo = min(b, 0.5)
        return 0.09 * max(lo - a, 0) + 0.04 * max(b - max(a, 0.5), 0)

    return (lambda a, b: log_growth(b) - log_growth(a)), var, (lambda t: np.exp(log_p(t, tp, zp)))


def main():
    out = {}
    g, v, p = flat()
    out["cash-call-100"] = european(100, 1, CASH, g, v, p)
    out["cash-put-95-float-antithetic"] = european(95, 1, CASH, g, v, p, call=False)
    out["cash-digital-call-105"] = 100 * european(105, 1, CASH, g, v, p, digital=True)
    out["cash-three-dividends-call-90-2y"] = european(90, 2, [(0.4, 1.5), (1.0, 1.5), (1.6, 1.5)], g, v, p)
    out["cash-at-maturity-call-100"] = black(S0 * np.exp((R - Q)), 102, VOL**2, np.exp(-R))
    # A put on max(S - D, 0): (K + D - S)^+ less (D - S)^+.
    f = S0 * np.exp(R - Q)
    out["cash-at-maturity-put-100-float"] = black(f, 102, VOL**2, np.exp(-R), False) - black(f, 2, VOL**2, np.exp(-R), False)
    out["cash-on-curves-call-100-1.5y"] = european(100, 1.5, [(0.3, 2.0), (1.2, 2.0)], *curves())
    monthly = [i / 12 for i in range(1, 13)]
    asian = lambda s: np.maximum(s.mean(axis=1) - 100, 0)
    out["cash-asian-monthly-call-100"] = monte_carlo(monthly, CASH, asian, 1, seed=11)
    out["cash-asian-dividend-on-fixing-float"] = monte_carlo(monthly, [(0.25, 2.0), (0.75, 2.0)], asian, 1, seed=12)
    barrier = lambda s: np.where(s.min(axis=1) > 85, np.maximum(s[:, -1] - 100, 0), 0)
    out["cash-barrier-down-out-monthly"] = monte_carlo(monthly, CASH, barrier, 1, seed=13)
    vanilla = lambda s: np.maximum(s[:, -1] - 100, 0)
    out["cash-barrier-down-out-continuous"] = monte_carlo([1.0], CASH, vanilla, 1, seed=14, barrier=85)
    quarters = [0.25, 0.5, 0.75, 1.0]

    def cliquet(s):
        r = np.diff(np.hstack([np.full((len(s), 1), S0), s]), axis=1) / np.hstack([np.full((len(s), 1), S0), s[:, :-1]])
        return np.clip(r, 0.0, 0.05).sum(axis=1) * 1.0

    out["cash-cliquet-quarterly"] = monte_carlo(quarters, CASH, cliquet, 1, seed=15)
    fwd = lambda s: np.maximum(s[:, 1] - s[:, 0], 0)
    out["cash-forward-start-0.5-1"] = monte_carlo([0.5, 1.0], CASH, fwd, 1, seed=16)
    for name, value in out.items():
        print(name, repr(value) if np.isscalar(value) else [float(value[0]), float(value[1])])


if __name__ == "__main__":
    main()
