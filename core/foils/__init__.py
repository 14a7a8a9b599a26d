"""The foil engine: parse a sentence into a graph, edit it by rule, realize and validate the foils."""
