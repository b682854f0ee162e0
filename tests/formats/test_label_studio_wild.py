"""Label Studio exports as current versions write them (the clitour5 pass over real files):
predictions listed by id, an image task's upload path, a model version that says "model"."""

from __future__ import annotations

import json

import pytest

from core.formats import load_files


def _span(start: int, end: int, text: str, label: str) -> dict[str, object]:
    return {"type": "labels", "from_name": "label", "to_name": "text",
            "value": {"start": start, "end": end, "text": text, "labels": [label]}}


TEXT = "Ada met Bob in Oslo."


def _task(task_id: int, prediction_ids: list[object], embedded: dict[str, object] | None,
          ) -> dict[str, object]:
    annotation: dict[str, object] = {"id": 7, "completed_by": 2,
                                     "result": [_span(0, 3, "Ada", "PER"),
                                                _span(15, 19, "Oslo", "LOC")]}
    if embedded is not None:
        annotation["prediction"] = embedded
    return {"id": task_id, "data": {"text": TEXT}, "annotations": [annotation],
            "predictions": prediction_ids}


def _load(tasks: list[dict[str, object]]):  # type: ignore[no-untyped-def]
    return load_files({"export.json": json.dumps(tasks, indent=1).encode()}, name="export.json")


def test_predictions_as_ids_read_from_the_embedded_prediction_with_one_warning() -> None:
    body = {"id": 11, "model_version": "llm-v1", "result": [_span(8, 11, "Bob", "PER")]}
    tasks = [_task(1, [11], body), _task(2, [12], {**body, "id": 12})]
    loaded = _load(tasks)
    lines = json.dumps(tasks, indent=1).splitlines()
    first_id = lines.index('  "predictions": [') + 2  # the id's own line
    sets = {s.name: s for s in loaded.sets}
    assert (sets["annotator 2"].role, sets["model llm-v1"].role) == ("annotator", "system")
    assert [(s.start, s.end, s.label) for s in sets["model llm-v1"].get("1")] == [(8, 11, "PER")]
    assert sorted(sets["model llm-v1"].spans) == ["1", "2"]
    (warning,) = loaded.diagnostics
    assert (warning.path, warning.field, warning.line) == (
        "[0].predictions[0]", "predictions", first_id)
    assert lines[first_id - 1].strip() == "11"
    assert warning.message == (
        "2 predictions are ids, not objects (Label Studio's JSON export lists a task's "
        "predictions by id): 2 of them read from the prediction an annotation embeds "
        "(annotations[].prediction, the prediction its annotator saw)")


def test_ids_without_a_body_are_skipped_and_counted_not_refused() -> None:
    stale = {"id": 3, "model_version": "old", "result": [_span(8, 11, "Bob", "PER")]}
    loaded = _load([_task(1, [11, 13], None), _task(2, [12], stale)])
    assert [s.name for s in loaded.sets] == ["annotator 2"]  # a stale snapshot is not read
    warning, stale_note = loaded.diagnostics
    assert warning.message == (
        "3 predictions are ids, not objects (Label Studio's JSON export lists a task's "
        "predictions by id): their spans are not in the file, skipped")
    assert (stale_note.path, stale_note.field) == ("[1].annotations[0].prediction", "prediction")
    assert stale_note.message == (
        "1 prediction an annotation embeds (annotations[].prediction, the prediction its "
        "annotator saw) is not among its task's predictions (replaced or deleted since): its "
        "spans are not read")


@pytest.mark.parametrize("listed", [[], None], ids=["empty list", "no list"])
def test_an_embedded_prediction_of_a_task_without_predictions_is_said_not_read(
        listed: list[object] | None) -> None:
    """review11 item 6: the task lists no predictions, yet its annotation embeds one; its
    spans are not the task's prediction, and are not dropped silently."""
    body = {"id": 11, "model_version": "m", "result": [_span(8, 11, "Bob", "PER")]}
    task = _task(1, [], body)
    second = {"id": 8, "completed_by": 3, "result": [], "prediction": body}
    task["annotations"].append(second)  # type: ignore[attr-defined]
    if listed is None:
        del task["predictions"]
    loaded = _load([task])
    assert sorted(s.name for s in loaded.sets) == ["annotator 2", "annotator 3"]
    (note,) = loaded.diagnostics  # one prediction, though two annotators saw it
    assert (note.path, note.field) == ("[0].annotations[0].prediction", "prediction")
    assert note.message.startswith("1 prediction an annotation embeds (annotations[]."
                                   "prediction, the prediction its annotator saw) is not "
                                   "among its task's predictions")


def test_two_annotators_who_saw_one_prediction_give_it_once() -> None:
    body = {"id": 11, "model_version": "m", "result": [_span(8, 11, "Bob", "PER")]}
    task = _task(1, [11], body)
    second = {"id": 8, "completed_by": 3, "result": [_span(0, 3, "Ada", "PER")],
              "prediction": body}
    task["annotations"].append(second)  # type: ignore[attr-defined]
    loaded = _load([task])
    sets = {s.name: s for s in loaded.sets}
    assert sorted(sets) == ["annotator 2", "annotator 3", "model m"]
    assert len(sets["model m"].get("1")) == 1
    assert "1 of them read" in loaded.diagnostics[0].message


def test_prediction_objects_in_the_list_are_read_and_embedded_copies_ignored() -> None:
    body = {"id": 11, "model_version": "m", "result": [_span(8, 11, "Bob", "PER")]}
    loaded = _load([_task(1, [body], body)])
    assert {s.name: len(s.get("1")) for s in loaded.sets} == {"annotator 2": 2, "model m": 1}
    assert loaded.diagnostics == []


def test_an_image_tasks_upload_path_is_not_its_text() -> None:
    tasks = [{"id": 87, "data": {"image": "/data/upload/29/example.png"},
              "annotations": [{"completed_by": 1, "result": [
                  {"type": "polygonlabels", "value": {"points": [[1, 2], [3, 4], [5, 6]],
                                                      "polygonlabels": ["Airplane"]}}]}]},
             {"id": 88, "data": {"audio": "https://example.org/a/clip.flac?x=1"},
              "annotations": [{"completed_by": 1, "result": []}]}]
    loaded = _load(tasks)
    assert loaded.texts == {"87": None, "88": None}
    assert [d.message for d in loaded.diagnostics] == [
        NO_SPANS % "'polygonlabels'", MEDIA % ("image", "/data/upload/29/example.png"),
        MEDIA % ("audio", "https://example.org/a/clip.flac?x=1"),
        "a polygonlabels result, not a span label; skipped"]
    assert [d.path for d in loaded.diagnostics[1:3]] == ["[0].data.image", "[1].data.audio"]


NO_SPANS = ("the export holds no span (labels) results, so 0 spans are read: only image/audio/"
            "video regions or classifications (%s); no text was read (SpanScope measures spans: "
            "export a project with a Labels tag)")
MEDIA = ("data %r is read as a media file's path or address (%r), not as the task's text "
         "(said once per file and key)")


def test_a_sentence_that_looks_like_a_path_is_the_text_its_spans_label() -> None:
    # review13: "I/O error when opening report.pdf" is a relative path to a PDF by the shape
    # of the media rule; its labels result says it is the text, read as before that rule.
    sentence = "I/O error when opening report.pdf"
    tasks = [{"id": 1, "data": {"sentence": sentence},
              "annotations": [{"completed_by": 1, "result": [
                  {"type": "labels", "from_name": "label", "to_name": "sentence",
                   "value": {"start": 0, "end": 9, "text": "I/O error", "labels": ["ERR"]}}]}]},
             {"id": 2, "data": {"sentence": "a/b c.mp4"},  # named by to_name, no value.text
              "annotations": [{"completed_by": 1, "result": [
                  {"type": "labels", "from_name": "label", "to_name": "sentence",
                   "value": {"start": 0, "end": 3, "labels": ["ERR"]}}]}]},
             {"id": 3, "data": {"body": sentence, "image": "/data/upload/1/a.png"},
              "annotations": [{"completed_by": 1, "result": [
                  {"type": "labels", "from_name": "label", "to_name": "t",
                   "value": {"start": 0, "end": 9, "text": "I/O error", "labels": ["ERR"]}}]}]}]
    loaded = _load(tasks)
    assert loaded.texts == {"1": sentence, "2": "a/b c.mp4", "3": sentence}
    assert [d.message for d in loaded.diagnostics] == [
        MEDIA % ("image", "/data/upload/1/a.png")]  # set aside, and said
    assert len(loaded.sets[0].get("1")) == 1


def test_a_path_a_region_names_is_media_even_where_a_span_matches_it() -> None:
    tasks = [{"id": 1, "data": {"image": "shots/a b.jpg", "caption": "shots/a b.jpg"},
              "annotations": [{"completed_by": 1, "result": [
                  {"type": "rectanglelabels", "to_name": "image", "value": {
                      "x": 1.0, "y": 1.0, "width": 5.0, "height": 5.0,
                      "rectanglelabels": ["open"]}},
                  {"type": "labels", "to_name": "caption",
                   "value": {"start": 0, "end": 5, "text": "shots", "labels": ["X"]}}]}]}]
    loaded = _load(tasks)
    assert loaded.texts == {"1": "shots/a b.jpg"}
    assert MEDIA % ("image", "shots/a b.jpg") in [d.message for d in loaded.diagnostics]


def test_an_image_project_with_relative_paths_has_no_text_and_says_so() -> None:
    # brunocouto/Desafio-5-senai-'s label_studio_export.json (tests/data/wild): an image
    # project whose tasks name their image by a relative path with a space in the file name,
    # which was read as each task's text, and 121 tasks of 0 spans without a word on why.
    tasks = [{"id": 95 + k, "data": {"image": f"dataset_yolo/images/train/download ({k}).jpg"},
              "annotations": [{"id": 95 + k, "completed_by": {"id": 1, "email": "a@b.c"},
                               "result": [{"type": "rectanglelabels", "from_name": "label",
                                           "to_name": "image", "value": {
                                               "x": 10.0, "y": 10.0, "width": 80.0,
                                               "height": 80.0, "rectanglelabels": ["open"]}}]}]}
             for k in range(1, 4)]
    loaded = _load(tasks)
    assert loaded.texts == {"96": None, "97": None, "98": None}
    messages = [d.message for d in loaded.diagnostics]
    assert messages == [NO_SPANS % "'rectanglelabels'",
                        MEDIA % ("image", "dataset_yolo/images/train/download (1).jpg"),
                        "a rectanglelabels result, not a span label; skipped"]
    assert loaded.diagnostics[2].count == 3  # one grouped warning, each listed on demand


def test_a_text_that_ends_with_a_file_name_among_words_is_still_the_text() -> None:
    tasks = [{"id": 1, "data": {"words": "my cat/dog photo is at home/cat.jpg"},
              "annotations": [{"completed_by": 1, "result": []}]}]
    assert _load(tasks).texts == {"1": "my cat/dog photo is at home/cat.jpg"}


def test_a_text_that_names_a_file_among_words_is_still_the_text() -> None:
    tasks = [{"id": 1, "data": {"words": "see /data/upload/1/a.png for the chart"},
              "annotations": [{"completed_by": 1, "result": []}]}]
    assert _load(tasks).texts == {"1": "see /data/upload/1/a.png for the chart"}


def test_a_model_version_that_says_model_is_not_said_twice() -> None:
    tasks = [{"id": 1, "data": {"text": TEXT},
              "predictions": [{"model_version": "model 0", "result": [_span(0, 3, "Ada", "P")]},
                              {"model_version": 4, "result": []}]}]
    assert [s.name for s in _load(tasks).sets] == ["model 0", "model 4"]


def _labels_result(value: object) -> dict[str, object]:
    return {"id": "r", "from_name": "label", "to_name": "text", "type": "labels",
            "value": value}


@pytest.mark.parametrize(("value", "said"), [
    ({"id": "c", "type": "labels", "value": {"start": 6, "end": 11, "text": "world",
                                             "labels": ["B"]}},
     "holds another result's 'value' inside its own"),
    ({"text": "world", "labels": ["B"]}, "has no 'start' and 'end'"),
    ("world", "is not an object"),
])
def test_a_span_result_without_its_offsets_says_what_is_wrong_and_what_to_do(
        value: object, said: str) -> None:
    """bugleft18: a ``labels`` result whose value held another result (a script that wrapped
    results twice) was skipped as "a labels result, not a span label": a labels result said
    not to be a span label, and nothing a user could change. The warning names the file, the
    line, the result and its field, what is wrong and what Label Studio writes there."""
    tasks = [{"id": 1, "data": {"text": "Hello world, friends."}, "annotations": [
        {"completed_by": 1, "result": [
            _labels_result({"start": 0, "end": 5, "text": "Hello", "labels": ["A"]}),
            _labels_result(value)]}]}]
    content = json.dumps(tasks, indent=1).encode()
    loaded = load_files({"nested.json": content})
    assert loaded.set.span_count() == 1
    (warning,) = [d for d in loaded.diagnostics if d.kind == "skipped"]
    text = str(warning)
    ids = [n for n, row in enumerate(content.decode().splitlines(), 1)
           if row.strip() == '"id": "r",']
    assert warning.line == ids[1] - 1  # the line where the second result opens
    assert text.startswith(f"nested.json:{warning.line}: [0].annotations[0].result[1]")
    assert "field 'value'" in text and said in text
    assert "not a span label" not in text
    assert "{'start', 'end', 'text', 'labels'}" in text  # what Label Studio writes there
