"""``cuda.bindings`` stand-in: ``driver`` serves stream handles; ``runtime``, ``nvrtc`` and the
rest are NVIDIA-only (each use names the construct and the line)."""

__bbx_shim__ = True
