"""Stand-in for triton.backends.compiler: GPUTarget as Triton 3 defines it."""
from dataclasses import dataclass


@dataclass(frozen=True)
class GPUTarget:
    backend: str
    arch: str
    warp_size: int
