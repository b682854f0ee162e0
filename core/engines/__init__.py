"""How a scoring runs: the steps every span metric's inputs go through once read
(:mod:`core.engines.inputs`, one path for the command line and for each shard), and the Dask
engine that scores shards on workers and adds their additive statistics
(:mod:`core.engines.sharded`, ``--engine dask``; ``docs/scale.md``).
"""
