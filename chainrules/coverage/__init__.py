"""The rule-coverage report: the function universe, the numbers, the formats, the CLI.

Modules, one concept each:

* ``classification``  statuses, table rows, and the lookup over the reviewed table
* ``table_numpy``, ``table_scipy``, ``table_python``  the reviewed table itself
* ``universe``        enumerating the installed libraries and classifying what is found
* ``record``          reading the test results the harness's pytest plugin writes
* ``reach``           how far each engine goes with a function: tested to which order, reached
* ``report``          the numbers: per function, per category, overall
* ``columns``         what every human-readable format shows
* ``format_terminal``, ``format_markdown``, ``format_json``, ``format_html``  the formats
* ``cli``             ``chainrules coverage``

Nothing here imports a format until it is asked for, so that the report stays fast.

>>> from chainrules.coverage.report import current_report
>>> report = current_report()  # no test results: what was tested is unknown
>>> report.total.functions == len(report.rows), report.total.coverage
(True, None)
"""
