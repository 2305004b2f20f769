#!/usr/bin/env python3
"""Reference VaR and ES for validation/var.yaml, computed independently of mcsim
with the Python standard library only.

Every case's loss is a monotone function of one standard shock z (one asset, or
assets perfectly correlated), so VaR is the loss at the shock's (1 - a) quantile
and ES its mean over the shocks beyond, here integrated over z itself (mcsim's own
closed form integrates over the probability instead). Student-t shocks are scaled
to unit variance; their distribution function is the regularised incomplete beta.
"""
import functools
import math
import sys

H = 10 / 252  # ten trading days
RATE = 0.03
ASSETS = {"ACME": (100.0, 0.3, 0.05), "BETA": (50.0, 0.2, 0.02),  # spot, vol, drift
          "VOL": (0.25, 0.8, 0.0)}  # ACME's implied volatility as a factor


def norm_cdf(x):
    return 0.5 * math.erfc(-x / math.sqrt(2))


def norm_pdf(x):
    return math.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def betacf(a, b, x):  # continued fraction of the incomplete beta (Lentz)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return h


def ibeta(a, b, x):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * betacf(a, b, x) / a
    return 1 - front * betacf(b, a, 1 - x) / b


class Shock:
    def __init__(self, dof=None):
        self.dof = dof
        self.scale = math.sqrt((dof - 2) / dof) if dof else 1.0

    def cdf(self, z):
        if not self.dof:
            return norm_cdf(z)
        t = z / self.scale
        tail = 0.5 * ibeta(self.dof / 2, 0.5, self.dof / (self.dof + t * t))
        return tail if t < 0 else 1 - tail

    def pdf(self, z):
        if not self.dof:
            return norm_pdf(z)
        v, t = self.dof, z / self.scale
        c = math.exp(math.lgamma((v + 1) / 2) - math.lgamma(v / 2)) / math.sqrt(v * math.pi)
        return c * (1 + t * t / v) ** (-(v + 1) / 2) / self.scale

    def quantile(self, p):
        lo, hi = -200.0, 200.0
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if self.cdf(mid) < p else (lo, mid)
        return 0.5 * (lo + hi)


def bsm(spot, strike, tau, vol, call):
    if spot < 1e-300:  # far in the tail: the spot has vanished
        return 0.0 if call else strike * math.exp(-RATE * tau)
    if vol < 1e-300:  # so has a volatility factor's level: the discounted intrinsic value
        forward = spot - strike * math.exp(-RATE * tau)
        return max(forward, 0.0) if call else max(-forward, 0.0)
    d1 = (math.log(spot / strike) + (RATE + 0.5 * vol * vol) * tau) / (vol * math.sqrt(tau))
    d2 = d1 - vol * math.sqrt(tau)
    if call:
        return spot * norm_cdf(d1) - strike * math.exp(-RATE * tau) * norm_cdf(d2)
    return strike * math.exp(-RATE * tau) * norm_cdf(-d2) - spot * norm_cdf(-d1)


def digital(spot, strike, tau, vol, call):
    if spot < 1e-300:
        return 0.0 if call else math.exp(-RATE * tau)
    d2 = (math.log(spot / strike) + (RATE - 0.5 * vol * vol) * tau) / (vol * math.sqrt(tau))
    return math.exp(-RATE * tau) * norm_cdf(d2 if call else -d2)


def down_and_out_call(spot, strike, barrier, tau, vol):
    """Strike at or above the barrier, no rebate: the reflection principle's image
    (Merton), C(S) - (H/S)^(2r/vol^2 - 1) C(H^2/S); nothing once the spot is at or
    below the barrier (mcsim checks it at the horizon's spot)."""
    if spot <= barrier:
        return 0.0
    k = 2 * RATE / (vol * vol) - 1
    return bsm(spot, strike, tau, vol, True) - (barrier / spot) ** k * bsm(barrier * barrier / spot, strike, tau, vol, True)


@functools.lru_cache(maxsize=None)
def log_average_moments(maturity, fixings, elapsed, vol):
    """ln G = a + b ln S0 + c ln S_e + a normal of variance v, for G the geometric
    average of the fixings k T / n: those up to `elapsed` given the spots today and
    then (a Brownian bridge), the later ones from S_e under the rate. The
    covariances are summed over every pair."""
    n = fixings
    times = [maturity * k / n for k in range(1, n + 1)]
    a = b = c = v = 0.0
    for t in times:
        if t <= elapsed:
            b, c = b + 1 - t / elapsed, c + t / elapsed
        else:
            a, c = a + (RATE - 0.5 * vol * vol) * (t - elapsed), c + 1
    for s in times:
        for t in times:
            lo, hi = min(s, t), max(s, t)
            if hi <= elapsed:
                v += lo * (elapsed - hi) / elapsed
            elif lo > elapsed:
                v += lo - elapsed
    return a / n, b / n, c / n, vol * vol * v / (n * n)


def geometric_asian(spot, spot0, strike, maturity, fixings, elapsed, vol, call):
    a, b, c, v = log_average_moments(maturity, fixings, elapsed, vol)
    disc = math.exp(-RATE * (maturity - elapsed))
    if spot < 1e-300:  # the average has vanished with the spot
        return 0.0 if call else strike * disc
    sd = math.sqrt(v)
    forward = math.exp(a + b * math.log(spot0) + c * math.log(spot) + 0.5 * v)
    d1 = math.log(forward / strike) / sd + 0.5 * sd
    d2 = d1 - sd
    if call:
        return disc * (forward * norm_cdf(d1) - strike * norm_cdf(d2))
    return disc * (strike * norm_cdf(-d2) - forward * norm_cdf(-d1))


def exchange(spot, other_spot, tau, vol):
    """Margrabe: S N(d1) - S' N(d2), the volatility of ln(S / S')."""
    if spot < 1e-300 or other_spot < 1e-300:
        return max(spot - other_spot, 0.0)
    sd = vol * math.sqrt(tau)
    d1 = math.log(spot / other_spot) / sd + 0.5 * sd
    return spot * norm_cdf(d1) - other_spot * norm_cdf(d1 - sd)


# The short-rate factor USD: Hull-White (a, sigma) on the flat curve at RATE. Its
# level in mcsim is the state x; here bonds are priced from the short rate
# r = x + phi(t) in Brigo and Mercurio's A(t, T) e^{-B(t, T) r} form (3.39).
HW_A, HW_SIGMA = 0.05, 0.012


def hw_b(t, T):
    return (1 - math.exp(-HW_A * (T - t))) / HW_A


def hw_bond(t, T, x):
    a, s = HW_A, HW_SIGMA
    r = x + RATE + s * s / (2 * a * a) * (1 - math.exp(-a * t)) ** 2  # phi(t): the flat forward plus convexity
    b = hw_b(t, T)
    log_a = -RATE * (T - t) + b * RATE - s * s / (4 * a) * (1 - math.exp(-2 * a * t)) * b * b
    return math.exp(log_a - b * r)


def hw_bond_option(t, expiry, maturity, strike, x, call):
    """At t, an option expiring at `expiry` on the bond maturing at `maturity`."""
    sd = HW_SIGMA * hw_b(expiry, maturity) * math.sqrt((1 - math.exp(-2 * HW_A * (expiry - t))) / (2 * HW_A))
    ps, pt = hw_bond(t, maturity, x), hw_bond(t, expiry, x)
    if ps < 1e-300 or pt < 1e-300:  # far in the tail, rates so high the bonds have vanished
        return 0.0 if call or pt < 1e-300 else strike * pt
    d1 = math.log(ps / (strike * pt)) / sd + 0.5 * sd
    if call:
        return ps * norm_cdf(d1) - strike * pt * norm_cdf(d1 - sd)
    return strike * pt * norm_cdf(sd - d1) - ps * norm_cdf(-d1)


def schedule(start, maturity, period):
    n = round((maturity - start) / period)
    return [start + i * period for i in range(n)] + [maturity]


@functools.lru_cache(maxsize=None)
def jamshidian_strikes(dates, strike):
    """The state at expiry where the swap's fixed bonds are worth par, and each bond's value there."""
    coupons = [strike * (dates[i] - dates[i - 1]) for i in range(1, len(dates))]
    coupons[-1] += 1
    par = lambda x: sum(c * hw_bond(dates[0], t, x) for c, t in zip(coupons, dates[1:])) - 1
    lo, hi = -1.0, 1.0
    for _ in range(300):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if par(mid) > 0 else (lo, mid)
    x = 0.5 * (lo + hi)
    return tuple(zip(coupons, dates[1:], [hw_bond(dates[0], t, x) for t in dates[1:]]))


def rate_value(pos, x, elapsed):
    kind, qty = pos[0], pos[2]
    if kind == "zero":  # ("zero", "USD", qty, maturity)
        return qty * hw_bond(elapsed, pos[3], x)
    strike, dates = pos[3], schedule(*pos[4:7])  # (kind, "USD", qty, strike, start, maturity, period)
    if kind in ("cap", "floor"):  # caplet: (1 + K tau) puts on P(start, end) struck at 1 / (1 + K tau)
        return qty * sum((1 + strike * (e - s)) * hw_bond_option(elapsed, s, e, 1 / (1 + strike * (e - s)), x, kind == "floor")
                         for s, e in zip(dates, dates[1:]))
    # a receiver swaption: calls on the fixed leg's bonds (a payer's: puts)
    return qty * sum(c * hw_bond_option(elapsed, dates[0], t, k, x, kind == "receiver")
                     for c, t, k in jamshidian_strikes(tuple(dates), strike))


def value(pos, spot, elapsed, spots=None):
    kind, asset, qty = pos[0], pos[1], pos[2]
    if asset == "USD":
        return rate_value(pos, spot, elapsed)
    vol = ASSETS[asset][1]
    if kind == "stock":
        return qty * spot
    if kind == "exchange":  # ("exchange", asset, qty, maturity, other, correlation)
        other, rho = pos[4], pos[5]
        vo = ASSETS[other][1]
        pair_vol = math.sqrt(max(0.0, vol * vol + vo * vo - 2 * rho * vol * vo))
        return qty * exchange(spot, spots[other], pos[3] - elapsed, pair_vol)
    strike, maturity = pos[3], pos[4]
    if kind == "forward":
        return qty * (spot - strike * math.exp(-RATE * (maturity - elapsed)))
    if kind.startswith("geometric-asian"):
        return qty * geometric_asian(spot, ASSETS[asset][0], strike, maturity, pos[5], elapsed, vol,
                                     kind == "geometric-asian-call")
    if kind == "down-and-out-call":
        return qty * down_and_out_call(spot, strike, pos[5], maturity - elapsed, vol)
    if kind.startswith("digital"):  # cash-or-nothing: e^{-r tau} N(+-d2)
        return qty * digital(spot, strike, maturity - elapsed, vol, kind == "digital-call")
    if len(pos) > 5:  # an option on a volatility factor: its level is the implied volatility
        vol = spots[pos[5]]
    return qty * bsm(spot, strike, maturity - elapsed, vol, kind == "call")


def position_loss(pos, z):
    """Every asset moved by the one shock z (one asset, or perfectly correlated ones)."""
    today = {a: s0 for a, (s0, _, _) in ASSETS.items()}
    later = {a: s0 * math.exp((drift - 0.5 * vol * vol) * H + vol * math.sqrt(H) * z)
             for a, (s0, vol, drift) in ASSETS.items()}
    # The rate's state: 0 today, a normal of x's own sd over H; it rises as z falls,
    # since its books lose as rates rise.
    today["USD"] = 0.0
    later["USD"] = -HW_SIGMA * math.sqrt((1 - math.exp(-2 * HW_A * H)) / (2 * HW_A)) * z
    a = pos[1]
    return value(pos, today[a], 0, today) - value(pos, later[a], H, later)


def tail(portfolio, shock, level, f):
    """f at the VaR shock, and f's mean over the tail, for a loss falling in z."""
    p = 1 - level
    zq = shock.quantile(p)
    # ES = (1/p) int_{-inf}^{zq} f(z) pdf(z) dz, with z = zq - tan(theta).
    n, total = 40000, 0.0
    top = 0.5 * math.pi - 1e-9
    for i in range(n + 1):
        th = top * i / n
        z = zq - math.tan(th)
        w = 1 if i in (0, n) else (4 if i % 2 else 2)
        total += w * f(z) * shock.pdf(z) / math.cos(th) ** 2
    return f(zq), total * top / n / 3 / p


CASES = [
    ("stock-normal", [("stock", "ACME", 1000)], None, ["stock"]),
    ("stock-student-t", [("stock", "ACME", 1000)], 4, ["stock"]),
    ("call-normal", [("call", "ACME", 500, 100, 0.5)], None, ["call"]),
    ("protective-put-t", [("stock", "ACME", 1000), ("put", "ACME", 1000, 95, 0.25)], 5, ["stock", "put"]),
    ("forward-short-put", [("forward", "ACME", 400, 98, 0.5), ("put", "ACME", -300, 90, 0.3)], None, ["fwd", "put"]),
    ("pair-perfect", [("stock", "ACME", 1000), ("stock", "BETA", 2000)], None, ["a", "b"]),
    ("digitals-t", [("stock", "ACME", 1000), ("digital-call", "ACME", 20000, 102, 0.25),
                    ("digital-put", "ACME", -8000, 90, 0.5)], 5, ["stock", "up", "down"]),
    ("knock-out-call", [("stock", "ACME", 500), ("down-and-out-call", "ACME", 2000, 100, 0.5, 85)], None,
     ["stock", "ko"]),
    ("exchange-perfect", [("stock", "BETA", 2000), ("exchange", "ACME", 1500, 0.5, "BETA", 1.0)], None,
     ["b", "swap"]),
    ("vol-factor-call", [("stock", "ACME", 1000), ("call", "ACME", 2000, 105, 0.4, "VOL")], None,
     ["stock", "call"]),
    ("geometric-asian-put", [("stock", "ACME", 1000), ("geometric-asian-put", "ACME", 1000, 100, 0.5, 26)], 5,
     ["stock", "avg"]),
    ("rates-zero-receiver", [("zero", "USD", 1000000, 5), ("receiver", "USD", 3000000, 0.03, 2, 7, 1)], None,
     ["zero", "receiver"]),
    ("rates-floor-short-cap-t", [("floor", "USD", 2000000, 0.025, 0.5, 3, 0.25),
                                 ("cap", "USD", -1500000, 0.035, 1, 5, 0.5)], 5, ["floor", "cap"]),
]

if __name__ == "__main__":
    only = sys.argv[1:]  # case names; all cases without
    for name, portfolio, dof, names in CASES:
        if only and name not in only:
            continue
        shock = Shock(dof)
        total = lambda z: sum(position_loss(q, z) for q in portfolio)
        out = {}
        for level in (0.95, 0.99):
            var, es = tail(portfolio, shock, level, total)
            out[f"var_{level:g}"], out[f"es_{level:g}"] = var, es
            if len(portfolio) > 1:
                for pos, pname in zip(portfolio, names):
                    v, e = tail(portfolio, shock, level, lambda z: position_loss(pos, z))
                    out[f"var_{level:g}.{pname}"], out[f"es_{level:g}.{pname}"] = v, e
        print(name, ", ".join(f"{k}: {v:.12g}" for k, v in out.items()))
        if name == "stock-normal":
            s0, vol, drift = ASSETS["ACME"]
            mean = 1000 * s0 * (math.exp(drift * H) - 1)
            sd = 1000 * s0 * math.exp(drift * H) * math.sqrt(math.exp(vol * vol * H) - 1)
            print(f"  pnl_mean: {mean:.12g}, pnl_sd: {sd:.12g}")
