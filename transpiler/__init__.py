"""baybridge: run unmodified CuTe-DSL Python kernels on AMD GPUs via generated HIP C++."""

__version__ = "0.1.0"
