"""The rule core: tangent types, thunks, projection, the rule tables and rule helpers.

Modules, one concept each:

* ``tangents``   ZeroTangent, NoTangent, Tangent, MutableTangent, NotImplementedTangent
* ``thunks``     Thunk, InplaceableThunk, unthunk, the eager-thunk switch for engines
* ``algebra``    add, add_, tangents_equal
* ``structure``  how primals decompose into fields (shared by everything that walks them)
* ``zeros``      zero_tangent
* ``projection`` ProjectTo
* ``namespace``  array_namespace
* ``lazy``       dask arrays: recognised, run lazily, refused by name where a rule cannot
* ``registry``   the rrule and frule tables, opt_out, introspection
* ``config``     RuleConfig and the capabilities HasReverseMode, HasForwardMode
* ``define``     scalar_rule, non_differentiable, ignore_derivatives
* ``partials``   what a partial of a scalar_rule row is, and which values it reads
* ``primals``    how those rules compute their function on the values given
* ``scalar_rules`` the rrules that scalar_rule builds from partials (one input; several outputs)
* ``several_input_rules`` those of several inputs and one output (multiply, arctan2)
* ``scalar_frules`` the frules that scalar_rule builds from partials
* ``protocol``   what registration wraps around every rule (zeros, thunks, shapes, names)
* ``libraries``  rule libraries loaded when a function of theirs is first looked up
* ``calls``      call: a compiled routine applied through whatever engine tracks its arguments
* ``caches``     bounded caches keyed by shapes and types, started afresh when full
* ``errors``     the error classes

This package never imports ``chainrules.rules``, ``engines`` or ``adapters``.
"""
