"""SemEval-2021 task 6 records in a JSON object keyed by their ids (wild15 tour).

umar1997/Propaganda_Detection_on_Code_Switched_Data@aef2bca ``Dataset/dataset.json`` and its
splits (1,030 code-switched texts, 2,577 spans): each record is the task's ``{id, text,
labels}``, but the file is an object ``{"0": record, "1": record, ...}`` and the offsets are
under ``start_index`` and ``end_index`` (strings). Detection said "could not detect the
format; pass it explicitly (one of: ...)", and ``--format semeval2021`` would not read it
either. It is named now, with the two changes that make it the task's layout; the file made
that way reads (every offset agreeing with its fragment). Our own texts, in that shape.
"""

from __future__ import annotations

import json

from core.formats import load_files
from tests.formats.test_unread_json_layouts import _refusal

TEXTS = ["Ye log sirf loot rahe hain, shame on them.",
         "Vote do warna mulk doob jaye ga!"]


def _records() -> dict[str, dict[str, object]]:
    spans = [[(9, 21, "Loaded Language"), (28, 41, "Name calling/Labeling")],
             [(0, 31, "Appeal to fear/prejudice")]]
    return {str(k): {"id": str(k), "text": text, "labels": [
        {"start_index": str(s), "end_index": str(e), "text_fragment": text[s:e],
         "technique": t} for s, e, t in spans[k]]} for k, text in enumerate(TEXTS)}


def test_records_keyed_by_id_are_named_with_what_to_do() -> None:
    data = json.dumps(_records(), indent=4).encode()
    message = _refusal("dataset.json", data)
    assert ("could not detect the format: SemEval-2021 task 6 records in a JSON object keyed "
            'by their ids ({"0": {"id", "text", "labels": [{"start_index", "end_index", '
            '"technique", ...}]}, ...}), not the task\'s JSON list: write the records as a '
            "list, rename 'start_index' and 'end_index' to 'start' and 'end', and read it "
            "with --format semeval2021") in message


def test_the_records_changed_as_said_are_read() -> None:
    renames = {"start_index": "start", "end_index": "end"}
    records = [{**r, "labels": [{renames.get(k, k): v for k, v in lab.items()}
                                for lab in r["labels"]]}  # type: ignore[attr-defined]
               for r in _records().values()]
    loaded = load_files({"dataset.json": json.dumps(records).encode()})
    assert loaded.format == "semeval2021"
    (aset,) = loaded.sets
    assert aset.span_count() == 3
    assert not [d for d in loaded.diagnostics if d.field == "text_fragment"]
