"""The reference reverse engine against autograd and PyTorch (CPU, eager) on the same functions.

Three reverse-mode gradients, each written once against an array namespace (``numpy`` for the
chainrules engine, ``autograd.numpy`` for autograd, ``torch`` for PyTorch):

(a) a 1,000-step scalar recurrence, (b) the loss of a 3-layer MLP of width 256 on a batch of
64, (c) logsumexp of 10^6 elements (max, subtract, exp, sum, log). For each: the time of the
plain NumPy value, of ``value_and_grad`` under each engine (best of several repeats, all in
one run, in turns, one thread per library), the ratio of the chainrules engine to its peer, and
value_and_grad / value.

    pip install -e ".[autograd,torch]"
    python benchmarks/engines.py
"""

from __future__ import annotations

import os

# One thread for every library, set before NumPy loads its BLAS: the ratios then compare the
# engines, not how each library spreads a matrix product over a shared machine's cores.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import time  # noqa: E402

import autograd  # noqa: E402
import autograd.numpy as anp  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

from chainrules.engines import reverse  # noqa: E402

torch.set_num_threads(1)


def recurrence(xp, x):
    for _ in range(1000):
        x = xp.sin(x) * 0.9 + 0.1 * x
    return x


def mlp_loss(xp, params, inputs, targets):
    w1, b1, w2, b2, w3, b3 = params
    hidden = xp.tanh(inputs @ w1 + b1)
    hidden = xp.tanh(hidden @ w2 + b2)
    out = hidden @ w3 + b3
    return xp.mean((out - targets) ** 2)


def logsumexp(xp, x):
    m = xp.max(x)
    return m + xp.log(xp.sum(xp.exp(x - m)))


def interleaved_best(contenders, number, rounds=7):
    """The best time per call of each contender, timed in turns so that load hits all alike."""
    for fn in contenders.values():
        fn()  # warm caches
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(rounds):
        for name, fn in contenders.items():
            start = time.perf_counter()
            for _ in range(number):
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / number)
    return best


def torch_value_and_grad(f, *args):
    leaves = [torch.tensor(a, requires_grad=True) for a in args]

    def run():
        for leaf in leaves:
            leaf.grad = None
        y = f(*leaves)
        y.backward()
        return y, [leaf.grad for leaf in leaves]

    return run


def cases():
    rng = np.random.default_rng(0)
    width, batch = 256, 64
    params = tuple(
        p
        for _ in range(3)
        for p in (rng.normal(size=(width, width)) / np.sqrt(width), rng.normal(size=width) * 0.1)
    )
    inputs, targets = rng.normal(size=(batch, width)), rng.normal(size=(batch, width))
    t_inputs, t_targets = torch.tensor(inputs), torch.tensor(targets)
    big = rng.normal(size=1_000_000)

    yield (
        "(a) scalar recurrence, 1,000 steps",
        "autograd",
        20,
        lambda: recurrence(np, 0.5),
        lambda: reverse.value_and_grad(lambda x: recurrence(np, x))(0.5),
        {
            "autograd": lambda: autograd.value_and_grad(lambda x: recurrence(anp, x))(0.5),
            "torch": torch_value_and_grad(lambda x: recurrence(torch, x), np.array(0.5)),
        },
    )
    yield (
        "(b) MLP 3x256, batch 64",
        "torch",
        20,
        lambda: mlp_loss(np, params, inputs, targets),
        lambda: reverse.value_and_grad(lambda p: mlp_loss(np, p, inputs, targets))(params),
        {
            "autograd": lambda: autograd.value_and_grad(
                lambda p: mlp_loss(anp, p, inputs, targets)
            )(params),
            "torch": torch_value_and_grad(
                lambda *p: mlp_loss(torch, p, t_inputs, t_targets), *params
            ),
        },
    )
    yield (
        "(c) logsumexp, 10^6 elements",
        "torch",
        5,
        lambda: logsumexp(np, big),
        lambda: reverse.value_and_grad(lambda x: logsumexp(np, x))(big),
        {
            "autograd": lambda: autograd.value_and_grad(lambda x: logsumexp(anp, x))(big),
            "torch": torch_value_and_grad(lambda x: logsumexp(torch, x), big),
        },
    )


def main() -> None:
    print(f"torch {torch.__version__}, numpy {np.__version__}, one thread each")
    print()
    print(
        "| case | value (NumPy) | chainrules value_and_grad | autograd | PyTorch "
        "| chainrules / peer | value_and_grad / value |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, peer, number, value, ours, peers in cases():
        t = interleaved_best({"value": value, "ours": ours, **peers}, number)
        print(
            f"| {name} | {t['value'] * 1e3:.2f} ms | {t['ours'] * 1e3:.2f} ms "
            f"| {t['autograd'] * 1e3:.2f} ms | {t['torch'] * 1e3:.2f} ms "
            f"| {t['ours'] / t[peer]:.2f} ({peer}) | {t['ours'] / t['value']:.2f} |"
        )


if __name__ == "__main__":
    main()
