"""Neural backends: amrlib parse/generate models, NLI validation, model folders."""
