"""Options dataclasses given as instances or as dicts, the two forms cuda.core accepts."""


def check_or_create_options(cls, options, what):
    """`options` as an instance of `cls` (None gives the defaults; a dict is expanded)."""
    if options is None:
        return cls()
    if isinstance(options, dict):
        return cls(**options)
    if not isinstance(options, cls):
        raise TypeError(f"the {what} must be a {cls.__name__} or a dict, not {type(options).__name__}")
    return options
