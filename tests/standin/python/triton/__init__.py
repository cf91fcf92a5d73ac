"""A stand-in for the triton package (tests only): just enough of its AMD backend."""
