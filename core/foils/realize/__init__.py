"""The alignment-preserving realizer: an edited graph becomes a sentence."""
