"""The partial derivatives the coverage report counts: probed from the rules, summed in totals."""

import numpy as np
import scipy.special as sc

from chainrules.coverage.columns import partials_text
from chainrules.coverage.format_json import to_document, validate
from chainrules.coverage.partials import Partials, probe_partials, sum_partials
from chainrules.coverage.report import build_report, current_report
from chainrules.coverage.universe import UniverseFunction


def test_every_argument_given():
    # betainc: a, b by quadrature (thunked: probed all the same), x in closed form
    assert probe_partials(sc.betainc) == Partials(3, 3, 0)
    assert probe_partials(np.add) == Partials(2, 2, 0)


def test_integer_arguments_have_no_partial():
    # kn(n, x): the order is an integer (NoTangent even at a float probe)
    assert probe_partials(sc.kn) == Partials(1, 1, 0)


def test_not_implemented_partials_with_their_reason():
    # pro_rad2 in c: the second kind's series is not implemented (the reason says why)
    found = probe_partials(sc.pro_rad2)
    assert (found.total, found.given, found.not_implemented) == (2, 1, 1)
    assert found.reasons[0].startswith("argument 2: ")
    assert "second kind" in found.reasons[0]


def test_functions_that_are_not_ufuncs_are_not_probed():
    assert probe_partials(sc.ellip_harm) is None
    assert probe_partials(np.sum) is None


def test_totals_sum_the_differentiable_functions():
    universe = [
        UniverseFunction(n, f, (), "scipy.special", "scipy.special", "differentiable", "")
        for n, f in (("scipy.special.kn", sc.kn), ("scipy.special.pro_rad2", sc.pro_rad2))
    ]
    probed = {f.name: probe_partials(f.function) for f in universe}
    report = build_report(universe, [], None, probed)
    assert report.total.partials == Partials(3, 2, 1)
    assert partials_text(report.total.partials) == "2 / 3 (1 not impl.)"
    document = to_document(report)
    assert validate(document) == []
    assert document["total"]["partials"] == {"total": 3, "given": 2, "not_implemented": 1}
    reasons = [f["partials"]["reasons"] for f in document["functions"]]
    assert [len(r) for r in reasons] == [0, 1]
    assert sum_partials([None]) is None


def test_the_installed_report_counts_partials():
    total = current_report().total.partials
    assert total is not None and total.total > 400
    assert total.given + total.not_implemented == total.total
