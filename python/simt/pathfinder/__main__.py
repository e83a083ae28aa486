"""python -m simt.pathfinder: print where the CUDA driver, NVRTC, headers and libdevice are."""
from . import format_report

print(format_report())
