"""The `bbx` command line."""
