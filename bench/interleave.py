"""Repetitions taken in rounds: each round takes one sample of every implementation, in an order
that rotates from round to round. The host's conditions drift during a run (other processes,
clock speed); interleaving lets every implementation see the same conditions, so a same-run
comparison of host costs compares implementations rather than moments."""


def interleaved_samples(samplers, reps):
    """{name: [samples]} from {name: sampler}; a sampler is a callable returning one sample.
    A sampler that raises is dropped, and its exception is returned in place of its samples."""
    names = list(samplers)
    out = {name: [] for name in names}
    for r in range(reps):
        shift = r % len(names) if names else 0
        for name in names[shift:] + names[:shift]:
            if isinstance(out[name], Exception):
                continue
            try:
                out[name].append(samplers[name]())
            except Exception as e:  # noqa: BLE001 (the cell shows it)
                out[name] = e
    return out
