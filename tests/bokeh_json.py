"""Read the models of a serialised Bokeh document (an exported page's or a notebook output's JSON)."""


def models_in(docs):
    """(type, attributes) of every model object in Bokeh's docs_json."""
    found = []

    def walk(o):
        if isinstance(o, dict):
            if o.get("type") == "object" and isinstance(o.get("attributes"), dict):
                found.append((o["name"], o["attributes"]))
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(docs)
    return found


def model(models, name):
    """The attributes of the one model with this name (or CSS class)."""
    hits = [a for _, a in models if a.get("name") == name or name in (a.get("css_classes") or [])]
    assert len(hits) == 1, (name, len(hits))
    return hits[0]
