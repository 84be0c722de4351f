"""The whole rule table through JAX: ``check_grads`` of every swept function, to second order.

Each function of ``sweep.swept_functions()`` is wrapped by the JAX adapter and checked by JAX's
own ``check_grads`` on its sample (float64), in reverse mode, and in forward mode too where its
rule runs on JAX's tracers (``rule_mode`` "jvp"; JAX cannot transpose a host callback). A
function whose ``Limit`` stops JAX at first order is checked to first order, and the check of
its second order must fail: a limit that no longer holds fails here. Integer and boolean
outputs (pivots, ranks, flags) have no derivative and are left out of the checks. What passed
is noted for the coverage report's JAX column.
"""

import numpy as np
import pytest
import scipy.special as sc

jax = pytest.importorskip("jax")

from chainrules_testing.record import note_engine  # noqa: E402
from jax.test_util import check_grads  # noqa: E402
from sweep import SAMPLES, differentiated, limit, swept_functions  # noqa: E402

from chainrules.adapters import jax as cr_jax  # noqa: E402
from chainrules.core.names import function_name  # noqa: E402

jnp = jax.numpy

SWEPT = swept_functions()

# check_grads compares with central differences of step 1e-4 (errors ~1e-8 relative): 1e-5
# leaves room for derivatives that are themselves computed to ~1e-7 (quadratures).
TOLERANCE = 1e-5

# Inverse functions where check_grads' central differences (step 1e-4) are off by ~1e-5:
# gammainccinv and nrdtrisd are steep (derivatives in the hundreds and thousands; the rules
# agree with differences of step 1e-6 to 1e-9), and SciPy's own ncfdtrinc is smooth to ~1e-5.
STEEP = 1e-4
TOLERANCES = {sc.gammainccinv: STEEP, sc.ncfdtrinc: STEEP, sc.nrdtrisd: STEEP}

# SciPy's own quadratures in ellip_harm_2 and ellip_normal warn of roundoff at 1e-10 or so.
pytestmark = pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")


@pytest.fixture(autouse=True)
def float64():
    """The sweep runs in double precision, as finite differences need, and compiles its many
    small programs without XLA's costlier optimizations (a tenth of the sweep's time)."""
    settings = {"jax_enable_x64": True, "jax_disable_most_optimizations": True}
    previous = {name: jax.config.values[name] for name in settings}
    for name, value in settings.items():
        jax.config.update(name, value)
    yield
    for name, value in previous.items():
        jax.config.update(name, value)


def test_every_swept_function_has_a_sample():
    missing = [function_name(f) for f in SWEPT if f not in SAMPLES]
    assert not missing, f"functions with rules but no sweep sample: {', '.join(missing)}"


def check(call, operands: tuple, order: int, f) -> None:
    """``check_grads`` of ``call``, eagerly: JAX compiles each primitive once per shape for
    the whole sweep, where ``jit`` would compile every derivative of every function anew
    (slower here by half; ``test_jax`` checks ``jit`` itself)."""
    modes = ["fwd", "rev"] if cr_jax.rule_mode(f) == "jvp" else ["rev"]
    tol = TOLERANCES.get(f, TOLERANCE)
    check_grads(call, operands, order=order, modes=modes, atol=tol, rtol=tol)


def assert_fails(call, operands: tuple, order: int, f, reason: str) -> None:
    """The check at ``order`` fails, as the limit's reason says (an error of the rules, of
    SciPy or of JAX, or values that differ)."""
    try:
        check(call, operands, order, f)
    except Exception:
        return
    pytest.fail(
        f"{function_name(f)} passes order {order} through JAX: its limit ({reason}) no longer holds"
    )


def inexact_outputs(y):
    """The float and complex arrays of ``y``: what has a derivative."""
    leaves = [v for v in jax.tree.leaves(y) if jnp.issubdtype(v.dtype, jnp.inexact)]
    return leaves[0] if not isinstance(y, tuple | list) else tuple(leaves)


@pytest.mark.parametrize("f", [f for f in SWEPT if f in SAMPLES], ids=function_name)
def test_second_order_through_jax(f):
    sample = SAMPLES[f]
    leaves, rebuild = differentiated(sample.args(np.random.default_rng(0)))
    wrapped = cr_jax.wrap(f)

    def call(*operands):
        return inexact_outputs(wrapped(*rebuild(list(operands)), **sample.kwargs))

    operands = tuple(jnp.asarray(a) for a in leaves)
    jax.eval_shape(call, *operands)  # decides where the rule runs, hence the modes checked
    stop = limit(f, "jax")
    if stop is None:
        check(call, operands, 2, f)
        note_engine(function_name(f), "jax", 2)
    elif stop.order == 0:  # nothing passes: nothing to note
        assert_fails(call, operands, 1, f, stop.reason)
    else:
        check(call, operands, 1, f)
        assert_fails(call, operands, 2, f, stop.reason)
        note_engine(function_name(f), "jax", 1, stop.reason)
