"""The table's devices: slap pads and their lights, the serial pad hub, the card reader."""
