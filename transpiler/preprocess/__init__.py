"""The preprocessor of staged execution (DESIGN.md, "Staged execution"): a libcst pass that
rewrites the run-time control flow of jit functions into calls of the tracer."""
