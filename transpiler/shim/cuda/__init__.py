"""bbx's stand-in for NVIDIA's ``cuda`` (cuda-python) package, served by the import hook only
where the real ``cuda.bindings`` is not installed (see ``bindings/driver.py``)."""

__bbx_shim__ = True
