"""Widgets shared by every screen: buttons, panels, cards and notices."""
