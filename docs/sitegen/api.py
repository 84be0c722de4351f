"""The API reference: a page per public module, an mkdocstrings entry per public name.

The public modules are those the project's design names (``API_MODULES``). A module's public
names are its ``__all__``, or else its explicit re-exports (``from .x import Y as Y``, the
house style of an ``__init__``), in the order the module lists them. Each page shows the
module's docstring, then one ``:::`` entry per name, headed by the name as users write it
(``chainrules.ZeroTangent``, not the module that defines it). A re-exported module links to
its own page; an object that is neither a class, a function nor a module (the rule tables
``rrule`` and ``frule``, an engine's ``CONFIG``) is documented by its class. The namespaces of
SciPy's functions (``chainrules.scipy.special``, ``.linalg``) list their functions, each
linked to its entry in the rule catalogue.

>>> pages = api_pages([("chainrules.engines", "the reference engines")])
>>> sorted(pages)
['api/chainrules.engines.md', 'api/index.md']
>>> page = pages["api/chainrules.engines.md"]
>>> "The module `chainrules.engines.forward`." in page, "::: chainrules.engines.hessian" in page
(True, True)
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from .catalogue import heading

__all__ = ["API", "API_MODULES", "api_pages", "public_names"]

API = "api"

# (module, what it is for), in the order of the reference's navigation.
API_MODULES: tuple[tuple[str, str], ...] = (
    ("chainrules", "tangent types, rrule and frule, registration helpers, errors"),
    ("chainrules.define", "everything a rule author writes rules with, in one import"),
    ("chainrules.engines", "the reference AD engines"),
    ("chainrules.engines.reverse", "reverse mode: grad, vjp, jacobian"),
    ("chainrules.engines.forward", "forward mode: jvp, jacobian"),
    ("chainrules.scipy.special", "scipy.special's functions with rules, in every engine"),
    ("chainrules.scipy.linalg", "scipy.linalg's functions with rules, in every engine"),
    ("chainrules.adapters.torch", "the rules inside PyTorch"),
    ("chainrules.adapters.jax", "the rules inside JAX"),
    ("chainrules.adapters.autograd", "the rules inside autograd"),
    ("chainrules_testing", "the harness: test_rrule, test_frule, test_scalar"),
    ("chainrules_testing.strategies", "hypothesis strategies for rule inputs"),
    ("chainrules_testing.record", "what the pytest plugin records for the coverage report"),
    ("chainrules.coverage.cli", "the chainrules coverage command"),
    ("chainrules.coverage.format_json", "the coverage report's JSON and its schema"),
)

# Namespaces whose names are functions of another library, mirrored: listed, not rendered.
_MIRRORS = ("chainrules.scipy.special", "chainrules.scipy.linalg")


def public_names(module: ModuleType) -> list[str]:
    """``module.__all__``, or else its explicit re-exports, in the module's order.

    >>> import chainrules.engines
    >>> public_names(chainrules.engines)[:3]
    ['forward', 'reverse', 'hessian']
    """
    names = getattr(module, "__all__", None)
    if names is not None:
        return list(names)
    tree = ast.parse(inspect.getsource(module))
    return [
        alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name
    ]


class _Writer:
    """Writes the pages, documenting each class once and linking to it after that."""

    def __init__(self, modules: Sequence[str], catalogue: Mapping[str, str]) -> None:
        self.modules = modules
        self.catalogue = catalogue
        self.classes: dict[str, str] = {}  # a class documented for an instance -> its page

    def entry(self, module: str, name: str, value: Any) -> list[str]:
        public = f"{module}.{name}"
        if inspect.ismodule(value):
            page = value.__name__
            shown = f"[`{page}`]({page}.md)" if page in self.modules else f"`{page}`"
            return [heading(public), "", f"The module {shown}.", ""]
        if inspect.isclass(value) or inspect.isroutine(value):
            return [f"::: {public}", "    options:", f'      heading: "{public}"', ""]
        cls = type(value)
        if cls.__module__ == "builtins":  # a constant: its value, or its type when long
            shown = repr(value)
            text = f"`{public} = {shown}`" if len(shown) <= 80 else f"A `{cls.__name__}`."
            return [heading(public), "", text, ""]
        target = f"{cls.__module__}.{cls.__qualname__}"
        about = f"An instance of `{cls.__qualname__}`"
        if target in self.classes:
            where = self.classes[target]
            link = f"[`{cls.__qualname__}`]({where}.md#{target})"
            return [heading(public), "", f"An instance of {link}.", ""]
        self.classes[target] = module
        lines = [heading(public), "", f"{about}:", ""]
        return [*lines, f"::: {target}", "    options:", "      heading_level: 3", ""]

    def mirror_list(self, module: str, names: Sequence[str]) -> list[str]:
        library = module.removeprefix("chainrules.")
        items = []
        for name in sorted(names):
            where = self.catalogue.get(f"{library}.{name}")
            items.append(f"[`{name}`](../{where})" if where else f"`{name}`")
        return [
            "## Functions",
            "",
            f"Each is `{library}`'s function of that name, or the function it names; its entry "
            "in the rule catalogue says what its rules give.",
            "",
            ", ".join(items),
            "",
        ]

    def page(self, module: str, about: str) -> str:
        mod = importlib.import_module(module)
        lines = [f"# {module}", ""]
        lines += [f"::: {module}", "    options:", "      members: false"]
        lines += ["      show_root_heading: false", ""]
        names = public_names(mod)
        if module in _MIRRORS:
            return "\n".join([*lines, *self.mirror_list(module, names)])
        for name in names:
            lines += self.entry(module, name, getattr(mod, name))
        return "\n".join(lines)


def api_pages(
    modules: Sequence[tuple[str, str]] = API_MODULES, catalogue: Mapping[str, str] | None = None
) -> dict[str, str]:
    """``{path: Markdown}``: ``api/index.md`` and a page per module of ``modules``.

    ``catalogue`` maps a function's names to its entry in the rule catalogue
    (``catalogue.locations``), for the namespaces of SciPy's functions to link to.
    """
    writer = _Writer([module for module, _ in modules], catalogue or {})
    pages = {f"{API}/{module}.md": writer.page(module, about) for module, about in modules}
    index = [
        "# API reference",
        "",
        "The public names of each module, from their docstrings; every example in them runs as "
        "a doctest in the test suite.",
        "",
        "| module | for |",
        "|---|---|",
        *(f"| [`{module}`]({module}.md) | {about} |" for module, about in modules),
        "",
    ]
    pages[f"{API}/index.md"] = "\n".join(index)
    return pages
