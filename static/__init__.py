"""The browser side of the explainer: ES module files and a stylesheet, shipped as package data and read
through importlib.resources (app/bundle.py)."""
