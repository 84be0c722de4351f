"""What builds the documentation site beyond the pages of ``docs/``: mkdocs hooks and generators.

Modules, one concept each:

* ``hooks``           the mkdocs hooks (``mkdocs.yml``): the navigation, the generated pages,
                      the built catalogue's data
* ``navigation``      the navigation by reader, read from ``docs/index.md``
* ``pages``           the sections and tables of a Markdown page, with the anchors mkdocs gives
* ``statements``      what the pages state about functions: hard points, non-differentiable
                      points, parameter derivatives, accuracy
* ``catalogue``       the rule catalogue: one entry per function with rules, from the registry
                      and the coverage report's data, with what the pages state about it
* ``api``             the API reference: a page per public module, one mkdocstrings entry per
                      public name
* ``search``          the search index's catalogue and API entries, each found by its name
* ``docstrings``      a griffe extension: the docstrings' doctests and literal blocks as code

Only ``hooks`` and ``docstrings`` import mkdocs and griffe; the rest is plain Python. The
site's tests are in ``docs/site_tests``.
"""
