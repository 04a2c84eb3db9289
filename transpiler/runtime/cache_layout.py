"""The names inside a build cache directory, shared by the cache that writes it (cache.py,
cache_root.py, translation_cache.py) and the code that measures and prunes it (cache_usage.py).

    <root>/<key[:2]>/<key>/MANIFEST     a published entry (and <key>.use, <key>.lock beside it)
    <root>/TRANSLATIONS/<k[:2]>/<k>.pickle  a saved translation
    <root>/STAGING/                     builds in progress
"""

from __future__ import annotations

MANIFEST = "manifest.json"
TRANSLATIONS = "translations"
STAGING = "tmp"
