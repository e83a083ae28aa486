"""simt.core.launch(stream, config, kernel, *kernel_args), through simt's raw-kernel launch path."""
from ._kernel_args import kernel_argument
from ._launch_config import LaunchConfig
from ._module import Kernel
from ._stream import Stream


def launch(stream, config, kernel, *kernel_args):
    """Queues `kernel` on `stream` with `config`'s grid, block and dynamic shared memory."""
    if not isinstance(stream, Stream):
        if not hasattr(stream, "__cuda_stream__"):
            raise TypeError(f"launch() takes a simt.core.Stream first (cuda.core's order: stream, config, kernel, "
                            f"*args), not {type(stream).__name__}")
        from ._device import Device
        stream = Device().create_stream(stream)
    if not isinstance(config, LaunchConfig):
        raise TypeError(f"launch() takes a simt.core.LaunchConfig second, not {type(config).__name__}")
    if not isinstance(kernel, Kernel):
        raise TypeError(f"launch() takes a simt.core.Kernel third (from ObjectCode.get_kernel), not "
                        f"{type(kernel).__name__}")
    args = tuple(kernel_argument(a, i, kernel._name) for i, a in enumerate(kernel_args))
    kernel._function.launch(config.grid, config.block, args, config.shmem_size, stream._live())
