"""Renders a translated module into the `.hip` file skeleton (templates/module.hip.j2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import jinja2

from ..paths import templates_dir


@dataclass
class Section:
    comments: list[str] = field(default_factory=list)
    code: str = ""


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir())),
        keep_trailing_newline=True,
        trim_blocks=False,
        lstrip_blocks=False,
        autoescape=False,
        undefined=jinja2.StrictUndefined,
    )


def render_module(
    *,
    version: str,
    file_name: str,
    output_name: str,
    sha256: str,
    namespace: str,
    sections: list[Section],
    includes: list[str] | None = None,
    regenerate: str | None = None,
) -> str:
    """The `.hip` module text; `regenerate`: how the header says to make it again (default:
    `bbx translate FILE -o OUTPUT`)."""
    template = _environment().get_template("module.hip.j2")
    text = template.render(
        version=version,
        file_name=file_name,
        output_name=output_name,
        sha256=sha256,
        namespace=namespace,
        sections=sections,
        includes=includes or [],
        regenerate=regenerate or f"`bbx translate {file_name} -o {output_name}`.",
    )
    return "\n".join(line.rstrip() for line in text.splitlines()) + "\n"
