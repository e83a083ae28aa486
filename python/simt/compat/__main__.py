"""python -m simt.compat script.py [args...]: runs the script with numba.cuda and CuPy resolved to simt."""
import sys

from ._hook import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
