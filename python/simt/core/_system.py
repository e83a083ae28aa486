"""simt.core.system: what the active backend offers as a whole (cuda.core's `system`)."""
from .. import _simt


class System:
    """The devices of the active backend."""

    @property
    def num_devices(self):
        """How many devices the active backend has."""
        return _simt.device_count()

    @property
    def devices(self):
        """Every device, as simt.core.Device objects."""
        from ._device import Device
        return tuple(Device(i) for i in range(self.num_devices))

    def __repr__(self):
        return f"<simt.core.system: {self.num_devices} device(s) on the {_simt.backend_name()} backend>"


system = System()
