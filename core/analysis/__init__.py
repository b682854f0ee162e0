"""Error analysis on top of the metrics: error categories, slices, adjudication aids."""
