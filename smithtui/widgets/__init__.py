"""Widgets of the workbench: graph tree, sentence view, dialogs and pure renderers."""
