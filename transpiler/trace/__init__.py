"""Trace-time objects of staged execution (DESIGN.md, "Staged execution"): static DSL objects with
the DSL's exact static semantics (the Python layout algebra) and proxies that record run-time
values into the C++ AST."""
