"""The report as one self-contained HTML page: per-category bars and a searchable table.

The categories' table is followed by the same per engine (tested to 2nd order / to 1st /
reached); the functions' table has a column per engine, whose first-order cells carry their
reason as a tooltip and as a numbered note under the table.

No external resource is referenced: the style and the few lines of script that filter the
table live in the page, so the file can be opened anywhere, attached to a CI run, or mailed.
Every text from the report is escaped.

>>> from chainrules.coverage.report import Report, totals
>>> report = Report(rows=(), categories=(), total=totals("total", [], False), record=None)
>>> page = render_html(report)
>>> page.startswith("<!DOCTYPE html>"), "<table id=\\"functions\\">" in page
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

from .columns import (
    ENGINE_TOTALS_COLUMNS,
    ENGINE_TOTALS_LEGEND,
    FUNCTION_COLUMNS,
    REACH_LEGEND,
    TOTALS_COLUMNS,
    function_cells,
    headline,
    needs_attention,
    results_line,
)
from .reach import ENGINES
from .report import Report, Totals

__all__ = ["render_html"]

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; padding: 0 1em; max-width: 84em;
       color: #222; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
.meta { color: #666; margin: 0.2em 0; }
.headline { font-size: 1.15em; font-weight: 600; }
.attention { background: #fff4e0; border-left: 4px solid #e0a030; padding: 0.4em 0.8em; }
.bars { display: grid; grid-template-columns: minmax(8em, 12em) 1fr minmax(9em, 16em);
        gap: 0.35em 1em; align-items: center; }
.bar { background: #e4e4e4; height: 1em; border-radius: 3px; overflow: hidden; display: flex; }
.bar .tested { background: #2e9e4f; }
.bar .rules { background: #7fb2e5; }
.legend span { display: inline-block; width: 0.9em; height: 0.9em; margin: 0 0.3em 0 1em;
               vertical-align: middle; }
.total { font-weight: 600; }
.scroll { overflow-x: auto; max-width: 100%; }
.scroll.tall { max-height: 85vh; overflow-y: auto; }  /* its header stays in view, sticky */
#functions td:last-child { min-width: 24em; }  /* reasons wrap at a readable width */
table { border-collapse: collapse; width: 100%; margin-top: 0.5em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2em 0.5em; text-align: left; }
th { position: sticky; top: 0; background: #f6f6f6; }
td.flag { text-align: center; }
td[title] { text-decoration: underline dotted; cursor: help; }
tr.unclassified td { background: #fff0f0; }
.controls input, .controls select { font: inherit; padding: 0.2em 0.4em; margin-right: 0.6em; }
#search { width: 24em; max-width: 100%; box-sizing: border-box; }
"""

_SCRIPT = """
(() => {
  const search = document.getElementById("search");
  const byStatus = document.getElementById("status");
  const shown = document.getElementById("shown");
  const rows = Array.from(document.querySelectorAll("#functions tbody tr"));
  function filter() {
    const words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    let n = 0;
    for (const row of rows) {
      const text = row.textContent.toLowerCase();
      const ok = words.every((w) => text.includes(w))
        && (!byStatus.value || row.dataset.status === byStatus.value);
      row.hidden = !ok;
      if (ok) n += 1;
    }
    shown.textContent = n;
  }
  search.addEventListener("input", filter);
  byStatus.addEventListener("change", filter);
  filter();
})();
"""


def _bar(t: Totals) -> str:
    if not t.differentiable:
        return '<div class="bar" title="no differentiable function"></div>'
    tested = 100.0 * (t.tested or 0) / t.differentiable
    rules = max(0.0, 100.0 * t.with_both_rules / t.differentiable - tested)
    title = f"{headline(t)}"
    return (
        f'<div class="bar" title="{escape(title)}">'
        f'<span class="tested" style="width:{tested:.2f}%"></span>'
        f'<span class="rules" style="width:{rules:.2f}%"></span></div>'
    )


def _bars(report: Report) -> list[str]:
    lines = ['<div class="bars">']
    for t in [*report.categories, report.total]:
        cls = ' class="total"' if t is report.total else ""
        if t.tested is not None and t.differentiable:
            label = f"{t.coverage:.1f}% tested ({t.tested}/{t.differentiable})"
        elif t.differentiable:
            label = f"{t.with_both_rules}/{t.differentiable} with rules, tested unknown"
        else:
            label = "no differentiable function"
        lines.append(
            f"<div{cls}>{escape(t.category)}</div>{_bar(t)}<div{cls}>{escape(label)}</div>"
        )
    lines.append("</div>")
    lines.append(
        '<p class="legend meta"><span style="background:#2e9e4f"></span>both rules tested'
        '<span style="background:#7fb2e5"></span>both rules, not tested or unknown'
        '<span style="background:#e4e4e4"></span>missing a rule</p>'
    )
    return lines


def _totals_table(
    report: Report, table_id: str, columns: Sequence[tuple[str, Callable[[Totals], str]]]
) -> list[str]:
    head = "".join(f"<th>{escape(name)}</th>" for name, _ in columns)
    lines = [f'<div class="scroll"><table id="{table_id}">', f"<thead><tr>{head}</tr></thead>"]
    lines.append("<tbody>")
    for t in [*report.categories, report.total]:
        cls = ' class="total"' if t is report.total else ""
        cells = "".join(f"<td>{escape(text(t))}</td>" for _, text in columns)
        lines.append(f"<tr{cls}>{cells}</tr>")
    return [*lines, "</tbody>", "</table></div>"]


def _functions_table(report: Report) -> list[str]:
    statuses = sorted({r.status for r in report.rows})
    options = "".join(f'<option value="{escape(s)}">{escape(s)}</option>' for s in statuses)
    lines = [
        '<p class="controls">',
        '<input id="search" type="search" placeholder="search names, categories, reasons"'
        ' aria-label="search the functions">',
        f'<select id="status"><option value="">every status</option>{options}</select>',
        f'<span class="meta"><span id="shown">{len(report.rows)}</span> of '
        f"{len(report.rows)} functions shown</span>",
        "</p>",
    ]
    head = "".join(f"<th>{escape(name)}</th>" for name, _ in FUNCTION_COLUMNS)
    lines += [f'<p class="meta">{escape(REACH_LEGEND)}</p>']
    lines += ['<div class="scroll tall"><table id="functions">']
    lines.append(f"<thead><tr>{head}</tr></thead>")
    lines.append("<tbody>")
    texts, reasons = function_cells(report.rows)
    for r, row_texts in zip(report.rows, texts, strict=True):
        cells = []
        for (name, _), text in zip(FUNCTION_COLUMNS, row_texts, strict=True):
            cls = "" if name in ("function", "category", "status", "reason") else ' class="flag"'
            why = r.reach(name).reason if name in ENGINES else ""
            title = f' title="{escape(why)}"' if why else ""
            extra = ""
            if name == "function" and r.aliases:  # so that a search for an alias finds it
                extra = f' <small class="meta">also {escape(", ".join(r.aliases))}</small>'
            cells.append(f"<td{cls}{title}>{escape(text)}{extra}</td>")
        status = escape(r.status)
        lines.append(f'<tr class="{status}" data-status="{status}">{"".join(cells)}</tr>')
    lines += ["</tbody>", "</table></div>"]
    if reasons:
        lines.append('<p class="meta">Why some checks stop at 1st order or refuse:</p>')
        lines += ['<ul id="reasons">', *(f"<li>{escape(line)}</li>" for line in reasons), "</ul>"]
    return lines


def render_html(report: Report) -> str:
    """The HTML page (see the module docstring)."""
    env = ", ".join(f"{name} {version}" for name, version in report.environment)
    selected = f"categories: {', '.join(report.selected)}" if report.selected else ""
    body = [
        "<h1>chainrules coverage</h1>",
        f'<p class="headline">{escape(headline(report.total))}</p>',
        f'<p class="meta">{escape(results_line(report))}</p>',
    ]
    body += [f'<p class="meta">{escape(text)}</p>' for text in (env, selected) if text]
    body += [
        f'<p class="attention">{escape(note)}</p>' for note in needs_attention(report, listed=None)
    ]
    body += ["<h2>Categories</h2>", *_bars(report)]
    body += _totals_table(report, "categories", TOTALS_COLUMNS)
    body += ["<h2>Engines</h2>", f'<p class="meta">{escape(ENGINE_TOTALS_LEGEND)}</p>']
    body += _totals_table(report, "engines", ENGINE_TOTALS_COLUMNS)
    body += ["<h2>Functions</h2>", *_functions_table(report)]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            "<title>chainrules coverage</title>",
            f"<style>{_STYLE}</style>",
            "</head>",
            "<body>",
            *body,
            f"<script>{_SCRIPT}</script>",
            "</body>",
            "</html>",
            "",
        ]
    )
