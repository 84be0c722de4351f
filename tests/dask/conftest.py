"""A real ``dask.distributed`` cluster for the dask tests: two worker processes, one thread
each, started once per session and closed at its end."""

import pytest


@pytest.fixture(scope="session")
def cluster_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        memory_limit="1GiB",
    )
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()
