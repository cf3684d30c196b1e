// The served page's bridge (app/page.py). The explainer on a served page is one document that every visitor gets
// alike (built once per process, drawn by the page like the exported file); the visitor's session with Python is
// a second, small document that holds only a wire of its own. This callback of that small document joins the two
// wires: what the page writes on its wire goes to Python, what Python writes comes back to the page's wire, whose
// own callback (lesson.mjs on_wire) checks and draws it. A lost connection is told to the page's callback as the
// served explainer's document event would tell it.

const JOIN_EVERY_MS = 50; // the two documents are embedded in either order: the page's may come second
const JOIN_TRIES = 600; // 30 s: a page that never draws its explainer has nothing to join
// This session's wire → the page's, kept on the window: BokehJS may compile this module more than once.
const JOINED = (globalThis.__softmax_explainer_joined ??= new WeakMap());

// The page's wire: the model named "wire" in a document other than this session's.
function page_wire(own) {
  for (const doc of globalThis.Bokeh?.documents ?? []) {
    if (doc === own.document) continue;
    const wire = doc.get_model_by_name("wire");
    if (wire) return wire;
  }
  return null;
}

function join(own, tries = 0) {
  if (JOINED.has(own)) return;
  const wire = page_wire(own);
  if (!wire) {
    if (tries < JOIN_TRIES) setTimeout(() => join(own, tries + 1), JOIN_EVERY_MS);
    return;
  }
  JOINED.set(own, wire);
  wire.properties.text.change.connect(() => {
    if (own.text !== wire.text) own.text = wire.text;
  });
  own.properties.text.change.connect(() => {
    if (wire.text !== own.text && own.text !== "") wire.text = own.text;
  });
  // Either side may have spoken before the join; what it said goes now. The page starts with an empty wire and
  // writes it at its first commit (a link read, a gesture): that is the learner's, and Python hears it (and
  // answers a refused state, as any). Else Python's change (made as the session opened) reaches the page.
  if (wire.text !== "" && wire.text !== own.text) own.text = wire.text;
  else if (wire.text === "" && own.text !== "") wire.text = own.text;
}

// Fired by this session's document events: document_ready (join) and connection_lost (the event as `data`).
export default ({ wire }, obj, data) => {
  if (data?.event_name === "connection_lost") {
    for (const cb of JOINED.get(wire)?.js_property_callbacks?.["change:text"] ?? []) {
      cb.execute(wire, { event_name: "connection_lost" });
    }
    return;
  }
  join(wire);
};
