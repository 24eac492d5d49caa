"""One module per screen, each with its layout in a .kv file of the same name."""
