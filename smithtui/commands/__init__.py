"""Headless subcommands. Each module defines ``register(subparsers)``; the CLI finds them all."""
