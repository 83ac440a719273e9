"""Loopback stand-ins for the outside services the product talks to, for the tests and the benchmarks.

Not part of the product: nothing under the product's packages imports this,
and the Docker image leaves it out.
"""
