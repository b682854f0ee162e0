"""Analyses built on the metrics: consensus and adjudication of several annotators' sets."""
