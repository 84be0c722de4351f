"""The rule libraries load on first use and leave the tables answering as if imported at once.

Each check runs in a fresh interpreter, where nothing but ``chainrules`` has been imported.
"""

import json
import subprocess
import sys
import textwrap


def _run(code: str) -> dict:
    """The JSON that ``code`` prints, run in a fresh interpreter."""
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_importing_chainrules_loads_no_rule_library():
    out = _run(
        """
        import json, sys
        import chainrules
        from chainrules.core.libraries import pending
        loaded = sorted(m for m in sys.modules if m.startswith("chainrules.rules."))
        print(json.dumps({"pending": pending(), "loaded": loaded}))
        """
    )
    assert out["pending"] == ["numpy", "python", "scipy.special", "scipy.linalg", "fastmath"]
    assert out["loaded"] == []


def test_a_lookup_loads_only_the_library_of_its_function():
    out = _run(
        """
        import json, sys
        import numpy as np
        import chainrules as cr
        from chainrules.core.libraries import pending
        y, pullback = cr.rrule(np.sin, 0.0)
        after_numpy = pending()
        import scipy.special as sc
        g = pullback(1.0)[1], cr.rrule(sc.gammaln, 2.0)[1](1.0)[1]
        print(json.dumps({"after_numpy": after_numpy, "after_special": pending(), "g": g,
                          "numba": "numba" in sys.modules}))
        """
    )
    assert out["after_numpy"] == ["python", "scipy.special", "scipy.linalg", "fastmath"]
    assert out["after_special"] == ["python", "scipy.linalg", "fastmath"]
    assert out["g"] == [1.0, 0.42278433509846713]  # cos(0); digamma(2) = 1 - Euler's gamma
    assert not out["numba"]


def test_every_registered_function_is_owned_by_the_library_registering_it():
    # Libraries imported one by one, in an order where each finds those it imports loaded:
    # what each import adds to the tables must be its own, or a lookup would miss it.
    out = _run(
        """
        import importlib, json
        import numpy as np
        import chainrules
        from chainrules.core import registry
        from chainrules.core.libraries import libraries, owner

        def keys():
            return {id(f): f for t in (registry.rrule, registry.frule) for f in t._entries} | {
                id(f): f for f in registry._non_differentiable}

        seen, wrong, counts = keys(), [], {}
        for library in libraries():
            importlib.import_module(library.package)
            new = {k: f for k, f in keys().items() if k not in seen}
            counts[library.name] = len(new)
            for f in new.values():
                found = owner(f)
                if found is None or found.name != library.name:
                    wrong.append([library.name, registry.function_name(f),
                                  None if found is None else found.name])
            seen.update(new)
        print(json.dumps({"wrong": wrong, "counts": counts}))
        """
    )
    assert out["wrong"] == []
    assert min(out["counts"].values()) > 10, out["counts"]  # each library registered its rules


def test_a_users_rule_registered_before_its_library_loads_still_wins():
    out = _run(
        """
        import json
        import numpy as np
        import chainrules as cr

        @cr.rrule.register(np.sin)
        def _sin_rrule(x):
            return np.sin(x), lambda dy: (cr.NoTangent(), 42.0 * dy)

        print(json.dumps({"dx": cr.rrule(np.sin, 0.0)[1](1.0)[1],
                          "cos": cr.rrule(np.cos, 0.0)[0]}))
        """
    )
    assert out == {"dx": 42.0, "cos": 1.0}


def test_questions_about_every_function_load_every_library():
    out = _run(
        """
        import json
        import chainrules as cr
        from chainrules.core.libraries import pending
        names = {info.name for info in cr.registered_functions()}
        some = {"numpy.sin", "math.exp", "scipy.special.jv", "scipy.linalg.expm",
                "chainrules.fastmath.exp"}
        print(json.dumps({"pending": pending(), "n": len(names), "some": sorted(names & some)}))
        """
    )
    assert out["pending"] == []
    assert out["some"] == [
        "chainrules.fastmath.exp",
        "math.exp",
        "numpy.sin",
        "scipy.linalg.expm",
        "scipy.special.jv",
    ]
    assert out["n"] > 800
