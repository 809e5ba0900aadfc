"""Notebook HTML for dice and reports: a table and the chart crate's SVG.

Every value placed in markup goes through :func:`html.escape`; the SVG comes
from the chart crate, which escapes its own text. Nothing is fetched: Jupyter
shows the HTML as is, with no extra packages.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._native import Die

#: Rows of a distribution shown before the rest are summarized.
MAX_ROWS = 60

_STYLE = (
    "<style>.fairdice-table td,.fairdice-table th{padding:2px 8px;text-align:right}"
    ".fairdice-table th{border-bottom:1px solid #888}</style>"
)


def percent(p: float) -> str:
    """A probability as a percentage, small values kept apart."""
    if p == 0:
        return "0%"
    if p < 0.01:
        return f"{100 * p:.4g}%"
    return f"{100 * p:.3f}%"


def _table(header: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="fairdice-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def die_html(die: Die) -> str:
    """A die as a heading, its moments, its chart and its table."""
    name = die.expression or "die"
    mean = die.mean()
    summary = (
        f"mean {float(mean):.4f}"
        + (f" ({mean})" if mean.denominator != 1 else "")
        + f", sd {die.sd():.4f}, min {die.min_outcome()}, max {die.max_outcome()}, median {die.median()}"
    )
    if die.exact:
        basis = f"exact: {die.total} equally likely rolls"
    else:
        estimate = die.estimate or {}
        basis = f"estimated from {estimate.get('runs')} rolls (seed {estimate.get('seed')})"
    total = die.total
    rows = []
    counts = die.counts()
    outcomes = die.outcomes()
    at_most = 0
    for i, (outcome, count) in enumerate(zip(outcomes, counts)):
        at_least = total - at_most
        at_most += count
        if i < MAX_ROWS:
            rows.append(
                [
                    str(outcome),
                    _short(count),
                    percent(float(Fraction(count, total))),
                    percent(float(Fraction(at_least, total))),
                    percent(float(Fraction(at_most, total))),
                ]
            )
    more = len(outcomes) - MAX_ROWS
    note = f"<p>… {more} more outcomes (<code>die.to_dict()</code> has them all)</p>" if more > 0 else ""
    return (
        _STYLE
        + f"<div class=\"fairdice\"><h4>{escape(name)}</h4>"
        + f"<p>{escape(summary)}<br>{escape(basis)}</p>"
        + die.chart_svg()
        + _table(["outcome", "count", "probability", "at least", "at most"], rows)
        + note
        + "</div>"
    )


def _short(count: int) -> str:
    text = str(count)
    return text if len(text) <= 24 else f"{text[:6]}…{text[-4:]} ({len(text)} digits)"


def _scalar(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, str) and len(value) > 60:
        return f"{value[:40]}… ({len(value)} characters)"
    return str(value)


def report_html(title: str, document: dict[str, Any], chart: str | None) -> str:
    """A report as its heading, its scalar fields, its chart and its lists of rows."""
    scalars = [[k, _scalar(v)] for k, v in document.items() if not isinstance(v, (list, dict))]
    parts = [_STYLE, f'<div class="fairdice"><h4>{escape(title)}</h4>']
    parts.append(_table(["field", "value"], scalars))
    if chart:
        parts.append(chart)
    for key, value in document.items():
        if isinstance(value, list) and value and all(isinstance(r, dict) for r in value):
            header = [k for k, v in value[0].items() if not isinstance(v, (list, dict))]
            rows = [[_scalar(r.get(k)) for k in header] for r in value[:MAX_ROWS]]
            parts.append(f"<h5>{escape(key)}</h5>" + _table(header, rows))
            if len(value) > MAX_ROWS:
                parts.append(f"<p>… {len(value) - MAX_ROWS} more rows</p>")
        elif isinstance(value, dict):
            flat = [[k, _scalar(v)] for k, v in value.items() if not isinstance(v, (list, dict))]
            if flat:
                parts.append(f"<h5>{escape(key)}</h5>" + _table(["field", "value"], flat))
    parts.append("</div>")
    return "".join(parts)
