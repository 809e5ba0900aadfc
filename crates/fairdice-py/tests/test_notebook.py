"""Notebook HTML: a table and the chart crate's SVG, with every value escaped."""

from __future__ import annotations

import fairdice


def test_a_die_shows_a_chart_and_a_table():
    html = fairdice.dist("4d6kh3")._repr_html_()
    assert html.count("<svg") == 1 and "<table" in html
    assert "15869/1296" in html
    assert html.count("<tr>") == 16 + 1  # a header and a row per outcome
    for measure in ("probability", "at_least", "at_most"):
        assert fairdice.dist("3d6").chart_svg(measure).startswith("<svg")


def test_text_is_escaped():
    html = fairdice.dist("d20 < 5")._repr_html_()
    assert "<h4>d20 &lt; 5</h4>" in html
    assert "d20 < 5</h4>" not in html


def test_wide_distributions_are_cut_short():
    html = fairdice.dist("1000d6")._repr_html_()
    assert "more outcomes" in html
    assert "digits)" in html  # counts of hundreds of digits are abbreviated
