"""The translation of a DSL module, as calls and `bbx build` use it: memoised per source text
(and facts of a call) in the process and on disk (translation_cache.py)."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from ..analysis.call_facts import CallFacts
from ..translate import TranslationResult, translate_source
from . import translation_cache


class TranslationFailed(RuntimeError):
    """The module of a jit function does not translate; the message holds the diagnostics."""


_translations: dict[str, TranslationResult] = {}
_translations_lock = threading.Lock()


def translate_module(path: str, source: str | None = None,
                     call_facts: CallFacts | None = None) -> TranslationResult:
    """The translation of a module's source (for the facts of a call from host Python, when
    it has functions that depend on them: bbx.analysis.call_facts), memoised per source text
    and facts in the process and on disk (translation_cache.py)."""
    if source is None:
        source = Path(path).read_text(encoding="utf-8")
    facts = call_facts.key() if call_facts is not None else ""
    digest = hashlib.sha256(source.encode() + (f"|{facts}".encode() if facts else b"")).hexdigest()
    with _translations_lock:
        found = _translations.get(digest)
        if found is None:
            found = translation_cache.load(path, digest)
            if found is None:
                found = translate_source(source, Path(path).name, display_path=path,
                                         source_path=path, call_facts=call_facts)
                translation_cache.store(path, digest, found)
            _translations[digest] = found
    if not found.usable:
        raise TranslationFailed(
            f"bbx: {path} cannot be translated:\n{found.render_diagnostics()}"
        )
    return found


def dependency_texts(translation: TranslationResult) -> dict[str, str]:
    """`<stem>.hip` -> generated text of every module whose helpers `translation` includes."""
    return {dep.stem + ".hip": translate_module(str(dep)).text or ""
            for dep in translation.dependencies}
