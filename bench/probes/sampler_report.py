"""Prints the shares of bench/probes/sampler.c's samples by library, then by function (simt's
resolved with addr2line against the given extension module, built with SIMT_KEEP_SYMBOLS=ON).

    python -m bench.probes.sampler_report SAMPLES_FILE SIMT_EXTENSION_SO [top]
"""
import collections
import subprocess
import sys


def main(path, extension, top=40):
    rows = [line.split(" ", 3) for line in open(path).read().splitlines()]
    total = sum(int(r[0]) for r in rows)
    by_library, by_function, simt_offsets = collections.Counter(), collections.Counter(), []
    for count, library, offset, symbol in rows:
        count, short = int(count), library.rsplit("/", 1)[-1]
        by_library[short] += count
        if "_simt" in short:
            simt_offsets.append((offset, count))
        else:
            by_function[f"{short}: {symbol}"] += count
    if simt_offsets:  # dladdr names only exported symbols; the module's own need its symbol table
        names = subprocess.run(["addr2line", "-f", "-C", "-e", extension] + [o for o, _ in simt_offsets],
                               capture_output=True, text=True).stdout.splitlines()
        for i, (_, count) in enumerate(simt_offsets):
            by_function["simt: " + (names[2 * i] if 2 * i < len(names) else "?")[:100]] += count
    print(f"{total} samples")
    for name, count in by_library.most_common(12):
        print(f"{100 * count / total:6.1f}%  {name}")
    print()
    for name, count in by_function.most_common(top):
        print(f"{100 * count / total:6.1f}%  {name}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 40)
