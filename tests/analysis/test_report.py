"""The HTML report: self-contained, every section, every system, input escaped."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.analysis.report import ReportInputs, build_report
from core.cli import main
from core.model import AnnotationSet, Span

ROOT = Path(__file__).resolve().parents[2]
PROP = ROOT / "sample_data" / "propaganda"
EVIL_TEXT = 'Hi <script>alert("text")</script> and <img src=x onerror=alert(1)> there, friends.'
EVIL_LABEL = "<script>alert('label')</script>"


def _evil() -> ReportInputs:
    texts: dict[str, str | None] = {"<b>doc</b>": EVIL_TEXT, "d2": "plain text of the second"}
    gold = AnnotationSet("gold<i>", {"<b>doc</b>": (Span(3, 35, EVIL_LABEL),),
                                     "d2": (Span(0, 5, "A"),)})
    pred = AnnotationSet("<svg onload=alert(1)>", {"<b>doc</b>": (Span(3, 20, EVIL_LABEL),),
                                                    "d2": (Span(6, 10, EVIL_LABEL),)},
                         role="system")
    return ReportInputs(gold, [pred], texts, n_resamples=50,
                        metadata={d: {"source": "<script>x</script>"} for d in texts})


def test_input_strings_are_escaped_and_the_file_runs_nothing() -> None:
    out = build_report(_evil(), command="python -m core report <x>")
    assert "<script" not in out.lower()
    assert "<img" not in out and "<svg onload" not in out and "<b>doc" not in out
    assert "onerror=alert(1)&gt;" in out  # the text, shown as text
    assert "&lt;script&gt;alert(&#x27;label&#x27;)&lt;/script&gt;" in out  # the label
    assert "&lt;svg onload=alert(1)&gt;" in out  # the system name
    assert "&lt;script&gt;x&lt;/script&gt;" in out  # a metadata value (slice bucket)
    assert "python -m core report &lt;x&gt;" in out


def test_report_is_self_contained() -> None:
    out = build_report(_evil(), command="x")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", out)
    assert "<link" not in out and "@import" not in out
    assert out.count("<svg class=\"ss-chart ss-wide\"") >= 3


def test_cli_writes_every_section_for_every_system(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                 str(PROP / "system_b.json"), "-o", str(out), "--samples", "100"]) == 0
    html = out.read_text(encoding="utf-8")
    for section in ("scores", "compare", "categories", "slices", "confusion", "disagree",
                    "worst", "provenance"):
        assert f"id='{section}'" in html
    worst = html[html.index("<section id='worst'>"):]
    assert worst.count("<article class='worst'>") == 10  # every document of this small corpus
    assert "system_a" in html and "system_b" in html
    assert "--samples 100 --seed 0" in html and "numpy" in html
    assert "report.html" in capsys.readouterr().err


def test_report_refuses_two_systems_with_one_name(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(PROP / "gold.json"), str(PROP / "system_a.json"),
                 str(PROP / "system_a.json"), "-o", str(tmp_path / "r.html")]) == 1
    assert "same system name" in capsys.readouterr().err


def test_errors_chart_leaves_out_correct_and_table_gives_shares_of_errors() -> None:
    from core.analysis.errors import ERRORS, categorise
    from core.formats import ReadOptions, load_path

    loaded = load_path(PROP / "gold.json")
    gold, texts = loaded.set, loaded.texts
    pred = load_path(PROP / "system_a.json", options=ReadOptions(role="system")).set
    html = build_report(ReportInputs(gold, [pred], texts, n_resamples=50), command="x")
    section = html[html.index("<section id='categories'>"):html.index("<section id='slices'>")]
    errors_svg = section[section.index("aria-label=\"Errors by category\""):]
    errors_svg = errors_svg[:errors_svg.index("</svg>")]
    assert "correct" not in errors_svg and "optional" not in errors_svg
    counts = categorise(gold, pred).counts("reference")
    assert f"{pred.name} · reference: missed {counts['missed']}" in errors_svg
    # The table gives the share of the errors of that side.
    total = sum(counts.get(c, 0) for c in ERRORS)
    assert f"<td class='num'>{100 * counts['missed'] / total:.4f}</td>" in section


def test_the_span_dimensions_share_one_computation_of_each_systems_terms(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The span terms do not depend on the dimension; the report computed them once per span
    # dimension (four times, 2.3 s each at 10,000 documents). The sliced scores are the same.
    from core.analysis import report, slices

    inputs = _evil()
    second = AnnotationSet("second", {"<b>doc</b>": (Span(3, 9, EVIL_LABEL),), "d2": ()},
                           role="system")
    inputs = ReportInputs(inputs.gold, [*inputs.systems, second], inputs.texts,
                          n_resamples=50, metadata=inputs.metadata)
    stamp = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")  # the provenance's time
    before = stamp.sub("T", build_report(inputs, command="x"))
    calls: list[str] = []
    computed = slices.slice_terms

    def counted(gold: AnnotationSet, pred: AnnotationSet, **kw: object) -> object:
        calls.append(pred.name)
        return computed(gold, pred, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(report, "slice_terms", counted)
    assert stamp.sub("T", build_report(inputs, command="x")) == before
    assert calls == ["<svg onload=alert(1)>", "second"]
    assert len(slices.SPAN_DIMENSIONS) == 4


def test_progress_tells_every_step_in_order_and_changes_nothing() -> None:
    inputs = _evil()
    second = AnnotationSet("second", {"<b>doc</b>": (Span(3, 9, EVIL_LABEL),), "d2": ()},
                           role="system")
    inputs = ReportInputs(inputs.gold, [*inputs.systems, second], inputs.texts,
                          n_resamples=50, metadata=inputs.metadata)
    told: list[tuple[str, int, int]] = []
    stamp = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
    out = build_report(inputs, command="x", progress=lambda *a: told.append(a))
    assert stamp.sub("T", out) == stamp.sub("T", build_report(inputs, command="x"))
    # Two systems: their categories, their scores, the paired comparisons, six built-in
    # dimensions and the metadata field "source", the confusion, where the systems disagree,
    # the worst documents; then "done".
    stages = [s for s, _, _ in told]
    dims = ["span_length", "label", "label_frequency", "position", "doc_length",
            "reference_spans", "meta:source"]
    assert stages == [
        "error categories of <svg onload=alert(1)>", "error categories of second",
        "scores of <svg onload=alert(1)>", "scores of second", "paired comparisons",
        *(f"slices: {d} ({k + 1} of 7)" for k, d in enumerate(dims)),
        "label confusion", "where the systems disagree", "the worst documents", "done"]
    assert [done for _, done, _ in told] == list(range(len(told)))
    assert {total for _, _, total in told} == {len(told) - 1}


def test_the_scores_say_when_their_intervals_rest_on_few_documents() -> None:
    from core.formats import ReadOptions, load_path

    loaded = load_path(PROP / "gold.json")  # the sample: 10 documents
    pred = load_path(PROP / "system_a.json", options=ReadOptions(role="system")).set
    html = build_report(ReportInputs(loaded.set, [pred], loaded.texts, n_resamples=20),
                        command="x")
    section = html[html.index("<section id='scores'>"):html.index("<section id='categories'>")]
    assert "<strong>Only 10 documents</strong>: the intervals resample them" in section


def test_shared_bootstrap_is_an_option_the_report_names(tmp_path: Path) -> None:
    """``--bootstrap shared``: the slices' values as in the default report, other intervals,
    and the report and its command say so; the default report says nothing new."""
    argv = ["report", str(PROP / "gold.json"), str(PROP / "system_a.json"), "--samples", "100"]
    assert main([*argv, "-o", str(tmp_path / "a.html")]) == 0
    assert main([*argv, "-o", str(tmp_path / "b.html"), "--bootstrap", "shared"]) == 0
    a = (tmp_path / "a.html").read_text(encoding="utf-8")
    b = (tmp_path / "b.html").read_text(encoding="utf-8")
    assert "shared resamples" not in a and "--bootstrap" not in a
    assert "<b>shared resamples</b> (100 resamples, seed 0)" in b
    assert "--samples 100 --seed 0 --bootstrap shared" in b

    def slices(html: str) -> str:
        return html[html.index("id='slices'"):html.index("id='confusion'")]

    def scores(html: str) -> str:
        return html[html.index("id='scores'"):html.index("id='categories'")]

    assert scores(a) == scores(b)  # the corpus's own interval is drawn as before
    assert slices(a) != slices(b)
    with pytest.raises(SystemExit):
        main([*argv, "-o", str(tmp_path / "c.html"), "--bootstrap", "joint"])


def test_one_document_shows_no_interval_in_the_scores_and_the_slices() -> None:
    """As ``table``: "—" for the bounds of one document, never [x, x], and the note says so."""
    from core.formats import ReadOptions, load_path

    figure1 = Path(__file__).resolve().parents[2] / "sample_data" / "figure1"
    loaded = load_path(figure1 / "gold.json")
    pred = load_path(figure1 / "pred_s1.json", options=ReadOptions(role="system")).set
    html = build_report(ReportInputs(loaded.set, [pred], loaded.texts, n_resamples=20),
                        command="x")
    section = html[html.index("<section id='scores'>"):html.index("<section id='categories'>")]
    assert ("<strong>Only 1 document</strong>: every resample is that document, so there is "
            "no interval (—).") in section and "low = high" not in html
    scores = section[section.index("<table"):]
    head = re.findall(r"<th>([^<]*)</th>", scores[:scores.index("</thead>")])
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", scores[:scores.index("</table>")])
    bounds = [cells[i] for i, h in enumerate(head) if h.endswith(("F1 low", "F1 high"))]
    assert bounds and set(bounds) == {"—"}
    label = html[html.index("<h3>label</h3>"):]
    label = label[label.index("<table"):label.index("</table>")]
    head = re.findall(r"<th>([^<]*)</th>", label)
    rows = [re.findall(r"<td[^>]*>([^<]*)</td>", r) for r in label.split("<tr>")[2:]]
    assert rows and all(r[head.index("F1 low")] == r[head.index("F1 high")] == "—"
                        for r in rows)


def _scores_of(html: str) -> str:
    return html[html.index("<section id='scores'>"):html.index("<section id='categories'>")]


def test_a_chosen_variant_scores_the_report_and_the_report_names_it() -> None:
    """``ReportInputs.variants``: Martino in semeval2020-si scores system_b 0.6101 (0.3408 in
    the default semeval2021), in the scores, the slices and the worst documents' ranking;
    MAFALDA's column stays, and the report names the variant where it is used."""
    from core.formats import ReadOptions, load_path
    from core.metrics import registry

    loaded = load_path(PROP / "gold.json")
    pred = load_path(PROP / "system_b.json", options=ReadOptions(role="system")).set
    martino = registry.get("martino")
    f1 = {v: martino.score_sets(loaded.set, pred, variant=v).f1
          for v in ("semeval2021", "semeval2020-si")}
    assert round(f1["semeval2021"], 4) == 0.3408 and round(f1["semeval2020-si"], 4) == 0.6101

    def report(**variants: str) -> str:
        return build_report(ReportInputs(loaded.set, [pred], loaded.texts, n_resamples=20,
                                         variants=variants), command="x")

    default, chosen = report(), report(martino="semeval2020-si")
    assert f"<td class='num'>{f1['semeval2021']:.4f}</td>" in _scores_of(default)
    assert f"<td class='num'>{f1['semeval2020-si']:.4f}</td>" in _scores_of(chosen)
    assert f"<td class='num'>{f1['semeval2021']:.4f}</td>" not in _scores_of(chosen)
    assert "SemEval-2021 variant" in _scores_of(default)
    assert ("variant <b>semeval2020-si</b> (chosen; the default is semeval2021)"
            in _scores_of(chosen))
    assert "Martino scores (variant <b>semeval2020-si</b>) per bucket" in chosen
    assert "<td>variants</td><td>martino semeval2020-si</td>" in chosen
    assert "<td>variants</td>" not in default and "(chosen;" not in default

    def slices(html: str) -> str:
        return html[html.index("id='slices'"):html.index("id='confusion'")]

    assert slices(default) != slices(chosen)
    # The default variant named explicitly is the default report.
    named = report(martino="semeval2021")
    assert _scores_of(named) == _scores_of(default) and slices(named) == slices(default)


def test_a_mafalda_variant_changes_mafalda_alone() -> None:
    from core.formats import ReadOptions, load_path

    maf = ROOT / "sample_data" / "mafalda"
    loaded = load_path(maf / "gold.jsonl")
    pred = load_path(maf / "system_b.jsonl", options=ReadOptions(role="system")).set
    default, chosen = (
        build_report(ReportInputs(loaded.set, [pred], loaded.texts, n_resamples=20,
                                  variants=v), command="x")
        for v in ({}, {"mafalda": "metrics-py"}))
    assert "<td class='num'>0.5435</td>" in _scores_of(default)  # MAFALDA F1, paper
    assert "<td class='num'>0.5738</td>" in _scores_of(chosen)  # MAFALDA F1, metrics-py
    assert "MAFALDA (Helwe et al. 2024), variant <b>metrics-py</b>" in _scores_of(chosen)
    assert "Martino scores per bucket" in chosen  # Martino's slices as they were


def test_cli_variant_option_is_used_named_in_the_command_and_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["report", str(PROP / "gold.json"), str(PROP / "system_b.json"), "--samples", "20"]
    assert main([*argv, "-o", str(tmp_path / "a.html"), "--variant",
                 "martino=semeval2020-si"]) == 0
    html = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert "--seed 0 --variant martino=semeval2020-si" in html
    assert "<td class='num'>0.6101</td>" in _scores_of(html)
    capsys.readouterr()
    for bad, says in (("martino=bogus", "The 'variant' parameter of martino must be one of"),
                      ("nervaluate=x", "The 'variants' parameter of the report must be one "
                       "of {'martino', 'mafalda'}"),
                      ("martino", "--variant expects METRIC=VARIANT")):
        assert main([*argv, "-o", str(tmp_path / "b.html"), "--variant", bad]) == 1
        assert says in capsys.readouterr().err
    assert not (tmp_path / "b.html").exists()


def test_each_system_is_grouped_by_the_taxonomy_of_its_own_pair() -> None:
    """The report groups each system's labels (levels 1 and 0: its MAFALDA scores, categories
    and label confusion) by the taxonomy of the reference and that system, as the Errors
    page, ``errors`` and ``score --metric mafalda`` do: one system with a label outside
    MAFALDA's taxonomy no longer turns the other systems' level-1 fallacy groups into one class
    per label."""
    from core.analysis.errors import categorise
    from core.formats import ReadOptions, load_path
    from core.metrics.labels import confusion
    from core.model.taxonomy import for_labels

    maf = ROOT / "sample_data" / "mafalda"
    loaded = load_path(maf / "gold.jsonl")
    gold = loaded.set
    a = load_path(maf / "system_a.jsonl", options=ReadOptions(role="system")).set
    stray = AnnotationSet("stray", {d: tuple(Span(s.start, s.end, "Doubt") for s in a.get(d))
                                    for d in a.doc_ids}, role="system")
    own = for_labels([*gold.labels(), *a.labels()])
    assert own.name == "MAFALDA"
    html = build_report(ReportInputs(gold, [a, stray], loaded.texts, level=1, n_resamples=20),
                        command="x")
    conf = html[html.index("id='confusion'"):html.index("id='worst'")]
    a_table = conf[conf.index(f"<h3>{a.name}</h3>"):conf.index("<h3>stray</h3>")]
    grouped = confusion(gold, a, level=1, taxonomy=own)
    for column in grouped.columns:
        assert f"<th class='col'>{column}</th>" in a_table
    cats = html[html.index("id='categories'"):html.index("id='slices'")]
    counts = categorise(gold, a, level=1, taxonomy=own).counts("reference")
    for category in ("correct", "boundary", "missed"):
        assert (f"<td>{a.name}</td><td>{category}</td><td class='num'>{counts[category]}</td>"
                in cats)
    assert "<td>taxonomy</td><td>MAFALDA (system_a); labels of the data (stray)</td>" in html


def _contrast(a: str, b: str) -> float:
    from core.render.palette import contrast_ratio

    return contrast_ratio(a, b)


def test_the_report_reads_at_wcag_aa_and_every_scroll_box_takes_the_keyboard(
        tmp_path: Path) -> None:
    """axe-core on the report (docs/dashboard.md, "Accessibility") found the category tags'
    text in the category colour on white (2.3:1 for orange and sky blue, WCAG 2.1 SC 1.4.3
    asks 4.5), tables and charts that scroll sideways on a phone but take no focus (SC 2.1.1),
    and no main landmark."""
    out = tmp_path / "report.html"
    assert main(["report", str(PROP / "gold.json"), str(PROP / "system_a.json"), "-o",
                 str(out), "--samples", "20"]) == 0
    html = out.read_text(encoding="utf-8")
    tags = re.findall(r"<span class='tag'[^>]*? style='([^']*)'", html)
    assert tags and not any("color:" in s.replace("border-color:", "") for s in tags)
    css = dict(re.findall(r"(\.tag|td\.na)\{[^}]*?(?<!-)color:(#\w+)", html))
    assert _contrast(css[".tag"], "#ffffff") >= 4.5 and _contrast(css["td.na"], "#ffffff") >= 4.5
    # the charts no longer scroll (a phone gets a layout of its own): the tables do
    boxes = re.findall(r"<table[^>]*>", html)
    assert len(boxes) > 5 and all("tabindex='0'" in b for b in boxes), boxes
    assert html.count("<main>") == 1 and "<h1>" in html.split("<main>")[1]


def test_right_to_left_documents_take_their_direction_from_their_text() -> None:
    text = "قال الرئيس في 2024 إن GDP ارتفع بنسبة 5% في مصر."
    gold = AnnotationSet("gold", {"ar": (Span(4, 10, "شخص"), Span(44, 47, "Place"))})
    pred = AnnotationSet("pred", {"ar": (Span(4, 10, "شخص"),)}, role="system")
    out = build_report(ReportInputs(gold, [pred], {"ar": text}, n_resamples=20),
                       command="report")
    docs = re.findall(r"<div class='doc'[^>]*>", out)
    assert docs and all("dir='auto'" in d for d in docs)  # Arabic lays out right to left
    tags = re.findall(r"<span class='tag'[^>]*>", out)
    assert tags and all("dir='ltr'" in t for t in tags)  # a tag is one left-to-right unit
    assert "<bdi>شخص</bdi>" in out and "Document <bdi>ar</bdi>" in out
    assert "unicode-bidi:isolate" in out and "td,th{unicode-bidi:plaintext}" in out


def test_each_patterned_bar_is_one_rectangle_with_its_colour_under_its_pattern() -> None:
    """bugleft19: a patterned bar was two rectangles, its colour and its pattern over it; it is
    one, filled with a pattern that holds its colour (the colour after the url too, what a
    page without the pattern shows), so the report is smaller and draws the same bars."""
    import xml.etree.ElementTree as ET

    out = build_report(_evil(), command="x")
    found = re.search(r"<svg class='ss-defs'.*?</svg>", out, re.S)
    assert found is not None
    under = {p.attrib["id"]: p[0].attrib["fill"] for p in ET.fromstring(found.group(0)).iter()
             if p.tag.endswith("pattern") and p[0].tag.endswith("rect")}
    assert "pointer-events" not in out  # no rectangle drawn over a bar any more
    bars = re.findall(r'<rect class="(?:bar|swatch)"[^>]*'
                      r'fill="url\(#([^)]+)\) (#[0-9A-Fa-f]{6})"', out)
    assert len(bars) >= 20
    for pattern, colour in bars:
        assert under[pattern] == colour  # the pattern's ground is the bar's colour


def test_each_chart_has_a_layout_for_a_phone_and_the_page_its_patterns_once() -> None:
    """The charts were 640 px wide on a phone (390 px), cut at the screen's edge in a box that
    scrolled sideways; shrunk to fit, their 10 px text would be 6 px. Each chart is drawn a
    second time for a phone's width (the page's style shows one or the other). A pattern in a
    hidden (``display: none``) chart draws nothing, and the phone's bars kept only their
    colour; bugleft18: every chart held its own patterns (twice, about 1 KB a chart), now the
    page holds them once, in a box of no size that is displayed, and every chart uses them."""
    import xml.etree.ElementTree as ET

    out = build_report(_evil(), command="x")
    charts = re.findall(r"<div class='chart'>(.*?)</div>", out, flags=re.S)
    assert len(charts) >= 3
    defs = re.findall(r"<svg class='ss-defs'.*?</svg>", out, re.S)
    assert len(defs) == 1 and out.count("<pattern ") == len(ET.fromstring(defs[0])[0])
    ids = {e.attrib["id"] for e in ET.fromstring(defs[0]).iter() if "id" in e.attrib}
    patterned = 0
    for chart in charts:
        wide, phone = (ET.fromstring(s) for s in re.findall(r"<svg .*?</svg>", chart, re.S))
        assert wide.attrib["class"] == "ss-chart ss-wide" and wide.attrib["width"] == "860"
        assert phone.attrib["class"] == "ss-chart ss-phone"
        assert int(phone.attrib["width"]) <= 370
        for svg in (wide, phone):
            used = set(re.findall(r"url\(#([^)]+)\)", ET.tostring(svg, encoding="unicode")))
            assert used <= ids
            patterned += bool(used)
    assert patterned >= 4  # the error categories' bars, in both layouts
    style = re.search(r"<style>(.*?)</style>", out, re.S)
    assert style is not None
    css = style.group(1).replace("\n", "")
    assert "svg.ss-phone{display:none}" in css
    assert "svg.ss-defs{position:absolute;width:0;height:0;overflow:hidden}" in css
    assert "ss-defs{display:none" not in css
    assert "@media (max-width:700px)" in css and "svg.ss-wide{display:none}" in css
