"""Independent references for validation/hybrid.yaml (numpy and scipy only).

Black-Scholes-Hull-White Europeans: Black's formula on the forward S/P(t,T), its
variance integrated numerically. Autocallables under GBM and Black-Scholes-Hull-White:
the integrated factor I(t) and the stock's Brownian part at the observation dates
are jointly normal, their covariance integrated numerically and sampled through its
Cholesky factor (exact, no time steps). Under Heston-Hull-White: full-truncation
Euler on a fine grid, the rate's factor stepped as an Ornstein-Uhlenbeck process.
Each Monte Carlo value is printed with its standard error.

Run:  python3 validation/reference/hybrid.py
"""
import numpy as np
from scipy import integrate, stats

R0 = 0.03  # the flat rate of the cases


def B(a, tau):
    return (1 - np.exp(-a * tau)) / a


def bs_hw_european(s0, k, t, q, vol, a, sig, rho, log_p, call=True):
    var = integrate.quad(lambda u: vol**2 + 2 * rho * vol * sig * B(a, t - u) + sig**2 * B(a, t - u) ** 2, 0, t)[0]
    p = np.exp(log_p(t))
    f = s0 * np.exp(-q * t) / p
    d1 = (np.log(f / k) + 0.5 * var) / np.sqrt(var)
    d2 = d1 - np.sqrt(var)
    if call:
        return p * (f * stats.norm.cdf(d1) - k * stats.norm.cdf(d2))
    return p * (k * stats.norm.cdf(-d2) - f * stats.norm.cdf(-d1))


def payoff(rel, disc, coupon, call_level, coupon_level, knock_in, memory):
    """rel: S(t_i)/S0 (paths x dates), disc: the discount to each date."""
    n, m = rel.shape
    value = np.zeros(n)
    alive = np.ones(n, dtype=bool)
    missed = np.zeros(n)
    for i in range(m):
        pay = rel[:, i] >= coupon_level
        value += np.where(alive & pay, disc[:, i] * coupon * (missed + 1 if memory else 1), 0)
        missed = np.where(pay, 0, missed + 1)
        if i == m - 1:
            redeem = np.where(rel[:, i] >= knock_in, 1.0, rel[:, i])
            value += np.where(alive, disc[:, i] * redeem, 0)
        else:
            called = alive & (rel[:, i] >= call_level)
            value += np.where(called, disc[:, i], 0)
            alive &= ~called
    return value


def autocall_gaussian(dates, q, vol, a, sig, rho, product, paths, seed):
    """GBM stock, Hull-White rate on the flat R0 (sig = 0: deterministic)."""
    m = len(dates)
    cov = np.zeros((2 * m, 2 * m))  # I(t_1..m), then vol W_S(t_1..m)
    for i, ti in enumerate(dates):
        for j, tj in enumerate(dates):
            lo = min(ti, tj)
            cov[i, j] = sig**2 * integrate.quad(lambda u: B(a, ti - u) * B(a, tj - u), 0, lo)[0]
            cov[i, m + j] = rho * sig * vol * integrate.quad(lambda u: B(a, ti - u), 0, lo)[0]
            cov[m + j, i] = cov[i, m + j]
            cov[m + i, m + j] = vol**2 * lo
    chol = np.linalg.cholesky(cov) if sig > 0 else None
    t = np.array(dates)
    v0t = np.diag(cov)[:m]  # V(0, t) = Var I(t)
    rng = np.random.default_rng(seed)
    sums = []
    for _ in range(paths // 500_000):
        z = rng.standard_normal((500_000, 2 * m))
        if sig > 0:
            g = z @ chol.T
        else:  # no rate: I = 0 and the stock's Brownian part from independent increments
            g = np.zeros_like(z)
            g[:, m:] = vol * np.cumsum(z[:, m:] * np.sqrt(np.diff(np.concatenate([[0], t]))), axis=1)
        integral, stock = g[:, :m], g[:, m:]
        # int phi = R0 t + V(0,t)/2 on a flat curve; log S = int r - q t - vol^2 t / 2 + vol W.
        rel = np.exp(R0 * t + 0.5 * v0t + integral - q * t - 0.5 * vol**2 * t + stock)
        disc = np.exp(-R0 * t - 0.5 * v0t - integral)
        sums.append(payoff(rel, disc, *product))
    x = np.concatenate(sums)
    return x.mean(), x.std(ddof=1) / np.sqrt(len(x))


def autocall_heston_hw(dates, q, v0, kappa, theta, xi, rho_sv, a, sig, rho_sr, product, paths, steps, seed):
    t_end = dates[-1]
    dt = t_end / steps
    obs = {int(round(d / dt)): i for i, d in enumerate(dates)}
    assert all(abs(k * dt - d) < 1e-12 for k, d in zip(obs, dates))
    rng = np.random.default_rng(seed)
    c = np.sqrt(1 - rho_sr**2 - rho_sv**2)
    sd_x = sig * np.sqrt((1 - np.exp(-2 * a * dt)) / (2 * a))
    phi = lambda u: R0 + sig**2 / (2 * a**2) * (1 - np.exp(-a * u)) ** 2
    sums = []
    n = 250_000
    for _ in range(paths // n):
        x = np.zeros(n)
        integral = np.zeros(n)  # int r dt
        logs = np.zeros(n)
        v = np.full(n, v0)
        rel = np.zeros((n, len(dates)))
        disc = np.zeros((n, len(dates)))
        for k in range(1, steps + 1):
            zr, zv, zp = rng.standard_normal((3, n))
            vp = np.maximum(v, 0)
            r = x + phi((k - 1) * dt)
            logs += (r - q - 0.5 * vp) * dt + np.sqrt(vp * dt) * (rho_sr * zr + rho_sv * zv + c * zp)
            v += kappa * (theta - vp) * dt + xi * np.sqrt(vp * dt) * zv
            x_new = x * np.exp(-a * dt) + sd_x * zr
            integral += 0.5 * (r + x_new + phi(k * dt)) * dt
            x = x_new
            if k in obs:
                rel[:, obs[k]] = np.exp(logs)
                disc[:, obs[k]] = np.exp(-integral)
        sums.append(payoff(rel, disc, *product))
    x = np.concatenate(sums)
    return x.mean(), x.std(ddof=1) / np.sqrt(len(x))


if __name__ == "__main__":
    curve = lambda t: -np.interp(t, [0.5, 1, 2], [0.02 * 0.5, 0.03 * 1, 0.045 * 2]) if t <= 2 else -0.045 * t
    flat = lambda t: -R0 * t
    print("bs-hw call 100 5y curve", bs_hw_european(100, 100, 5, 0.01, 0.2, 0.05, 0.012, 0.3, curve))
    print("bs-hw put 90 2y flat rho -0.5", bs_hw_european(100, 90, 2, 0.02, 0.25, 0.1, 0.015, -0.5, flat, call=False))
    quarterly = [0.25 * i for i in range(1, 13)]
    product = (0.02, 1.0, 0.7, 0.6, True)  # coupon, call level, coupon level, knock-in, memory
    print("autocall gbm flat", autocall_gaussian(quarterly, 0.01, 0.25, 0.05, 0.0, 0.0, product, 10_000_000, 1))
    print("autocall bs-hw", autocall_gaussian(quarterly, 0.01, 0.25, 0.05, 0.012, 0.3, product, 10_000_000, 2))
    annual = [1.0, 2.0]
    product2 = (0.06, 1.05, 0.8, 0.65, False)
    for steps in (200, 400):
        print("autocall heston-hw euler", steps, autocall_heston_hw(annual, 0.01, 0.04, 1.5, 0.04, 0.5, -0.6, 0.05, 0.01,
                                                                   0.25, product2, 4_000_000, steps, 3))
