"""The engine: loading, desugaring, compiling and querying rules.

Modules here are imported on demand; nothing is imported by this package
itself, so the warm path loads only what a pickled graph needs.
"""
