"""Independent references for the Heston Greeks of validation/heston.yaml (mpmath only).

Heston's European call by the form of its characteristic function that stays on
one branch of the logarithm (Albrecher et al.'s "little Heston trap"), integrated
by mpmath's quadrature at 20 digits;
the put by parity. Lewis's (2000) parameters: S=100, T=1, r=1%, q=2%,
v0=0.04, kappa=4, theta=0.25, xi=1, rho=-0.5 (his ATM call, 16.070154917028834,
is the first check). The Greeks are mpmath's numerical derivatives: delta and
gamma in the spot, rho in r with q held, dividend rho in q with r held.

Run:  python3 validation/reference/heston_greeks.py   (about two minutes)
"""
from mpmath import mp, mpf, mpc, exp, log, sqrt, quad, pi, re, diff, inf
mp.dps = 20

def heston_call(s, k, r, q, t, v0, kappa, theta, xi, rho):
    """Heston's P1, P2 by the 'little trap' form of the characteristic function."""
    x = log(s / k) + (r - q) * t
    def p(j):
        u = mpf("0.5") if j == 1 else mpf("-0.5")
        b = kappa - rho * xi if j == 1 else kappa
        def integrand(phi):
            i = mpc(0, 1)
            d = sqrt((rho * xi * i * phi - b) ** 2 - xi ** 2 * (2 * u * i * phi - phi ** 2))
            g = (b - rho * xi * i * phi - d) / (b - rho * xi * i * phi + d)
            e = exp(-d * t)
            c = kappa * theta / xi ** 2 * ((b - rho * xi * i * phi - d) * t - 2 * log((1 - g * e) / (1 - g)))
            dd = (b - rho * xi * i * phi - d) / xi ** 2 * (1 - e) / (1 - g * e)
            return re(exp(c + dd * v0 + i * phi * x) / (i * phi))
        return mpf("0.5") + quad(integrand, [0, 10, 50, inf]) / pi
    return s * exp(-q * t) * p(1) - k * exp(-r * t) * p(2)

LEWIS = dict(v0=mpf("0.04"), kappa=mpf(4), theta=mpf("0.25"), xi=mpf(1), rho=mpf("-0.5"))
S, R, Q, T = mpf(100), mpf("0.01"), mpf("0.02"), mpf(1)

def greeks(price):
    out = {"price": price(S, R, Q)}
    out["delta"] = diff(lambda x: price(x, R, Q), S)
    out["gamma"] = diff(lambda x: price(x, R, Q), S, 2)
    out["rho"] = diff(lambda x: price(S, x, Q), R)
    out["dividend_rho"] = diff(lambda x: price(S, R, x), Q)
    return out

def put(s, k, r, q, t, **p):
    return heston_call(s, k, r, q, t, **p) - s * exp(-q * t) + k * exp(-r * t)

CASES = {
    "heston-qe-call-atm": lambda s, r, q: heston_call(s, 100, r, q, T, **LEWIS),
    "heston-euler-put-90-antithetic": lambda s, r, q: put(s, 90, r, q, T, **LEWIS),
}
if __name__ == "__main__":
    for name, f in CASES.items():
        g = greeks(f)
        print(name + ": { " + ", ".join(f"{k}: {mp.nstr(x, 17)}" for k, x in g.items()) + " }")
