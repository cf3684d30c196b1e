// The served page's bridge (app/page.py). The explainer on a served page is one document that every visitor gets
// alike (built once per process, drawn by the page like the exported file); the visitor's session with Python is
// a second, small document that holds only a wire of its own. This callback of that small document joins the two
// wires: what the page writes on its wire goes to Python, what Python writes comes back to the page's wire, whose
// own callback (lesson.mjs on_wire) checks and draws it. A lost connection is told to the page's callback as the
// served explainer's document event would tell it.
//
// An app embedded in another page (Bokeh's server_document) has the same small session, and `embed` says what to
// put into that page (app/page.py embed_parts): the shared explainer's element and script, and the fonts, placed
// after this session's element, in an element that names the app's address and the embed's link (draw.mjs
// served_home reads them: the embedding page's own address and query are not the app's).

const JOIN_EVERY_MS = 50; // the two documents are embedded in either order: the page's may come second
const JOIN_TRIES = 600; // 30 s: a page that never draws its explainer has nothing to join
// This session's wire → the page's, kept on the window: BokehJS may compile this module more than once.
const JOINED = (globalThis.__softmax_explainer_joined ??= new WeakMap());
// Embeds of one page take turns: each shared explainer draws into the element id its script names, and an element
// gives up that id once its explainer is drawn, for the next.
const EMBEDS = (globalThis.__softmax_explainer_embeds ??= { placed: new WeakSet(), turn: Promise.resolve(), heads: new Set() });
const MARK = "data-softmax-explainer-app";

// The page's wire: the model named "wire" in a document other than this session's.
function page_wire(own) {
  for (const doc of globalThis.Bokeh?.documents ?? []) {
    if (doc === own.document) continue;
    const wire = doc.get_model_by_name("wire");
    if (wire) return wire;
  }
  return null;
}

// Look for the page's wire every JOIN_EVERY_MS until `find` gives it; then `joined`.
function join(own, find, joined = () => {}, tries = 0) {
  if (JOINED.has(own)) return;
  const wire = find();
  if (wire) {
    connect(own, wire);
    joined();
  } else if (tries < JOIN_TRIES) {
    setTimeout(() => join(own, find, joined, tries + 1), JOIN_EVERY_MS);
  } else {
    joined();
  }
}

function connect(own, wire) {
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

// HTML parsed into nodes does not run its scripts: each is made again, its relative links resolved against the app.
function live_nodes(html, base) {
  const t = document.createElement("template");
  t.innerHTML = html;
  return [...t.content.childNodes].map((node) => {
    if (node.localName !== "script" && node.localName !== "link") return node;
    const made = document.createElement(node.localName);
    for (const { name, value } of node.attributes) {
      made.setAttribute(name, name === "src" || name === "href" ? new URL(value, base).href : value);
    }
    if (node.localName === "script") {
      made.text = node.text;
      made.async = false;
    }
    return made;
  });
}

// The wire of the explainer drawn inside `box`: a document other than this session's whose root is in it.
function wire_in(own, box) {
  for (const doc of globalThis.Bokeh?.documents ?? []) {
    if (doc === own.document) continue;
    const drawn = doc.roots().some((r) => {
      const el = globalThis.Bokeh.index.find_one(r)?.el;
      return el != null && box.contains(el);
    });
    if (drawn) return doc.get_model_by_name("wire");
  }
  return null;
}

// An embed: the explainer and the fonts go after this session's (hidden) element, in a box that names the app.
function place(own, root, embed) {
  if (EMBEDS.placed.has(own)) return;
  const at = globalThis.Bokeh?.index?.find_one(root)?.el;
  if (!at) {
    setTimeout(() => place(own, root, embed), JOIN_EVERY_MS);
    return;
  }
  EMBEDS.placed.add(own);
  EMBEDS.turn = EMBEDS.turn.then(() => new Promise((done) => {
    if (!EMBEDS.heads.has(embed.head)) {
      EMBEDS.heads.add(embed.head);
      document.head.append(...live_nodes(embed.head, embed.url));
    }
    const box = document.createElement("div");
    box.setAttribute(MARK, embed.url);
    box.setAttribute(`${MARK}-link`, embed.link);
    box.append(...live_nodes(embed.body, embed.url));
    at.after(box);
    join(own, () => wire_in(own, box), () => {
      box.querySelector("[data-root-id]")?.removeAttribute("id");
      done();
    });
  }));
}

// Fired by this session's document events: document_ready (join) and connection_lost (the event as `data`).
export default ({ wire, root, embed }, obj, data) => {
  if (data?.event_name === "connection_lost") {
    for (const cb of JOINED.get(wire)?.js_property_callbacks?.["change:text"] ?? []) {
      cb.execute(wire, { event_name: "connection_lost" });
    }
    return;
  }
  if (embed) place(wire, root, embed);
  else join(wire, () => page_wire(wire));
};
