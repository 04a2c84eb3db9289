"""A CuTe-DSL library written as real libraries are (issue 27): a base class in one module, plain
helpers in another, a monkey-patched tensor method and a preprocessor extension. Run by staged
execution from tests/runtime/test_staged.py."""
