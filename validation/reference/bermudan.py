"""Independent references for the Bermudan swaptions of validation/rates.yaml
(numpy and scipy only).

Hull-White one-factor, r = x + phi fitted to the curve, dx = -a x dt + sigma dW.
Backward induction over the exercise dates on a fine grid of x: holding on at t_k
is P(t_k, t_k+1; x) times the expectation of the next date's value under the
t_k+1-forward measure, where x(t_k+1) is normal with mean x e^{-a dt} - M and
x's own variance (Brigo and Mercurio, 3.39). The expectation is a trapezoid sum of
the density on a grid of 6001 nodes with the value linearly interpolated; the
European (one exercise date) is checked against Jamshidian's price in rates.yaml.

Run:  python3 validation/reference/bermudan.py
"""
import numpy as np


def curve(kind):
    if kind == "flat":
        return lambda t: -0.03 * t
    tp, zp = np.array([0.5, 1.0, 2.0]), np.array([0.02, 0.03, 0.045])  # validation/data/discount-curve.csv

    def log_p(t):
        if t <= tp[0]:
            return -zp[0] * t
        if t >= tp[-1]:
            return -zp[-1] * t
        return np.interp(t, tp, -zp * tp)

    return log_p


def bermudan(a, sig, log_p, start, maturity, period, strike, payer, exercisable=None, nodes=6001):
    """exercisable: the first so many dates (default all but the last)."""
    n = int(round((maturity - start) / period))
    m = exercisable or n
    dates = [start + i * period for i in range(n)] + [maturity]
    B = lambda t, T: (1 - np.exp(-a * (T - t))) / a
    V = lambda t, T: sig**2 / a**2 * (T - t + 2 / a * np.exp(-a * (T - t)) - 1 / (2 * a) * np.exp(-2 * a * (T - t)) - 1.5 / a)

    def bond(t, T, x):
        return np.exp(log_p(T) - log_p(t) + 0.5 * (V(t, T) - V(0, T) + V(0, t)) - B(t, T) * x)

    def exercise(k, x):
        fixed = sum((strike * (dates[i] - dates[i - 1]) + (i == n)) * bond(dates[k], dates[i], x) for i in range(k + 1, n + 1))
        return np.maximum((1 - fixed) if payer else (fixed - 1), 0)

    def step(dt):
        e = np.exp(-a * dt)
        shift = sig**2 / a**2 * (1 - e) - sig**2 / (2 * a**2) * (1 - e * e)
        return e, shift, np.sqrt(sig**2 * (1 - e * e) / (2 * a))

    reach = 9 * sig * np.sqrt((1 - np.exp(-2 * a * dates[m - 1])) / (2 * a))
    x = np.linspace(-reach, reach, nodes)

    def expect(values, mean, sd):
        # E[f(X)] for each mean: f interpolated on x, trapezoid over x, tails flat.
        h = x[1] - x[0]
        dens = np.exp(-0.5 * ((x[None, :] - mean[:, None]) / sd) ** 2) / (sd * np.sqrt(2 * np.pi))
        w = np.full(nodes, h)
        w[0] = w[-1] = h / 2
        return dens @ (w * values)

    value = exercise(m - 1, x)
    for k in range(m - 2, -1, -1):
        e, shift, sd = step(dates[k + 1] - dates[k])
        hold = bond(dates[k], dates[k + 1], x) * expect(value, e * x - shift, sd)
        value = np.maximum(exercise(k, x), hold)
    e, shift, sd = step(dates[0])
    return float(np.exp(log_p(dates[0])) * expect(value, np.array([-shift]), sd)[0])


def main():
    european = bermudan(0.08, 0.012, curve("curve"), 2, 7, 1, 0.035, True, exercisable=1)
    print("check: one exercise date", european, "vs Jamshidian's 0.05046033177067459 (rates.yaml)")
    cases = {
        "bermudan-payer-2x5-annual": (0.08, 0.012, "curve", 2, 7, 1, 0.035, True),
        "bermudan-receiver-1x4-semiannual-float": (0.05, 0.015, "curve", 1, 5, 0.5, 0.03, False),
        "bermudan-payer-flat-1x10-antithetic": (0.1, 0.01, "flat", 1, 10, 1, 0.03, True),
    }
    for name, (a, sig, kind, start, maturity, period, strike, payer) in cases.items():
        print(name, repr(bermudan(a, sig, curve(kind), start, maturity, period, strike, payer)))


if __name__ == "__main__":
    main()
