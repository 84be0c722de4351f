"""Calibration: the verdict from two times, the cache's key and place, and publishing results
safely when processes share the cache."""

import json
import threading

import numpy as np
import pytest

from chainrules.fastmath import calibration
from chainrules.fastmath._bits import COMPILED
from chainrules.fastmath.calibration import Measured

# A calibration names its machine by the CPU numba compiles for.
needs_numba = pytest.mark.skipif(not COMPILED, reason="numba is not installed: no calibration")


def test_the_kernel_runs_where_it_is_at_least_ten_percent_faster():
    assert Measured(1.0, 1.1).kernel and Measured(1.0, 4.0).kernel
    assert not Measured(1.0, 1.09).kernel and not Measured(2.0, 1.0).kernel
    assert Measured(2.0, 1.0).speedup == 0.5


def test_measure_times_the_kernel_and_the_twin():
    measured = calibration.measure("exp", np.float32, n=256, rounds=2)
    assert measured.kernel_seconds > 0 and measured.twin_seconds > 0


def test_the_first_publisher_wins(tmp_path):
    path = tmp_path / "exp-float32.json"
    first, second = Measured(1.0, 2.0), Measured(3.0, 1.0)
    assert calibration.publish(path, first) == first
    assert calibration.publish(path, second) == first  # adopted: one choice per machine
    assert calibration.publish(path, second, replace=True) == second
    assert json.loads(path.read_text()) == {"kernel_seconds": 3.0, "twin_seconds": 1.0}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exp-float32.json"]


@pytest.mark.parametrize(
    "content",
    ["", "{", '{"kernel_seconds": 1.0}', "[1, 2]", '{"kernel_seconds": -1.0, "twin_seconds": 1.0}'],
)
def test_an_unreadable_result_is_replaced(tmp_path, content):
    path = tmp_path / "exp-float32.json"
    path.write_text(content)
    assert calibration.publish(path, Measured(1.0, 2.0)) == Measured(1.0, 2.0)
    assert calibration.publish(path, Measured(5.0, 1.0)) == Measured(1.0, 2.0)


def test_processes_publishing_at_once_all_adopt_one_result(tmp_path):
    path = tmp_path / "log-float64.json"
    start = threading.Barrier(8)
    adopted = [None] * 8

    def publisher(i):
        start.wait()
        adopted[i] = calibration.publish(path, Measured(1.0 + i, 2.0))

    threads = [threading.Thread(target=publisher, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    on_disk = json.loads(path.read_text())
    assert set(adopted) == {Measured(on_disk["kernel_seconds"], on_disk["twin_seconds"])}


@needs_numba
def test_the_cache_directory_is_named_by_the_machine(monkeypatch, tmp_path):
    monkeypatch.setenv(calibration.CACHE_VARIABLE, str(tmp_path))
    here = calibration.machine()
    assert here["versions"]["numpy"] == np.__version__ and here["cpu"]
    directory = calibration.machine_directory()
    assert directory.parent == tmp_path / "fastmath"
    other = {**here, "cpu": here["cpu"] + "-other"}
    monkeypatch.setattr(calibration, "machine", lambda: other)
    assert calibration.machine_directory() != directory
    monkeypatch.setattr(calibration, "machine", lambda: dict(here))
    assert calibration.machine_directory() == directory


def test_the_cache_root_follows_the_platform_convention(monkeypatch, tmp_path):
    monkeypatch.delenv(calibration.CACHE_VARIABLE, raising=False)
    monkeypatch.setattr(calibration.sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert calibration.cache_root() == tmp_path / "chainrules" / "fastmath"
    monkeypatch.setenv(calibration.CACHE_VARIABLE, str(tmp_path / "mine"))
    assert calibration.cache_root() == tmp_path / "mine" / "fastmath"


@needs_numba
def test_a_writable_directory_describes_its_machine(monkeypatch, tmp_path):
    monkeypatch.setenv(calibration.CACHE_VARIABLE, str(tmp_path))
    directory = calibration.writable_directory()
    assert directory == calibration.machine_directory()
    assert json.loads((directory / "machine.json").read_text()) == json.loads(
        json.dumps(calibration.machine())
    )
