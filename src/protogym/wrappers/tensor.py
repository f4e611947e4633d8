"""The earlier path of `protogym.wrappers.numpy_to_torch` (Gymnasium's name), kept only until
the vector wrappers import `Device` from there."""

from protogym.wrappers.numpy_to_torch import (
    Device,
    NumpyToTorch,
    TorchToNumpy,
    numpy_to_torch,
    torch_to_numpy,
)

__all__ = ["Device", "NumpyToTorch", "TorchToNumpy", "numpy_to_torch", "torch_to_numpy"]
