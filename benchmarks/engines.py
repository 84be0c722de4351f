"""The reference reverse engine against autograd, PyTorch (CPU, eager) and JAX (jit).

Each case is written once against an array namespace (``numpy`` for the chainrules engine,
``autograd.numpy`` for autograd, ``torch`` for PyTorch, ``jax.numpy`` for JAX) and timed as
``value_and_grad``, all in one run, in turns, one thread per library:

(a) the scalar recurrence ``x = sin(x) * 1.01 + 0.1``, 1,000 steps (3,000 operations);
(b) the same recurrence on a vector of 1,000 elements;
(c) the loss of a 3-layer MLP of width 256 on a batch of 64;
(d) logsumexp of 10^6 elements (max, subtract, exp, sum, log).

For the recurrences it also prints the cost per recorded operation: the gradient's time
over the number of operations, and for (b) what is left above the NumPy value's own time.
Last, what Python's cyclic garbage collector does during (a) and (b) under each engine: the
collections of each generation per gradient and the time they take (the mean of 40 gradients in
a row: a full collection, which visits every object of the process, comes every few dozen), the
objects the collector tracks that are alive when the forward pass ends (the tape), what a
collection finds unreachable after the gradient (reference cycles left behind), and the time
with the collector switched off for comparison.
JAX runs the recurrence compiled (``jit``, compilation excluded): the compiled limit, which
no eager engine is expected to reach. It is always timed by the wall clock (``WALL_CLOCK``).

``--floor`` prints instead the recurrences beside the least a Python engine over NumPy can do
(``minimal_engine.py``: the operators and NumPy's hooks, a tape of two lists, pullbacks
written by hand, no checks) and the same arithmetic written by hand in NumPy: the bound under
the aim of PyTorch's time.

``--memory`` prints instead what the allocator costs each engine: the minor page faults per
gradient (memory the C library gave back to the system and then took again, each page zeroed
by the kernel), and the time, first with glibc's defaults and then with freed memory kept in
the process (``mallopt``: no trimming of the heap, no ``mmap`` below 32 MB), each case in a
process of its own. NumPy allocates each array with ``malloc``; PyTorch keeps its freed blocks
in its own cache.

``--forward`` prints instead the recurrences' forward mode: ``forward.jvp`` of chainrules
against ``torch.func.jvp`` and the value and tangent written by hand in NumPy.

``--phases`` prints instead where the recurrences' gradient time goes: the forward pass and
the backward pass of chainrules and of PyTorch, each beside hand-written NumPy doing the same
arithmetic (the value alone; the value keeping each step's input alive, as a tape must for
``sin``'s derivative; the backward pass over those inputs).

    pip install -e ".[autograd,torch,jax]"
    python benchmarks/engines.py          # wall-clock time (a quiet machine)
    python benchmarks/engines.py --cpu    # CPU time of this process (a loaded machine)
    python benchmarks/engines.py --cpu --phases
    python benchmarks/engines.py --cpu --floor
    python benchmarks/engines.py --cpu --forward
    python benchmarks/engines.py --cpu --memory
"""

from __future__ import annotations

import os

# One thread for every library, set before NumPy loads its BLAS: the ratios then compare the
# engines, not how each library spreads a matrix product over a shared machine's cores.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false")

import gc  # noqa: E402
import importlib.util  # noqa: E402
import itertools  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import autograd  # noqa: E402
import autograd.numpy as anp  # noqa: E402
import minimal_engine  # noqa: E402  (beside this script)
import numpy as np  # noqa: E402
import torch  # noqa: E402

from chainrules.engines import forward, reverse  # noqa: E402

torch.set_num_threads(1)
STEPS = 1000
OPS = 3 * STEPS  # sin, multiply, add per step


def recurrence(xp, x):
    for _ in range(STEPS):
        x = xp.sin(x) * 1.01 + 0.1
    return xp.sum(x)


def mlp_loss(xp, params, inputs, targets):
    w1, b1, w2, b2, w3, b3 = params
    hidden = xp.tanh(inputs @ w1 + b1)
    hidden = xp.tanh(hidden @ w2 + b2)
    out = hidden @ w3 + b3
    return xp.mean((out - targets) ** 2)


def logsumexp(xp, x):
    m = xp.max(x)
    return m + xp.log(xp.sum(xp.exp(x - m)))


def interleaved_best(contenders, number, rounds, timer):
    """The best time per call of each contender, timed in turns so that load hits all alike.

    Each round starts with a collection, so that no contender's time includes collecting what
    another left (the collector's own cost for each is in ``collector_report``)."""
    for fn in contenders.values():
        fn()  # warm caches, compile
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(rounds):
        for name, fn in contenders.items():
            clock = time.perf_counter if name in WALL_CLOCK else timer
            gc.collect()
            start = clock()
            for _ in range(number):
                fn()
            best[name] = min(best[name], (clock() - start) / number)
    return best


# Timed by the wall clock under --cpu as well: JAX runs its compiled program on threads of its
# own, and the process's CPU time counts their waiting too (about twice the wall time for (b)).
WALL_CLOCK = {"jax"}


def torch_value_and_grad(f, *args):
    leaves = [torch.tensor(a, requires_grad=True) for a in args]

    def run():
        for leaf in leaves:
            leaf.grad = None
        y = f(*leaves)
        y.backward()
        return y, [leaf.grad for leaf in leaves]

    return run


def jax_value_and_grad(f, *args):
    """``jit(value_and_grad(f))`` on ``args``, or None when JAX is not installed."""
    if importlib.util.find_spec("jax") is None:
        return None
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)
    compiled = jax.jit(jax.value_and_grad(lambda *a: f(jnp, *a)))
    values = [jnp.asarray(a) for a in args]
    return lambda: jax.block_until_ready(compiled(*values))


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
    vector = rng.uniform(0.0, 1.0, 1000)

    for name, x0, number in (
        ("(a) scalar recurrence", 0.5, 10),
        ("(b) vector recurrence", vector, 5),
    ):
        peers = {
            "autograd": lambda x0=x0: autograd.value_and_grad(lambda x: recurrence(anp, x))(x0),
            "torch": torch_value_and_grad(lambda x: recurrence(torch, x), np.asarray(x0)),
        }
        jitted = jax_value_and_grad(recurrence, x0)
        if jitted is not None:
            peers["jax"] = jitted
        yield (
            name,
            number,
            lambda x0=x0: recurrence(np, x0),
            lambda x0=x0: reverse.value_and_grad(lambda x: recurrence(np, x))(x0),
            peers,
        )
    yield (
        "(c) MLP 3x256, batch 64",
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
    # Drawn last, when (d) is reached: freeing an array this large makes glibc keep the
    # process's freed memory from then on (see --memory), which a case run before it would see.
    big = rng.normal(size=1_000_000)
    yield (
        "(d) logsumexp, 10^6 elements",
        5,
        lambda: logsumexp(np, big),
        lambda: reverse.value_and_grad(lambda x: logsumexp(np, x))(big),
        {
            "autograd": lambda: autograd.value_and_grad(lambda x: logsumexp(anp, x))(big),
            "torch": torch_value_and_grad(lambda x: logsumexp(torch, x), big),
        },
    )


GRADIENTS = 40  # over which collections are counted: a full one comes every few dozen


def collector_report(timer) -> None:
    """Collections, their time, tracked objects and cycles of the recurrences' gradients."""

    def counted_grad(value_and_grad, xp, x0):
        """The gradient; given ``stop``, it appends the count of tracked objects there when
        the forward pass ends."""

        def grad(stop=None):
            def f(x):
                y = recurrence(xp, x)
                if stop is not None:
                    stop.append(len(gc.get_objects()))
                return y

            return value_and_grad(f)(x0)

        return grad

    def torch_counted(x0):
        run = torch_value_and_grad(lambda x: recurrence(torch, x), np.asarray(x0))

        def grad(stop=None):
            if stop is not None:  # torch's graph is C++: its nodes are not Python objects
                stop.append(len(gc.get_objects()))
            return run()

        return grad

    collecting = {"since": 0.0, "total": 0.0}

    def timed(phase, info):
        if phase == "start":
            collecting["since"] = time.perf_counter()
        else:
            collecting["total"] += time.perf_counter() - collecting["since"]

    print()
    print(
        f"The collector tracks {len(gc.get_objects()):,} objects in this process (a full "
        f"collection visits them all). Collections and their time: the mean of {GRADIENTS} "
        f"gradients in a row."
    )
    print()
    print(
        "| case | engine | collections per gradient (gen 0/1/2) | time in collections "
        "| tracked objects alive at the end of the forward pass | unreachable after "
        "| collector on | collector off |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    vector = np.random.default_rng(0).uniform(0.0, 1.0, 1000)
    for case, x0 in (("(a) scalar", 0.5), ("(b) vector", vector)):
        for name, grad in (
            ("chainrules", counted_grad(reverse.value_and_grad, np, x0)),
            ("autograd", counted_grad(autograd.value_and_grad, anp, x0)),
            ("PyTorch", torch_counted(x0)),
        ):
            grad()
            gc.collect()
            before_counts = [g["collections"] for g in gc.get_stats()]
            baseline = len(gc.get_objects())
            stop: list[int] = []
            grad(stop)
            collecting["total"] = 0.0
            gc.callbacks.append(timed)
            try:
                for _ in range(GRADIENTS - 1):
                    grad()
            finally:
                gc.callbacks.remove(timed)
            counts = [
                (g["collections"] - b) / GRADIENTS
                for g, b in zip(gc.get_stats(), before_counts, strict=True)
            ]
            gc.disable()
            try:
                grad()
                unreachable = gc.collect()
                off = interleaved_best({"off": grad}, 5, 7, timer)["off"]
            finally:
                gc.enable()
            on = interleaved_best({"on": grad}, 5, 7, timer)["on"]
            in_collections = collecting["total"] / (GRADIENTS - 1)
            print(
                f"| {case} | {name} | {'/'.join(f'{c:.2f}' for c in counts)} "
                f"| {in_collections * 1e3:.2f} ms | {stop[0] - baseline:,} | {unreachable} "
                f"| {on * 1e3:.2f} ms | {off * 1e3:.2f} ms |"
            )


def hand_forward(x):
    """The recurrence's value in NumPy, keeping each step's input (what ``sin``'s derivative
    reads, and what a tape keeps alive until its backward pass)."""
    kept = []
    for _ in range(STEPS):
        kept.append(x)
        x = np.sin(x) * 1.01 + 0.1
    return np.sum(x), kept


def hand_backward(kept):
    """The recurrence's gradient in NumPy, from the inputs ``hand_forward`` kept: the same
    products as the engines' pullbacks (add's passes the cotangent on, multiply's scales it,
    sin's multiplies it by the cosine)."""
    g = np.ones_like(kept[-1]) if np.ndim(kept[-1]) else 1.0
    for x in reversed(kept):
        g = np.cos(x) * (g * 1.01)
    return g


def phases_report(timer, rounds: int) -> None:
    """The forward and the backward pass of the recurrences' gradients, each timed apart."""

    def torch_forward(x0):
        leaf = torch.tensor(np.asarray(x0), requires_grad=True)
        return recurrence(torch, leaf)

    def ours_forward(x0):
        return reverse.vjp(lambda x: recurrence(np, x), x0)

    print(
        "| case | phase | hand-written NumPy | chainrules | PyTorch "
        "| chainrules above hand-written, per op |"
    )
    print("|---|---|---:|---:|---:|---:|")
    vector = np.random.default_rng(0).uniform(0.0, 1.0, 1000)
    for case, x0, number in (("(a) scalar", 0.5, 10), ("(b) vector", vector, 5)):
        forward = interleaved_best(
            {
                "value": lambda x0=x0: recurrence(np, x0),
                "hand": lambda x0=x0: hand_forward(x0),
                "ours": lambda x0=x0: ours_forward(x0),
                "torch": lambda x0=x0: torch_forward(x0),
            },
            number,
            rounds,
            timer,
        )
        backward = prepared_best(
            {
                "hand": (lambda x0=x0: hand_forward(x0)[1], hand_backward),
                "ours": (lambda x0=x0: ours_forward(x0)[1], lambda pullback: pullback(1.0)),
                "torch": (lambda x0=x0: torch_forward(x0), lambda y: y.backward()),
            },
            number,
            rounds,
            timer,
        )
        rows = (
            ("forward, nothing kept", forward["value"], None, None),
            ("forward", forward["hand"], forward["ours"], forward["torch"]),
            ("backward", backward["hand"], backward["ours"], backward["torch"]),
        )
        for phase, hand, ours, peer in rows:
            ms = [f"{t * 1e3:.2f} ms" if t is not None else "-" for t in (hand, ours, peer)]
            above = f"{(ours - hand) / OPS * 1e6:.2f} us" if ours is not None else "-"
            print(f"| {case} | {phase} | {' | '.join(ms)} | {above} |")


def floor_report(timer, rounds: int) -> None:
    """The recurrences' gradient under chainrules, the minimal engine and PyTorch, beside the
    same arithmetic written by hand in NumPy; the forward pass alone as well."""
    print(
        "| case | phase | hand-written NumPy | minimal engine | chainrules | PyTorch "
        "| minimal / PyTorch | chainrules / PyTorch | chainrules above minimal, per op |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    vector = np.random.default_rng(0).uniform(0.0, 1.0, 1000)

    def f(x):
        return recurrence(np, x)

    def torch_forward(x0):
        return recurrence(torch, torch.tensor(np.asarray(x0), requires_grad=True))

    for case, x0, number in (("(a) scalar", 0.5, 10), ("(b) vector", vector, 5)):
        minimal = minimal_engine.value_and_grad(f, x0)[1]
        ours = reverse.value_and_grad(f)(x0)[1]
        np.testing.assert_allclose(minimal, ours, rtol=1e-12)  # the same gradient
        contenders = {
            "forward": {
                "hand": lambda x0=x0: hand_forward(x0),
                "minimal": lambda x0=x0: minimal_engine.vjp(f, x0),
                "ours": lambda x0=x0: reverse.vjp(f, x0),
                "torch": lambda x0=x0: torch_forward(x0),
            },
            "value and gradient": {
                "hand": lambda x0=x0: hand_backward(hand_forward(x0)[1]),
                "minimal": lambda x0=x0: minimal_engine.value_and_grad(f, x0),
                "ours": lambda x0=x0: reverse.value_and_grad(f)(x0),
                "torch": torch_value_and_grad(lambda x: recurrence(torch, x), np.asarray(x0)),
            },
        }
        for phase, fns in contenders.items():
            t = interleaved_best(fns, number, rounds, timer)
            ms = " | ".join(f"{t[k] * 1e3:.2f} ms" for k in ("hand", "minimal", "ours", "torch"))
            print(
                f"| {case} | {phase} | {ms} | {t['minimal'] / t['torch']:.2f} "
                f"| {t['ours'] / t['torch']:.2f} "
                f"| {(t['ours'] - t['minimal']) / OPS * 1e6:.2f} us |"
            )


def hand_jvp(x, dx):
    """The recurrence's value and tangent in NumPy: the products the frules compute."""
    for _ in range(STEPS):
        x, dx = np.sin(x) * 1.01 + 0.1, np.cos(x) * dx * 1.01
    return np.sum(x), np.sum(dx)


def forward_report(timer, rounds: int) -> None:
    """The recurrences' value and tangent (forward mode) under chainrules and PyTorch."""
    from torch.func import jvp

    print("| case | hand-written NumPy | chainrules `forward.jvp` | PyTorch `torch.func.jvp` "
          "| chainrules / PyTorch | chainrules per op |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|")
    vector = np.random.default_rng(0).uniform(0.0, 1.0, 1000)
    for case, x0, number in (("(a) scalar", 0.5, 10), ("(b) vector", vector, 5)):
        dx0 = np.ones_like(x0) if np.ndim(x0) else 1.0
        t0, dt0 = torch.tensor(np.asarray(x0)), torch.tensor(np.asarray(dx0))
        ours = forward.jvp(lambda x: recurrence(np, x), (x0,), (dx0,))[1]
        np.testing.assert_allclose(ours, hand_jvp(x0, dx0)[1], rtol=1e-12)
        t = interleaved_best(
            {
                "hand": lambda x0=x0, dx0=dx0: hand_jvp(x0, dx0),
                "ours": lambda x0=x0, dx0=dx0: forward.jvp(
                    lambda x: recurrence(np, x), (x0,), (dx0,)
                ),
                "torch": lambda t0=t0, dt0=dt0: jvp(lambda x: recurrence(torch, x), (t0,), (dt0,)),
            },
            number,
            rounds,
            timer,
        )
        print(
            f"| {case} | {t['hand'] * 1e3:.2f} ms | {t['ours'] * 1e3:.2f} ms "
            f"| {t['torch'] * 1e3:.2f} ms | {t['ours'] / t['torch']:.2f} "
            f"| {t['ours'] / OPS * 1e6:.2f} us |"
        )


M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's <malloc.h>


def memory_report(argv: list[str]) -> None:
    """Page faults per gradient and the time of each engine, each case in a process of its
    own (glibc adapts its thresholds to the largest blocks a process has freed, so a case
    run after another would inherit what that one did)."""
    import json
    import platform
    import subprocess

    if platform.libc_ver()[0] != "glibc":
        print("--memory needs glibc's mallopt; this C library is not glibc")
        return
    print(
        "| case | engine | page faults per gradient | time | with freed memory kept: "
        "page faults | time |"
    )
    print("|---|---|---:|---:|---:|---:|")
    for index in itertools.count():
        child = [sys.executable, __file__, "--memory-case", str(index), *argv]
        out = subprocess.run(child, capture_output=True, text=True, check=True).stdout
        found = json.loads(out.splitlines()[-1])
        if found is None:  # no case of this index
            return
        name, default, kept = found
        for engine, (count, seconds) in default.items():
            count_kept, seconds_kept = kept[engine]
            print(
                f"| {name} | {engine} | {count:,.0f} | {seconds * 1e3:.2f} ms "
                f"| {count_kept:,.0f} | {seconds_kept * 1e3:.2f} ms |"
            )


def memory_case(index: int, timer, rounds: int) -> None:
    """``--memory``'s child: case ``index``, with glibc's defaults and then with freed memory
    kept (``mallopt``: the heap never trimmed, no ``mmap`` below 32 MB), as one line of JSON
    (``null`` past the last case)."""
    import ctypes
    import json
    import resource

    def faults(fn, number):
        fn()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(number):
            fn()
        return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / number

    def measure(contenders, number):
        counted = {k: faults(fn, number) for k, fn in contenders.items()}
        timed = interleaved_best(contenders, number, rounds, timer)
        return {k: (counted[k], timed[k]) for k in contenders}

    case = next(itertools.islice(cases(), index, None), None)
    if case is None:
        print(json.dumps(None))
        return
    name, number, value, ours, peers = case
    contenders = {"NumPy value": value, "chainrules": ours, **peers}
    default = measure(contenders, number)
    mallopt = ctypes.CDLL(None).mallopt
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    if not (mallopt(M_TRIM_THRESHOLD, 2**30) and mallopt(M_MMAP_THRESHOLD, 32 * 2**20)):
        raise SystemExit("mallopt refused the settings")
    print(json.dumps([name, default, measure(contenders, number)]))


def prepared_best(contenders, number, rounds, timer):
    """The best time per call of ``run(state)`` for each contender's ``(prepare, run)``, in
    turns, with ``number`` states prepared (untimed) before each timed round."""
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(rounds):
        for name, (prepare, run) in contenders.items():
            states = [prepare() for _ in range(number)]
            gc.collect()
            start = timer()
            for state in states:
                run(state)
            best[name] = min(best[name], (timer() - start) / number)
            del states
    return best


def main(argv: list[str]) -> None:
    cpu = "--cpu" in argv
    timer = time.process_time if cpu else time.perf_counter
    rounds = 15 if cpu else 7
    print(f"torch {torch.__version__}, numpy {np.__version__}, one thread each; {timer.__name__}")
    print()
    if "--phases" in argv:
        phases_report(timer, rounds)
        return
    if "--floor" in argv:
        floor_report(timer, rounds)
        return
    if "--forward" in argv:
        forward_report(timer, rounds)
        return
    if "--memory-case" in argv:
        memory_case(int(argv[argv.index("--memory-case") + 1]), timer, rounds)
        return
    if "--memory" in argv:
        memory_report(["--cpu"] if cpu else [])
        return
    print(
        "| case | value (NumPy) | chainrules value_and_grad | autograd | PyTorch | JAX (jit) "
        "| chainrules / PyTorch | chainrules / autograd |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    per_op = []
    for name, number, value, ours, peers in cases():
        t = interleaved_best({"value": value, "ours": ours, **peers}, number, rounds, timer)
        jax_time = f"{t['jax'] * 1e3:.3f} ms" if "jax" in t else "-"
        print(
            f"| {name} | {t['value'] * 1e3:.2f} ms | {t['ours'] * 1e3:.2f} ms "
            f"| {t['autograd'] * 1e3:.2f} ms | {t['torch'] * 1e3:.2f} ms | {jax_time} "
            f"| {t['ours'] / t['torch']:.2f} | {t['ours'] / t['autograd']:.2f} |"
        )
        if "recurrence" in name:
            per_op.append((name, t))
    print()
    print("| case | per op: chainrules | autograd | PyTorch | JAX (jit) | chainrules above value |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, t in per_op:
        jax_op = f"{t['jax'] / OPS * 1e9:.0f} ns" if "jax" in t else "-"
        print(
            f"| {name} | {t['ours'] / OPS * 1e6:.2f} us | {t['autograd'] / OPS * 1e6:.2f} us "
            f"| {t['torch'] / OPS * 1e6:.2f} us | {jax_op} "
            f"| {(t['ours'] - t['value']) / OPS * 1e6:.2f} us |"
        )
    collector_report(timer)


if __name__ == "__main__":
    main(sys.argv[1:])
