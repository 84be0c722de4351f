"""Value-and-pullback time over value time for einsum, indexing and rfft, at about 10^6 elements.

For each case: ``y, pullback = rrule(f, *args); pullback(dy)`` (cotangents unthunked) against
``f(*args)`` alone (aim: 3 or less). Peers measured in the same run: PyTorch's autograd when
it is installed (forward with ``requires_grad`` then ``backward``, one thread), and for
indexing with repeated integer indices the pullback alone against ``np.add.at`` into zeros
(aim: not slower). Best of seven repeats.

    python benchmarks/arrays.py
"""

from __future__ import annotations

import numpy as np
from timing import best_time, gradient_ratio, torch_on_one_thread

import chainrules as cr

N = 1_000_000
RNG = np.random.default_rng(0)


def normal(*shape):
    return RNG.standard_normal(shape)


def getitem(x, index):
    return x[index]


MATRICES = ("ij,jk->ik", normal(1000, 1000), normal(1000, 1000))
BATCHES = ("bij,bjk->bik", normal(100, 100, 100), normal(100, 100, 100))
CASES = [
    # name, function, arguments (the differentiated ones are float arrays), keyword arguments
    ("einsum ij,jk->ik", np.einsum, MATRICES, {}),
    ("  optimize=True", np.einsum, MATRICES, {"optimize": True}),
    ("einsum bij,bjk->bik", np.einsum, BATCHES, {}),
    ("  optimize=True", np.einsum, BATCHES, {"optimize": True}),
    ("x[i], 10^6 repeated i", np.ndarray.__getitem__, (normal(N), RNG.integers(0, N, N)), {}),
    (
        "x[i], 1000 repeated rows",
        np.ndarray.__getitem__,
        (normal(1000, 1000), RNG.integers(0, 1000, 1000)),
        {},
    ),
    ("rfft 10^6", np.fft.rfft, (normal(N),), {}),
    ("rfft axis=-1 1000x1000", np.fft.rfft, (normal(1000, 1000),), {}),
]


def value_and_pullback(f, args, kwargs, dy):
    y, pullback = cr.rrule(f, *args, **kwargs)
    return y, [cr.unthunk(c) for c in pullback(dy)]


def add_at(x, index, dy):
    dx = np.zeros_like(x)
    np.add.at(dx, index, dy)
    return dx


def torch_ratio(f, args, dy):
    """PyTorch's value-and-backward time over its value time, or None without PyTorch."""
    torch = torch_on_one_thread()
    if torch is None:
        return None
    tensors = [torch.from_numpy(a) if isinstance(a, np.ndarray) else a for a in args]
    dy_t = torch.from_numpy(np.ascontiguousarray(dy))
    if f is np.einsum:
        call = torch.einsum
    elif f is np.fft.rfft:
        call = torch.fft.rfft
    else:
        call = getitem

    def value():
        with torch.no_grad():
            return call(*tensors)

    def value_and_gradient():
        inputs = [
            t.detach().requires_grad_() if torch.is_tensor(t) and t.is_floating_point() else t
            for t in tensors
        ]
        y = call(*inputs)
        y.backward(dy_t)
        return y, [t.grad for t in inputs if torch.is_tensor(t) and t.requires_grad]

    return gradient_ratio(value, value_and_gradient, number=3)


def main() -> None:
    print("best of 7; ratios are (value and pullback) / value")
    print(f"{'case':<26}{'value':>11}{'rule':>12}{'ratio':>7}{'PyTorch':>9}   np.add.at")
    for name, f, args, kwargs in CASES:
        call = getitem if f is np.ndarray.__getitem__ else f
        y = call(*args, **kwargs)
        dy = RNG.standard_normal(np.shape(y))
        if np.iscomplexobj(y):
            dy = dy + 1j * RNG.standard_normal(np.shape(y))
        value = best_time(lambda: call(*args, **kwargs), 3)  # noqa: B023
        both = best_time(lambda: value_and_pullback(f, args, kwargs, dy), 3)  # noqa: B023
        peer = torch_ratio(f, args, dy) if not kwargs else None
        peer_text = "-" if peer is None else f"{peer:.2f}"
        add_at_text = ""
        if f is np.ndarray.__getitem__:
            _, pullback = cr.rrule(f, *args)
            mine = best_time(lambda: pullback(dy), 3)  # noqa: B023
            theirs = best_time(lambda: add_at(*args, dy), 3)  # noqa: B023
            add_at_text = f"{theirs * 1e3:.2f} ms (pullback alone {mine * 1e3:.2f} ms)"
        print(
            f"{name:<26}{value * 1e3:>8.2f} ms{both * 1e3:>9.2f} ms{both / value:>7.2f}"
            f"{peer_text:>9}   {add_at_text}"
        )


if __name__ == "__main__":
    main()
