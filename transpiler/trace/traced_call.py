"""What every trace of a jit function does around the user's code: rewrite it (the preprocessor),
say where it is (the lines that end call chains, the `def` line above its C++), and run it with
what it raises turned into a located diagnostic."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..preprocess.loader import FunctionDefinition, function_definition, rewrite_function
from ..preprocess.rewrite import PreprocessError
from . import control
from .context import python_line_comment
from .errors import TraceError, from_exception


@dataclass(frozen=True)
class Rewritten:
    """A jit function's rewritten twin and where its source is."""

    function: Any
    definition: FunctionDefinition

    @property
    def entry(self) -> tuple[str, int, int]:
        """(file, first line with its decorators, last line): `TraceContext.entry`."""
        node = self.definition.node
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        return self.definition.path, first, node.end_lineno or node.lineno

    def comments(self) -> list[str]:
        """The `def` line (and the comments above it), for the C++ function's head."""
        return list(python_line_comment(self.definition.path, self.definition.node.lineno))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Runs the function in the current trace; errors are `TraceError`s at the user's
        line."""
        try:
            return self.function(*args, **kwargs)
        except TraceError:
            raise
        except PreprocessError as e:
            raise TraceError(e.diagnostic) from e
        except Exception as e:  # user code raised while tracing
            raise from_exception(e) from e


def rewritten(raw: Any) -> Rewritten:
    """The plain function `raw` rewritten for tracing (a preprocessor error is a
    `TraceError`)."""
    try:
        return Rewritten(rewrite_function(raw, control), function_definition(raw))
    except PreprocessError as e:
        raise TraceError(e.diagnostic) from e
