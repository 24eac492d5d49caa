"""Jack Table Companion: the rules and the table's memory, in plain Python."""

__version__ = "0.1.0"
