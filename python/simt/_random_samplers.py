"""Device functions that draw one variate of a distribution from a counter-based stream: element
`e` of a call draws its j-th uniform from Philox4x32-10 keyed by the generator's seed, with the
counter (j, e). Rejection samplers (gamma, Poisson, binomial) draw as many as they need, so each
element owns a whole range of j; composite samplers start their parts at distant j. The same
element of the same call gives the same variate on every backend."""
import math

import numpy as np

from . import cuda

_MASK = np.uint64(0xFFFFFFFF)
_PART = np.uint64(1 << 40)  # where a composite sampler's second part starts drawing


@cuda.jit(device=True)
def philox_bits(k0, k1, c0, c1, c2, c3):
    """64 random bits: two words of Philox4x32-10 of counter (c0..c3) under key (k0, k1), all
    uint64 holding 32-bit values."""
    for _ in range(10):
        p0 = np.uint64(0xD2511F53) * c0
        p1 = np.uint64(0xCD9E8D57) * c2
        n0 = ((p1 >> np.uint64(32)) ^ c1 ^ k0) & _MASK
        n2 = ((p0 >> np.uint64(32)) ^ c3 ^ k1) & _MASK
        c1 = p1 & _MASK
        c3 = p0 & _MASK
        c0 = n0
        c2 = n2
        k0 = (k0 + np.uint64(0x9E3779B9)) & _MASK
        k1 = (k1 + np.uint64(0xBB67AE85)) & _MASK
    return (c0 << np.uint64(32)) | c1


@cuda.jit(device=True)
def uniform(k0, k1, e, j):
    """Draw j of element e: a float64 in [0, 1) with 53 random bits."""
    bits = philox_bits(k0, k1, j & _MASK, j >> np.uint64(32), e & _MASK, e >> np.uint64(32))
    return np.float64(bits >> np.uint64(11)) * 1.1102230246251565e-16


@cuda.jit(device=True)
def open_uniform(k0, k1, e, j):
    """A float64 in (0, 1]: logarithms of it are finite."""
    return 1.0 - uniform(k0, k1, e, j)


@cuda.jit(device=True)
def normal(k0, k1, e, j):
    """A standard normal variate from draws j and j + 1 (Box-Muller)."""
    r = math.sqrt(-2.0 * math.log(open_uniform(k0, k1, e, j)))
    return r * math.cos(6.283185307179586 * uniform(k0, k1, e, j + np.uint64(1)))


@cuda.jit(device=True)
def standard_gamma(shape, k0, k1, e, j):
    """Gamma(shape, 1) from draws j, j + 1, ... (Marsaglia and Tsang's squeeze and rejection; for
    shape < 1, Gamma(shape + 1) * U**(1 / shape))."""
    if not shape > 0.0:
        return 0.0 if shape == 0.0 else shape  # (0 gives 0; NaN gives NaN rather than never accepting)
    boost = 1.0
    a = shape
    if shape < 1.0:
        boost = math.exp(math.log(open_uniform(k0, k1, e, j)) / shape)
        j += np.uint64(1)
        a = shape + 1.0
    d = a - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        x = normal(k0, k1, e, j)
        j += np.uint64(2)
        v = 1.0 + c * x
        if v > 0.0:
            v = v * v * v
            u = open_uniform(k0, k1, e, j)
            j += np.uint64(1)
            if u < 1.0 - 0.0331 * (x * x) * (x * x):
                return d * v * boost
            if math.log(u) < 0.5 * x * x + d * (1.0 - v + math.log(v)):
                return d * v * boost


@cuda.jit(device=True)
def poisson(lam, k0, k1, e, j):
    """Poisson(lam): multiplying uniforms below lam = 10, else Hormann's transformed rejection
    with squeeze (PTRS)."""
    if lam <= 0.0:
        return np.int64(0)
    if lam < 10.0:
        limit = math.exp(-lam)
        prod = open_uniform(k0, k1, e, j)
        k = np.int64(0)
        while prod > limit:
            j += np.uint64(1)
            prod *= open_uniform(k0, k1, e, j)
            k += 1
        return k
    slam = math.sqrt(lam)
    loglam = math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2.0)
    while True:
        u = uniform(k0, k1, e, j) - 0.5
        v = open_uniform(k0, k1, e, j + np.uint64(1))
        j += np.uint64(2)
        us = 0.5 - abs(u)
        k = math.floor((2.0 * a / us + b) * u + lam + 0.43)
        if us >= 0.07 and v <= vr:
            return np.int64(k)
        if k >= 0.0 and not (us < 0.013 and v > us):
            if math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b) <= -lam + k * loglam - math.lgamma(k + 1.0):
                return np.int64(k)


@cuda.jit(device=True)
def binomial_at_most_half(n, p, k0, k1, e, j):
    """Binomial(n, p) for p <= 1/2: inversion for a mean below 14, else Hormann's BTRS."""
    q = 1.0 - p
    if n * p < 14.0:
        s = p / q
        a = (n + 1.0) * s
        while True:
            r = math.exp(n * math.log1p(-p))
            u = uniform(k0, k1, e, j)
            j += np.uint64(1)
            x = 0.0
            while u > r and x <= n:
                u -= r
                x += 1.0
                r *= a / x - s
            if x <= n:
                return np.int64(x)
    spq = math.sqrt(n * p * q)
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    vr = 0.92 - 4.2 / b
    alpha = (2.83 + 5.1 / b) * spq
    lpq = math.log(p / q)
    m = math.floor((n + 1.0) * p)
    h = math.lgamma(m + 1.0) + math.lgamma(n - m + 1.0)
    while True:
        u = uniform(k0, k1, e, j) - 0.5
        v = open_uniform(k0, k1, e, j + np.uint64(1))
        j += np.uint64(2)
        us = 0.5 - abs(u)
        k = math.floor((2.0 * a / us + b) * u + c)
        if k >= 0.0 and k <= n:
            if us >= 0.07 and v <= vr:
                return np.int64(k)
            w = math.log(v * alpha / (a / (us * us) + b))
            if w <= h - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0) + (k - m) * lpq:
                return np.int64(k)


@cuda.jit(device=True)
def binomial(n, p, k0, k1, e, j):
    if n <= 0.0 or p <= 0.0:
        return np.int64(0)
    if p >= 1.0:
        return np.int64(n)
    if p > 0.5:
        return np.int64(n) - binomial_at_most_half(n, 1.0 - p, k0, k1, e, j)
    return binomial_at_most_half(n, p, k0, k1, e, j)


# ---- one sampler per distribution: (parameters..., k0, k1, e) -> variate ----------------------
@cuda.jit(device=True)
def s_standard_gamma(shape, k0, k1, e):
    return standard_gamma(shape, k0, k1, e, np.uint64(0))


@cuda.jit(device=True)
def s_gamma(shape, scale, k0, k1, e):
    return scale * standard_gamma(shape, k0, k1, e, np.uint64(0))


@cuda.jit(device=True)
def s_beta(a, b, k0, k1, e):
    if a <= 1.0 and b <= 1.0:
        # Johnk's method: U**(1/a) / (U**(1/a) + V**(1/b)) given that sum is at most 1, in logs
        # where both powers underflow (tiny a and b put nearly all mass next to 0 and 1).
        j = np.uint64(0)
        while True:
            u = open_uniform(k0, k1, e, j)
            v = open_uniform(k0, k1, e, j + np.uint64(1))
            j += np.uint64(2)
            x = math.pow(u, 1.0 / a)
            y = math.pow(v, 1.0 / b)
            if x + y <= 1.0:
                if x + y > 0.0:
                    return x / (x + y)
                lx = math.log(u) / a
                ly = math.log(v) / b
                top = max(lx, ly)
                lx -= top
                ly -= top
                return math.exp(lx - math.log(math.exp(lx) + math.exp(ly)))
    x = standard_gamma(a, k0, k1, e, np.uint64(0))
    y = standard_gamma(b, k0, k1, e, _PART)
    return x / (x + y)


@cuda.jit(device=True)
def s_chisquare(df, k0, k1, e):
    return 2.0 * standard_gamma(0.5 * df, k0, k1, e, np.uint64(0))


@cuda.jit(device=True)
def s_standard_t(df, k0, k1, e):
    z = normal(k0, k1, e, _PART)
    return z / math.sqrt(2.0 * standard_gamma(0.5 * df, k0, k1, e, np.uint64(0)) / df)


@cuda.jit(device=True)
def s_f(dfnum, dfden, k0, k1, e):
    num = 2.0 * standard_gamma(0.5 * dfnum, k0, k1, e, np.uint64(0)) / dfnum
    return num / (2.0 * standard_gamma(0.5 * dfden, k0, k1, e, _PART) / dfden)


@cuda.jit(device=True)
def s_lognormal(mean, sigma, k0, k1, e):
    return math.exp(mean + sigma * normal(k0, k1, e, np.uint64(0)))


@cuda.jit(device=True)
def s_laplace(loc, scale, k0, k1, e):
    j = np.uint64(0)
    u = uniform(k0, k1, e, j)
    while u == 0.0:  # log(0): draw again
        j += np.uint64(1)
        u = uniform(k0, k1, e, j)
    if u >= 0.5:
        return loc - scale * math.log(2.0 - u - u)
    return loc + scale * math.log(u + u)


@cuda.jit(device=True)
def s_logistic(loc, scale, k0, k1, e):
    j = np.uint64(0)
    u = uniform(k0, k1, e, j)
    while u == 0.0:
        j += np.uint64(1)
        u = uniform(k0, k1, e, j)
    return loc + scale * math.log(u / (1.0 - u))


@cuda.jit(device=True)
def s_gumbel(loc, scale, k0, k1, e):
    j = np.uint64(0)
    u = open_uniform(k0, k1, e, j)
    while u == 1.0:  # -log(-log(1)) is infinite: draw again
        j += np.uint64(1)
        u = open_uniform(k0, k1, e, j)
    return loc - scale * math.log(-math.log(u))


@cuda.jit(device=True)
def s_rayleigh(scale, k0, k1, e):
    return scale * math.sqrt(-2.0 * math.log(open_uniform(k0, k1, e, np.uint64(0))))


@cuda.jit(device=True)
def s_weibull(a, k0, k1, e):
    if a == 0.0:
        return 0.0
    return math.pow(-math.log(open_uniform(k0, k1, e, np.uint64(0))), 1.0 / a)


@cuda.jit(device=True)
def s_pareto(a, k0, k1, e):
    return math.expm1(-math.log(open_uniform(k0, k1, e, np.uint64(0))) / a)


@cuda.jit(device=True)
def s_power(a, k0, k1, e):
    return math.pow(-math.expm1(math.log(open_uniform(k0, k1, e, np.uint64(0)))), 1.0 / a)


@cuda.jit(device=True)
def s_standard_cauchy(k0, k1, e):
    return normal(k0, k1, e, np.uint64(0)) / normal(k0, k1, e, _PART)


@cuda.jit(device=True)
def s_triangular(left, mode, right, k0, k1, e):
    u = uniform(k0, k1, e, np.uint64(0))
    base = right - left
    left_base = mode - left
    if u <= left_base / base:
        return left + math.sqrt(u * base * left_base)
    return right - math.sqrt((1.0 - u) * base * (right - mode))


@cuda.jit(device=True)
def s_wald(mean, scale, k0, k1, e):
    y = normal(k0, k1, e, np.uint64(0))
    y = mean * y * y
    # mean + mean / (2 scale) * (y - sqrt(4 scale y + y^2)), without the cancellation when y >> scale
    x = mean - 2.0 * mean * y / (y + math.sqrt(4.0 * scale * y + y * y))
    if uniform(k0, k1, e, np.uint64(2)) <= mean / (mean + x):
        return x
    return mean * mean / x


@cuda.jit(device=True)
def s_poisson(lam, k0, k1, e):
    return poisson(lam, k0, k1, e, np.uint64(0))


@cuda.jit(device=True)
def s_binomial(n, p, k0, k1, e):
    return binomial(np.float64(np.int64(n)), p, k0, k1, e, np.uint64(0))  # NumPy's n is an integer


@cuda.jit(device=True)
def s_negative_binomial(n, p, k0, k1, e):
    if p >= 1.0:
        return np.int64(0)
    lam = standard_gamma(n, k0, k1, e, np.uint64(0)) * (1.0 - p) / p
    if lam >= 9.2e18:  # (tiny p) past int64: saturate
        return np.int64(9223372036854775807)
    return poisson(lam, k0, k1, e, _PART)


@cuda.jit(device=True)
def s_geometric(p, k0, k1, e):
    if p >= 1.0:
        return np.int64(1)
    x = math.log(open_uniform(k0, k1, e, np.uint64(0))) / math.log1p(-p)
    if x >= 9.2e18:  # past int64: saturate, as NumPy's Generator does
        return np.int64(9223372036854775807)
    return max(np.int64(math.ceil(x)), np.int64(1))  # (a uniform of exactly 1 would give 0)


# ---- von Mises, Zipf, noncentral chi-square, hypergeometric ------------------------------------
_TWO_PI = 6.283185307179586


@cuda.jit(device=True)
def s_vonmises(mu, kappa, k0, k1, e):
    """Best and Fisher's wrapped-Cauchy rejection; uniform angles for kappa < 1e-8 and a wrapped
    normal past kappa = 1e6 (where the two agree to double precision). In [-pi, pi]."""
    if kappa != kappa:
        return kappa
    if kappa < 1e-8:
        return math.pi * (2.0 * uniform(k0, k1, e, np.uint64(0)) - 1.0)
    if kappa > 1e6:
        x = mu + normal(k0, k1, e, np.uint64(0)) / math.sqrt(kappa)
    else:
        if kappa < 1e-5:  # (the exact s below loses its digits to cancellation)
            s = 1.0 / kappa + kappa
        else:
            r = 1.0 + math.sqrt(1.0 + 4.0 * kappa * kappa)
            rho = (r - math.sqrt(2.0 * r)) / (2.0 * kappa)
            s = (1.0 + rho * rho) / (2.0 * rho)
        j = np.uint64(0)
        while True:
            u = uniform(k0, k1, e, j)
            v = open_uniform(k0, k1, e, j + np.uint64(1))
            j += np.uint64(2)
            z = math.cos(math.pi * u)
            w = (1.0 + s * z) / (s + z)
            y = kappa * (s - w)
            if y * (2.0 - y) - v >= 0.0:
                break
            if y > 0.0 and math.log(y / v) + 1.0 - y >= 0.0:
                break
        w = min(1.0, max(-1.0, w))
        x = math.acos(w)
        if uniform(k0, k1, e, j) < 0.5:
            x = -x
        x = x + mu
    # wrap into [-pi, pi], keeping the sign as NumPy does
    m = math.fmod(abs(x) + math.pi, _TWO_PI) - math.pi
    return -m if x < 0.0 else m


@cuda.jit(device=True)
def s_zipf(a, k0, k1, e):
    """Devroye's rejection from the continuous Pareto-like envelope (k >= 1)."""
    am1 = a - 1.0
    b = math.pow(2.0, am1)
    j = np.uint64(0)
    while True:
        u = open_uniform(k0, k1, e, j)
        v = uniform(k0, k1, e, j + np.uint64(1))
        j += np.uint64(2)
        x = math.floor(math.pow(u, -1.0 / am1))
        if x > 9.2e18 or x < 1.0:  # past int64 (or a rounding to 0): draw again, as NumPy does
            continue
        t = math.pow(1.0 + 1.0 / x, am1)
        if v * x * (t - 1.0) / (b - 1.0) <= t / b:
            return np.int64(x)


@cuda.jit(device=True)
def s_noncentral_chisquare(df, nonc, k0, k1, e):
    """A chi-square of df - 1 degrees plus a squared normal of mean sqrt(nonc) (df > 1), else a
    chi-square of df + 2 Poisson(nonc / 2) degrees."""
    if nonc != nonc:
        return nonc
    if nonc == 0.0:
        return 2.0 * standard_gamma(0.5 * df, k0, k1, e, np.uint64(0))
    if df > 1.0:
        chi = 2.0 * standard_gamma(0.5 * (df - 1.0), k0, k1, e, np.uint64(0))
        z = normal(k0, k1, e, _PART) + math.sqrt(nonc)
        return chi + z * z
    i = poisson(0.5 * nonc, k0, k1, e, _PART)
    return 2.0 * standard_gamma(0.5 * df + np.float64(i), k0, k1, e, np.uint64(0))


@cuda.jit(device=True)
def hypergeometric_count(good, bad, m, k0, k1, e):
    """How many of m draws (without replacement) from good + bad items are of the smaller kind:
    one draw at a time for small m, else Stadlober's ratio-of-uniforms (HRUA) rejection."""
    total = good + bad
    small = min(good, bad)
    large = max(good, bad)
    j = np.uint64(0)
    if m < 30.0:
        left_small = small
        left = total
        k = 0.0
        for _ in range(np.int64(m)):
            if uniform(k0, k1, e, j) * left < left_small:
                left_small -= 1.0
                k += 1.0
            left -= 1.0
            j += np.uint64(1)
        return k
    p = small / total
    q = large / total
    mean = m * p
    a = mean + 0.5
    var = (total - m) * m * p * q / (total - 1.0)
    c = math.sqrt(var + 0.5)
    h = 1.7155277699214135 * c + 0.8989161620588988  # 2 sqrt(2/e) c + 3 - 2 sqrt(3/e)
    mode = math.floor((m + 1.0) * (small + 1.0) / (total + 2.0))
    g = (math.lgamma(mode + 1.0) + math.lgamma(small - mode + 1.0) + math.lgamma(m - mode + 1.0)
         + math.lgamma(large - m + mode + 1.0))
    top = min(min(m, small) + 1.0, math.floor(a + 16.0 * c))
    while True:
        u = open_uniform(k0, k1, e, j)
        v = uniform(k0, k1, e, j + np.uint64(1))
        j += np.uint64(2)
        x = a + h * (v - 0.5) / u
        if x < 0.0 or x >= top:
            continue
        k = math.floor(x)
        t = g - (math.lgamma(k + 1.0) + math.lgamma(small - k + 1.0) + math.lgamma(m - k + 1.0)
                 + math.lgamma(large - m + k + 1.0))
        if u * (4.0 - u) - 3.0 <= t:
            return k
        if u * (u - t) >= 1.0:
            continue
        if 2.0 * math.log(u) <= t:
            return k


@cuda.jit(device=True)
def s_hypergeometric(ngood, nbad, nsample, k0, k1, e):
    """The good items among nsample drawn without replacement from ngood good and nbad bad ones
    (NumPy's parameters are integers: fractions are dropped)."""
    good = math.floor(ngood)
    bad = math.floor(nbad)
    n = math.floor(nsample)
    m = min(n, good + bad - n)  # draw the smaller of the sample and what it leaves behind
    k = hypergeometric_count(good, bad, m, k0, k1, e)
    if good > bad:
        k = m - k
    if m < n:
        k = good - k
    return np.int64(k)
