"""Walking the string table (app/strings.py TEXT): one walker for every test and script that reads it whole."""


def leaves(table, path=()):
    """(path, value) for every string of a table, its nested tables and lists included; a path is the keys and
    indices down to the string.

    >>> list(leaves({"a": "x", "b": {"c": ["y", "z"]}}))
    [(('a',), 'x'), (('b', 'c', 0), 'y'), (('b', 'c', 1), 'z')]
    """
    if isinstance(table, dict):
        for key, value in table.items():
            yield from leaves(value, (*path, key))
    elif isinstance(table, list | tuple):
        for i, value in enumerate(table):
            yield from leaves(value, (*path, i))
    else:
        yield path, table


def strings(table):
    """Every string of a table, in order."""
    return [text for _, text in leaves(table)]
