"""Tests for chainrules.core.registry: registration, dispatch, cache, keywords, opt-out, threads."""

import numbers
import threading
import time
from collections.abc import Sequence

import numpy as np
import pytest

from chainrules.core import registry
from chainrules.core.errors import AmbiguousRuleError, RuleDefinitionError, RuleKeywordError
from chainrules.core.registry import (
    RuleInfo,
    RuleTable,
    frule,
    opt_out,
    registered_functions,
    rrule,
)


def f(*args, **kwargs):
    """The primal function the tables below key their rules on."""
    return args


def fresh_table(kind="rrule"):
    """An empty table of the same class as the library's own ``rrule`` or ``frule``."""
    return type(rrule if kind == "rrule" else frule)(kind)


def table_with(*rules, kind="rrule"):
    """A fresh table with each rule registered for ``f``, in order."""
    table = fresh_table(kind)
    for rule in rules:
        table.register(f)(rule)
    return table


def which(table, *args, **kwargs):
    """What the rule chosen for ``f(*args)`` returns (the rules below return their names)."""
    return table(f, *args, **kwargs)


# ---- rules that name themselves when they run ---------------------------------------------------


def any_rule(x):
    return "any"


def real_rule(x: numbers.Real):
    return "Real"


def float_rule(x: float):
    return "float"


def int_rule(x: int):
    return "int"


def array_rule(x: np.ndarray):
    return "ndarray"


def sequence_rule(x: Sequence):
    return "Sequence"


def union_rule(x: int | str):
    return "int | str"


def two_args_rule(x, y):
    return "two"


def varargs_rule(*xs: float):
    return "*float"


# ---- dispatch -----------------------------------------------------------------------------------

DISPATCH = [
    # rules registered, argument, the rule that must win
    ((any_rule,), 1.0, "any"),
    ((any_rule, float_rule), 1.0, "float"),
    ((any_rule, float_rule), "s", "any"),
    ((float_rule, any_rule), 1.0, "float"),  # order of registration does not matter
    ((any_rule, real_rule), np.float32(1), "Real"),  # an ABC
    ((any_rule, real_rule), 1j, "any"),
    ((real_rule, float_rule), np.float64(1), "float"),  # float64 is a float subclass
    ((real_rule, float_rule), 1, "Real"),
    ((real_rule, int_rule), True, "int"),  # bool -> int by MRO
    ((any_rule, sequence_rule), (1, 2), "Sequence"),
    ((any_rule, sequence_rule), np.ones(2), "any"),
    ((sequence_rule, array_rule), np.ones(2), "ndarray"),
    ((any_rule, union_rule), "s", "int | str"),
    ((any_rule, union_rule), 2, "int | str"),
    ((any_rule, union_rule), 2.0, "any"),
    ((union_rule, int_rule), 2, "int"),  # int is more specific than int | str
    ((union_rule, int_rule), "s", "int | str"),
]


@pytest.mark.parametrize(
    ("rules", "arg", "expected"),
    DISPATCH,
    ids=[f"{'+'.join(r.__name__ for r in d[0])}({type(d[1]).__name__})" for d in DISPATCH],
)
def test_most_specific_rule_wins(rules, arg, expected):
    assert which(table_with(*rules), arg) == expected


def test_no_applicable_rule_gives_none():
    table = table_with(float_rule)
    assert table(f, "s") is None
    assert table(f, 1.0, 2.0) is None  # too many arguments
    assert table(f) is None  # too few
    assert table(len, 1.0) is None  # a function with no rules at all
    assert table({}.get, 1.0) is None


def test_unhashable_callable_has_no_rule():
    class Unhashable:
        __hash__ = None

        def __call__(self, x):
            return x

    assert fresh_table()(Unhashable(), 1.0) is None


def test_arity_and_varargs():
    table = table_with(any_rule, two_args_rule, varargs_rule)
    assert which(table, "s") == "any"
    assert which(table, "s", "t") == "two"
    assert which(table, 1.0, 2.0) == "*float"  # float beats object at every place
    assert which(table, 1.0, 2.0, 3.0) == "*float"
    assert which(table, 1.0, "s") == "two"
    assert table(f, 1.0, 2.0, "s") is None


def test_ambiguity_is_an_error_naming_both_candidates():
    def left_rule(x: int, y):
        return "left"

    def right_rule(x, y: int):
        return "right"

    table = table_with(left_rule, right_rule)
    assert which(table, 1, "s") == "left"
    assert which(table, "s", 1) == "right"
    with pytest.raises(AmbiguousRuleError) as info:
        table(f, 1, 1)
    message = str(info.value)
    assert "left_rule(int, object)" in message and "right_rule(object, int)" in message
    assert "(int, int)" in message and "f" in message
    assert isinstance(info.value, TypeError)

    def deciding_rule(x: int, y: int):
        return "decided"

    table.register(f)(deciding_rule)
    assert which(table, 1, 1) == "decided"


def test_same_signature_replaces_the_old_rule():
    def first(x: float):
        return "first"

    def second(x: float):
        return "second"

    table = table_with(first, second)
    assert which(table, 1.0) == "second"
    assert len(table.methods(f)) == 1


def list_of_int_rule(x: list[int]):
    return "list[int]"


def sequence_of_float_rule(x: Sequence[float]):
    return "Sequence[float]"


def optional_int_rule(x: int | None):
    return "int | None"


GENERIC = [
    (list_of_int_rule, [1], "list[int]"),
    (list_of_int_rule, (1,), "any"),
    (sequence_of_float_rule, (1.0,), "Sequence[float]"),
    (optional_int_rule, None, "int | None"),
    (optional_int_rule, 3, "int | None"),
]


@pytest.mark.parametrize(
    ("rule", "arg", "expected"), GENERIC, ids=[f"{g[2]}({g[1]!r})" for g in GENERIC]
)
def test_generic_annotations_dispatch_on_their_origin(rule, arg, expected):
    assert which(table_with(any_rule, rule), arg) == expected


def test_an_annotation_that_is_not_a_class_is_rejected():
    def bad_rule(x: "not a type"):  # noqa: F722
        return x

    with pytest.raises(RuleDefinitionError, match="annotation of 'x'"):
        RuleTable("rrule").register(f)(bad_rule)


def test_unhashable_function_cannot_key_a_rule():
    with pytest.raises(RuleDefinitionError, match="not hashable"):
        RuleTable("rrule").register([])(any_rule)


def test_table_kind_is_checked():
    with pytest.raises(ValueError, match="'rrule' or 'frule'"):
        RuleTable("grad")


# ---- the per-types cache -----------------------------------------------------------------------


def test_choice_is_cached_per_argument_types():
    table = table_with(any_rule, float_rule)
    assert which(table, 1.0) == "float"
    assert which(table, "s") == "any"
    cache = table._entries[f].state.cache
    assert cache[(float,)].rule is float_rule and cache[(str,)].rule is any_rule
    assert which(table, 2.0) == "float"
    assert len(cache) == 2


def test_registering_invalidates_the_cache():
    table = table_with(any_rule, real_rule)
    assert which(table, 1.0) == "Real"
    assert (float,) in table._entries[f].state.cache
    table.register(f)(float_rule)
    assert table._entries[f].state.cache == {}
    assert which(table, 1.0) == "float"


def test_cache_remembers_no_rule():
    table = table_with(float_rule, real_rule)
    assert table(f, "s") is None
    assert table._entries[f].state.cache[(str,)] is None
    table.register(f)(any_rule)
    assert which(table, "s") == "any"


# ---- keywords -----------------------------------------------------------------------------------


def test_keywords_pass_through():
    def rule_with_axis(x, axis=None, *, keepdims=False):
        return ("axis", axis, keepdims)

    table = table_with(rule_with_axis)
    assert table(f, 1.0, axis=1, keepdims=True) == ("axis", 1, True)


def test_rule_with_var_keywords_accepts_any():
    def open_rule(x, **kwargs):
        return kwargs

    assert table_with(open_rule)(f, 1.0, anything=3) == {"anything": 3}


def test_unknown_keyword_is_a_clear_type_error():
    def rule_with_axis(x, axis=None):
        return "rule"

    table = table_with(rule_with_axis)
    with pytest.raises(RuleKeywordError) as info:
        table(f, 1.0, axes=1)
    message = str(info.value)
    assert isinstance(info.value, TypeError)
    assert "rrule for" in message and f"{__name__}.f" in message
    assert "'axes'" in message and "accepts axis, x" in message


def test_unknown_keyword_for_a_rule_without_keywords():
    def rule(x, /):
        return "rule"

    with pytest.raises(RuleKeywordError, match=r"does not accept the keyword 'axis'$"):
        table_with(rule)(f, 1.0, axis=0)


# ---- frule tables -------------------------------------------------------------------------------


def test_frule_table_passes_tangents_first():
    def frule_of_f(tangents, x: float, scale=1.0):
        return x * scale, tangents[1] * scale

    table = table_with(frule_of_f, kind="frule")
    assert table((None, 2.0), f, 3.0, scale=2.0) == (6.0, 4.0)
    assert table((None, 2.0), f, "s") is None


def test_frule_must_take_the_tangents():
    def no_parameters():
        return None

    with pytest.raises(RuleDefinitionError, match="the tangents tuple"):
        RuleTable("frule").register(f)(no_parameters)


# ---- opt_out ------------------------------------------------------------------------------------


def test_opt_out_for_types():
    table = table_with(real_rule)
    opt_out(table, f, bool)
    assert table(f, True) is None
    assert which(table, 1) == "Real"
    assert which(table, 1.5) == "Real"


def test_opt_out_for_a_union_of_types():
    table = table_with(any_rule)
    opt_out(table, f, int | str)
    assert table(f, 1) is None and table(f, "s") is None
    assert which(table, 1.0) == "any"


def test_opt_out_without_types_opts_out_of_everything_but_narrower_rules():
    table = table_with(any_rule, two_args_rule, float_rule)
    opt_out(table, f)
    assert table(f, "s") is None
    assert table(f, 1, 2) is None
    assert table(f) is None
    assert which(table, 1.0) == "float"  # a rule for specific types still wins


def test_rule_registered_after_an_opt_out_for_narrower_types_wins():
    table = table_with(any_rule)
    opt_out(table, f, numbers.Real)
    table.register(f)(int_rule)
    assert which(table, 1) == "int"
    assert table(f, 1.0) is None


def test_opt_out_needs_a_table():
    with pytest.raises(TypeError, match="rrule or frule"):
        opt_out(f, f, float)


# ---- threads ------------------------------------------------------------------------------------


def test_eight_threads_register_and_look_up_at_once():
    table = fresh_table()
    shared = f
    n_threads, rounds = 8, 50
    barrier = threading.Barrier(n_threads)
    errors, wrong = [], []

    # Each thread owns one argument type and one function of its own.
    kinds = [type(f"Kind{i}", (), {}) for i in range(n_threads)]
    own_functions = [lambda *a: a for _ in range(n_threads)]

    def worker(i):
        try:
            kind, own = kinds[i], own_functions[i]

            def typed_rule(x: kind, _i=i):
                return ("typed", _i)

            def own_rule(x, _i=i):
                return ("own", _i)

            barrier.wait(10)
            for r in range(rounds):
                table.register(shared)(typed_rule)
                table.register(own)(own_rule)
                if table(shared, kind()) != ("typed", i):
                    wrong.append((i, r, "shared"))
                if table(own, 1.0) != ("own", i):
                    wrong.append((i, r, "own"))
                if table(shared, 1.0) is not None:
                    wrong.append((i, r, "no rule for floats"))
        except Exception as error:  # collected for the assertion below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == [] and wrong == []
    assert len(table.methods(shared)) == n_threads
    assert all(table(shared, kinds[i]()) == ("typed", i) for i in range(n_threads))


# ---- introspection ------------------------------------------------------------------------------


def only_rrule(x):
    return x


def only_frule(x):
    return x


def both_rules(x):
    return x


def opted(x):
    return x


@rrule.register(only_rrule)
def _only_rrule_rrule(x):
    return x, None


@frule.register(only_frule)
def _only_frule_frule(tangents, x):
    return x, tangents[1]


@rrule.register(both_rules)
def _both_rrule(x):
    return x, None


@frule.register(both_rules)
def _both_frule(tangents, x):
    return x, tangents[1]


opt_out(rrule, opted, int)


INTROSPECTION = [
    (only_rrule, True, False, False),
    (only_frule, False, True, False),
    (both_rules, True, True, False),
    (opted, False, False, True),
]


@pytest.mark.parametrize(
    ("function", "has_rrule", "has_frule", "opted_out"),
    INTROSPECTION,
    ids=[i[0].__name__ for i in INTROSPECTION],
)
def test_registered_functions_reports_what_each_has(function, has_rrule, has_frule, opted_out):
    infos = [info for info in registered_functions() if info.function is function]
    assert infos == [
        RuleInfo(
            function=function,
            name=f"{__name__}.{function.__name__}",
            rrule=has_rrule,
            frule=has_frule,
            non_differentiable=False,
            opted_out=opted_out,
        )
    ]


def test_registered_functions_are_sorted_by_name():
    names = [info.name for info in registered_functions()]
    assert names == sorted(names)


def test_has_rule_and_repr():
    table = table_with(any_rule)
    assert table.has_rule(f) and not table.has_rule(len) and not table.has_rule([])
    opted_only = RuleTable("rrule")
    opt_out(opted_only, f, int)
    assert not opted_only.has_rule(f)
    assert list(table.functions()) == [f]
    assert repr(table) == "<chainrules rrule table: 1 functions>"


class RacingSet(set):
    """A set that another thread adds to while it is being iterated, after the first item."""

    def __iter__(self):
        items = super().__iter__()
        yield next(items)
        writer = threading.Thread(target=registry.mark_non_differentiable, args=(lambda x: x,))
        writer.start()
        writer.join(timeout=0.2)  # a registry that takes a snapshot under a lock blocks it
        yield from items


def test_registered_functions_can_be_read_while_another_thread_registers(monkeypatch):
    # The reader sees a snapshot, never "Set changed size during iteration". A fresh set,
    # so that the functions registered here leave no trace in the library's registry.
    marked = RacingSet([np.sin, np.cos])
    monkeypatch.setattr(registry, "_non_differentiable", marked)
    infos = registry.registered_functions()
    assert {np.sin, np.cos} <= {info.function for info in infos}
    for _ in range(50):  # the writer blocked on the lock has finished by now
        if len(marked) == 3:
            break
        time.sleep(0.01)
    assert len(marked) == 3
