"""simt.core: cuda.core's runtime API (Device, Stream, Event, Buffer, Program, launch) on both backends."""
# (docs/core.md: what exists, how it maps to cuda.core, the differences)
from ._buffer import Buffer
from ._device import ComputeCapability, Device, DeviceProperties
from ._event import Event, EventOptions
from ._launch_config import LaunchConfig
from ._launcher import launch
from ._module import Kernel, KernelAttributes, ObjectCode
from ._program import Program
from ._program_options import ProgramOptions
from ._stream import Stream, StreamOptions
from ._system import System, system

__all__ = ["Buffer", "ComputeCapability", "Device", "DeviceProperties", "Event", "EventOptions", "Kernel",
           "KernelAttributes", "LaunchConfig", "ObjectCode", "Program", "ProgramOptions", "Stream", "StreamOptions",
           "System", "launch", "system"]
