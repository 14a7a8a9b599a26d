"""AMR graphs: the penman codec and checks, PropBank frames, Smatch, the .amr corpus export."""
