"""Games on a Dask distributed cluster: a local cluster of processes on 127.0.0.1."""

from __future__ import annotations

import multiprocessing
import sys

import pytest

from mhp_cards.catalog.models import Catalog
from mhp_cards.errors import SimulationError
from mhp_cards.sim import cluster, simulate
from mhp_cards.sim.cluster import INSTALL_HINT, local_workers


def _without_timing(document: dict) -> dict:
    return {key: value for key, value in document.items() if key != "games_per_second"}


def test_a_local_dask_cluster_gives_the_single_process_aggregate(catalog: Catalog) -> None:
    args = {
        "level": "2",
        "players": 3,
        "games": 10,
        "seed": 8,
        "policies": ("greedy", "random", "greedy"),
        "max_steps": 400,
    }
    alone = simulate(catalog, workers=1, **args).to_json()
    pooled = simulate(catalog, workers=2, **args).to_json()
    progress: list[int] = []
    on_dask = simulate(catalog, dask="local:2", progress=progress.append, **args).to_json()
    assert _without_timing(on_dask) == _without_timing(alone) == _without_timing(pooled)
    assert progress[-1] == 10
    assert progress == sorted(progress)
    assert multiprocessing.active_children() == []  # the local cluster was stopped after
    assert alone["curves"]["playing"][0] == 10  # the per-round data came back too


def test_a_scheduler_address_is_reached_by_the_client(catalog: Catalog) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as local:
        address = local.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        remote = simulate(catalog, "1", 2, 4, seed=3, max_steps=300, dask=address).to_json()
    alone = simulate(catalog, "1", 2, 4, seed=3, max_steps=300, workers=1).to_json()
    assert _without_timing(remote) == _without_timing(alone)


@pytest.mark.parametrize("address", ["local:0", "local:", "local:x", "local:999", "localhost"])
def test_a_bad_local_cluster_is_refused(address: str) -> None:
    with pytest.raises(SimulationError, match="local:N with N from 1 to 64"):
        local_workers(address)


def test_a_scheduler_address_is_not_a_local_cluster() -> None:
    assert local_workers("tcp://10.0.0.5:8786") is None
    assert local_workers("local:3") == 3


def test_an_unreachable_scheduler_is_a_clear_error(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)
    with pytest.raises(SimulationError, match="cannot reach the scheduler"):
        simulate(catalog, "1", 2, 2, seed=1, dask="tcp://127.0.0.1:9")


def test_without_distributed_the_error_says_what_to_install(
    catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(SimulationError) as caught:
        simulate(catalog, "1", 2, 2, seed=1, dask="local:1")
    assert INSTALL_HINT in str(caught.value)
