"""The Kivy touchscreen app. Kivy is imported only by the modules that draw."""
