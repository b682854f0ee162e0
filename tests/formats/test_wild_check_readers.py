"""``scripts/wild_check.py``'s independent readers follow the formats' rules where SpanScope
documents them: a CoNLL line starting with ``#`` is a comment only when its tag cell holds no
tag (the Broad Twitter Corpus and WNUT17 have ``#`` and ``#hashtag`` tokens), and spaCy-style
JSONL spans may be under ``entities``. Our own tokens."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _wild_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wild_check", ROOT / "scripts" / "wild_check.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("wild_check", mod)
    spec.loader.exec_module(mod)
    return mod


def test_a_hash_token_with_a_tag_is_a_token_and_a_comment_line_is_not(tmp_path: Path) -> None:
    from core.formats import load_path

    path = tmp_path / "btc.conll"
    path.write_text("# text = a comment line\n#\tO\n#Rome\tB-LOC\nis\tO\nold\tO\n\n"
                    "#\tB-MISC\nParis\tB-LOC\n\n", encoding="utf-8")
    theirs = _wild_check().ind_conll(path, {})
    loaded = load_path(path, fmt="conll")
    ours = [(loaded.texts[d], [(s.start, s.end, s.label) for s in spans])
            for d, spans in loaded.sets[0].spans.items()]
    assert [(t, list(s)) for t, s in theirs.docs] == ours
    assert ours == [("# #Rome is old\n# Paris", [(2, 7, "LOC"), (15, 16, "MISC"),
                                                  (17, 22, "LOC")])]


def test_entities_objects_are_read_by_the_independent_spacy_reader(tmp_path: Path) -> None:
    path = tmp_path / "dev.jsonl"
    path.write_text('{"id": "a", "text": "call asha", "entities": [{"start": 5, "end": 9, '
                    '"label": "PER"}]}\n', encoding="utf-8")
    theirs = _wild_check().ind_spacy(path, {})
    assert theirs.docs == [("call asha", ((5, 9, "PER"),))]
