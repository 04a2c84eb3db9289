"""``cutlass.utils`` on the host: ``HardwareInfo``; everything else (``SmemAllocator``, tile
schedulers, ...) is used inside transpiled code and is a device-only marker here."""

from __future__ import annotations

from typing import Any

from bbx.host_arch import shared_memory_capacity
from bbx.host_errors import HostApiError
from bbx.targets.registry import default_target
from bbx.targets.simulator import SIMULATOR_L2_BYTES

from .._markers import DeviceOnly, module_getattr

__all__ = ["HardwareInfo", "SmemAllocator", "get_smem_capacity_in_bytes"]

SmemAllocator = DeviceOnly("cutlass.utils.SmemAllocator")


class HardwareInfo:
    """What the device offers, for sizing grids and L2 flushes: torch's device properties on
    GPU targets (a ROCm torch reports the AMD GPU's compute units and L2); on the simulator the
    host threads that run blocks and an sm_80-class (A100) L2 size."""

    def __init__(self, device_id: int = 0) -> None:
        self.device_id = device_id
        self._props: Any = None
        if not default_target().runs_on_host:
            import torch

            self._props = torch.cuda.get_device_properties(device_id)

    def get_device_multiprocessor_count(self) -> int:
        if self._props is not None:
            return int(self._props.multi_processor_count)
        from bbx.cuda_standin import host_threads

        return host_threads()

    def get_l2_cache_size_in_bytes(self) -> int:
        if self._props is not None:
            return int(self._props.L2_cache_size)
        return SIMULATOR_L2_BYTES

    def get_max_active_clusters(self, cluster_size: int, stream: Any = None) -> int:
        if cluster_size != 1:
            raise HostApiError(
                f"HardwareInfo().get_max_active_clusters({cluster_size})",
                "thread block clusters are an NVIDIA feature (Hopper and later); bbx runs "
                "clusters of one block", "nvidia-only-host")
        return self.get_device_multiprocessor_count()


def get_smem_capacity_in_bytes(compute_capability: str | None = None) -> int:
    """Shared memory one block may use: what the target has (the AMD GPU's or the simulator's
    LDS, whatever architecture is named), the DSL's figure on the CUDA target."""
    return shared_memory_capacity(compute_capability)


__getattr__ = module_getattr(__name__)
