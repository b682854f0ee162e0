"""Analyses built on the metrics: error categories, slices, and the consensus of several
annotators' sets for adjudication."""
