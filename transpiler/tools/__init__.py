"""Instruments that measure the translator from the outside, through its public API only.

`corpus` translates every file of a directory and tabulates the outcomes (`bbx corpus DIR`);
`fuzz` translates seeded mutants of source files and reports crashes, hangs and nondeterministic
output (`python -m bbx.tools.fuzz`). Every translation runs in a process of its own
(`worker`, driven by `pool`), so a hang or a hard crash costs one case, not the run.
"""
