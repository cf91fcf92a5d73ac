"""Stand-in for triton.backends.amd.driver: reports the host GPU like the real one."""
from triton.backends.compiler import GPUTarget


class HIPDriver:
    def get_current_target(self):
        return GPUTarget("hip", "gfx942", 64)
