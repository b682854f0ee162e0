"""Metrics, one module per family (martino, mafalda, hateval, text_labels, agreement).

Each returns sufficient statistics (sums and counts, per label and per document) and a small
function turns them into P, R and F1, so that partial results can be added together.
"""
