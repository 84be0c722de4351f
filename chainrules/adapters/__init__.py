"""Adapters that hand the rule table to other AD engines: autograd, PyTorch and JAX.

Each adapter is an optional extra and imports its library only when used, so importing one
never imports another:

* ``chainrules.adapters.autograd``  ``install()`` / ``uninstall()``: the rules become
  autograd's VJPs and JVPs;
* ``chainrules.adapters.torch``     ``wrap(f)``: a ``torch.autograd.Function`` built from f's
  rules;
* ``chainrules.adapters.jax``       ``wrap(f)``: a ``jax.custom_jvp`` or ``jax.custom_vjp``
  built from f's rules;
* ``chainrules.adapters.host``      what the three share: rules run on NumPy values, with
  derivatives of every order;

and what each adapter keeps apart: ``autograd_host`` (host functions as autograd primitives,
``wrap``), ``torch_values`` (tensors as NumPy values and back), ``jax_host`` (host functions
through ``jax.pure_callback``), ``jax_calls`` (one JAX function per kind of call),
``jax_shapes`` (a host function's result shapes); ``flattened`` (arguments inside tuples and
lists) and ``routing`` (a call routed to the engine of its arguments) serve them all.

>>> from chainrules.adapters import host
>>> host.is_inexact("f"), host.is_inexact("i")
(True, False)
"""
