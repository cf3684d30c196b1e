"""app/bundle.py joins the browser files into one module scope, and refuses a name declared twice."""

import pytest

from app.bundle import FILES, bundle, read


def test_every_file_is_in_the_bundle_once_and_unchanged():
    joined = bundle()
    for name in FILES:
        assert joined.count(f"// ---- static/{name}\n{read(name)}") == 1, name


def test_a_name_declared_in_two_files_is_refused_naming_both():
    with pytest.raises(ValueError, match=r"static/digits\.mjs declares '\w+', which static/digits\.mjs declares too"):
        bundle(("digits.mjs", "digits.mjs"))
