"""Screens of the workbench app: workbench, compare, basket, help (variation and CLSD come from their own modules)."""
