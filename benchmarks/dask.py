"""The gradient of a logistic loss over data larger than the workers' memory, on a dask cluster.

``X`` is 10^7 x 16 float64 (1.28 GB) and ``y`` 10^7 labels, drawn chunk by chunk on the workers
(chunks of 2.5e5 rows, 32 MB), never held whole anywhere: a ``LocalCluster`` of two worker
processes, one thread each, with a memory limit of 512 MiB per worker (1 GiB in all, below the
data's size). Three computations over the same data, each a full pass (drawing the chunks
again, as reading them from disk would):

* the loss alone, ``sum(logaddexp(0, X @ w) - y * (X @ w)) / n``;
* its gradient in ``w`` by the reference reverse engine, ``reverse.grad(loss)(w, X, y)``;
* the gradient written by hand in dask, ``X.T @ (expit(X @ w) - y) / n``: the peer.

Reported: the best time of each (in turns, so that the machine's load hits all alike), the
ratios gradient / loss and gradient / hand-written, the largest difference between the two
gradients, and the peak memory of each worker process during each computation, from the
cluster's own accounting (each worker's system monitor, which samples its process's memory).

    pip install -e ".[dask]"
    python benchmarks/dask.py [rows]
"""

from __future__ import annotations

import os
import sys

# This file is named dask.py: as a script, its folder comes first on the path and would stand
# in for the dask package.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]

# One thread for NumPy's BLAS in each worker: the workers are the parallelism.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import time  # noqa: E402

import dask  # noqa: E402
import dask.array as da  # noqa: E402
import numpy as np  # noqa: E402
import scipy.special as sc  # noqa: E402
from dask.distributed import Client, LocalCluster, get_task_stream  # noqa: E402

from chainrules.engines import reverse  # noqa: E402

COLUMNS, CHUNK_ROWS = 16, 250_000
MEMORY_LIMIT = "512MiB"
ROUNDS = 3


def loss(w, x, y):
    z = x @ w
    return np.sum(np.logaddexp(0, z) - y * z) / x.shape[0]


def hand_written_gradient(w, x, y):
    return x.T @ (sc.expit(x @ w) - y) / x.shape[0]


def data(rows):
    rng = da.random.default_rng(0)
    x = rng.standard_normal((rows, COLUMNS), chunks=(CHUNK_ROWS, COLUMNS))
    y = (rng.random(rows, chunks=CHUNK_ROWS) < 0.5).astype(float)
    return x, y


def peak_memory_since(client, start):
    """Each worker's largest sampled process memory (bytes) since ``start`` (its clock)."""

    def peak(dask_worker, start=start):
        quantities = dask_worker.monitor.quantities
        samples = [
            m for m, t in zip(quantities["memory"], quantities["time"], strict=True) if t >= start
        ]
        return max(samples, default=0)

    return client.run(peak)


def time_per_operation(stream):
    """Task time summed by operation (the name before the token of each task's key)."""
    totals = {}
    for task in stream:
        key = task["key"][0] if isinstance(task["key"], tuple) else task["key"]
        operation = str(key).rsplit("-", 1)[0]
        for part in task["startstops"]:
            if part["action"] == "compute":
                totals[operation] = totals.get(operation, 0.0) + part["stop"] - part["start"]
    return totals


def worker_clock(client):
    return min(client.run(time.time).values())


def main(rows=10_000_000):
    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        memory_limit=MEMORY_LIMIT,
        dashboard_address=None,
    )
    client = Client(cluster)
    try:
        run(client, rows)
    finally:
        client.close()
        cluster.close()


def run(client, rows):
    x, y = data(rows)
    w = np.random.default_rng(1).standard_normal(COLUMNS) / 4
    size = x.nbytes / 1e9
    built = time.perf_counter()
    gradient = reverse.grad(loss)(w, x, y)
    built = time.perf_counter() - built
    contenders = {
        "loss alone": loss(w, x, y),
        "chainrules gradient": gradient,
        "hand-written gradient": hand_written_gradient(w, x, y),
    }
    best = dict.fromkeys(contenders, float("inf"))
    peaks = {name: {} for name in contenders}
    busy = {}
    results = {}
    for _ in range(ROUNDS):
        for name, lazy in contenders.items():
            start = worker_clock(client)
            begin = time.perf_counter()
            with get_task_stream(client) as stream:
                (results[name],) = dask.compute(lazy)
            best[name] = min(best[name], time.perf_counter() - begin)
            busy[name] = time_per_operation(stream.data)
            time.sleep(1.0)  # one more sample of the monitor after the end
            for worker, peak in peak_memory_since(client, start).items():
                peaks[name][worker] = max(peaks[name].get(worker, 0), peak)
    difference = np.max(np.abs(results["chainrules gradient"] - results["hand-written gradient"]))
    scale = np.max(np.abs(results["hand-written gradient"]))
    print(
        f"X: {rows} x {COLUMNS} float64 ({size:.2f} GB) in chunks of {CHUNK_ROWS} rows "
        f"({CHUNK_ROWS * COLUMNS * 8 / 2**20:.0f} MiB); 2 workers x 1 thread, memory limit "
        f"{MEMORY_LIMIT} each; best of {ROUNDS}"
    )
    print(
        f"building the gradient's graph (tracing): {built * 1e3:.0f} ms, "
        f"{len(gradient.__dask_graph__())} tasks"
    )
    for name in contenders:
        peak = ", ".join(f"{p / 2**20:.0f}" for p in sorted(peaks[name].values()))
        print(f"  {name:<22} {best[name]:7.2f} s   peak worker memory (MiB): {peak}")
    print("where the workers' time goes (last round, seconds of task time, largest first):")
    for name in contenders:
        top = sorted(busy[name].items(), key=lambda item: -item[1])[:5]
        print(f"  {name:<22} " + ", ".join(f"{op} {seconds:.1f}" for op, seconds in top))
    print(f"gradient / loss:         {best['chainrules gradient'] / best['loss alone']:.2f}")
    print(
        f"gradient / hand-written: "
        f"{best['chainrules gradient'] / best['hand-written gradient']:.2f}"
    )
    print(
        f"largest difference of the gradients: {difference:.1e} (relative {difference / scale:.1e})"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000)
