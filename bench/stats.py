"""Statistics of timing samples and the ratios the tables show (pure functions, no timing)."""
import math


def median(samples):
    """The median of a non-empty sequence of numbers."""
    return quantile(samples, 0.5)


def quantile(samples, q):
    """The q-quantile (0 <= q <= 1) with linear interpolation between order statistics."""
    values = sorted(float(s) for s in samples)
    if not values:
        raise ValueError("no samples")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile {q} is outside [0, 1]")
    pos = q * (len(values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def summarize(seconds):
    """Median, quartiles, minimum and count of per-repetition times in seconds."""
    return {"median_s": median(seconds), "q1_s": quantile(seconds, 0.25), "q3_s": quantile(seconds, 0.75),
            "min_s": min(seconds), "reps": len(seconds)}


def time_ratio(simt_value, anchor_value, higher_is_better):
    """simt time / anchor time for one row: below 1 means simt is faster.

    Rows hold either a time (lower is better) or a rate such as GB/s (higher is better); a rate
    is inversely proportional to time, so its ratio is inverted to keep one reading everywhere."""
    if simt_value is None or anchor_value is None or simt_value <= 0 or anchor_value <= 0:
        return None
    return anchor_value / simt_value if higher_is_better else simt_value / anchor_value


def fraction_of_limit(value, limit):
    """How much of a hardware limit (copy bandwidth, cuBLAS) a rate reaches, as a fraction."""
    if value is None or limit is None or limit <= 0:
        return None
    return value / limit


def gbps(bytes_moved, seconds):
    """Bandwidth in GB/s (10**9 bytes per second)."""
    return bytes_moved / seconds / 1e9


def tflops(flops, seconds):
    return flops / seconds / 1e12


def repetitions(estimate_s, budget_s, minimum, maximum):
    """How many repetitions fit a time budget, given one call's estimated time."""
    if estimate_s <= 0:
        return maximum
    fitting = math.floor(budget_s / estimate_s + 1e-9)  # 1.0 / 0.01 is 100, though 1.0 // 0.01 is 99
    return int(max(minimum, min(maximum, fitting)))


def linear_fit(xs, ys):
    """Least-squares y = a + b*x; returns (a, b). Used to extrapolate per-element rates."""
    n = len(xs)
    if n < 2:
        raise ValueError("a fit needs at least two points")
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        raise ValueError("a fit needs at least two distinct x values")
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b
