"""simt.fuse and vectorize (placeholder during development)."""


def fuse(*args, **kwargs):
    raise NotImplementedError


def vectorize(*args, **kwargs):
    raise NotImplementedError
