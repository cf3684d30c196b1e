// The page inside another: a course page, or a course platform (Canvas, Moodle, Sakai: LTI's messages) around
// an exported file or a served app. What it tells the frame's parent is the page's own and public: its height,
// its lesson as a link, and, when the link asks for them (xapi=1), xAPI-shaped statements the platform may store.
// Nothing goes to the network: a host that wants a record keeps it.

import { link_of } from "./link.mjs";
import { plain_text } from "./readouts.mjs";
import { lms_completed, lms_start } from "./scorm.mjs";

const VERBS = {
  completed: "http://adlnet.gov/expapi/verbs/completed",
  answered: "http://adlnet.gov/expapi/verbs/answered",
};

/** Whether the page has a parent to tell: it is framed, and not a notebook's output (the notebook is its page). */
export function framed(a) {
  return a.mode !== "notebook" && window.parent !== window;
}

/** The origin messages go to: the parent's own where the browser names it (`location.ancestorOrigins`, or the
 * referrer of a frame its parent opened), so no other page that navigated the frame's parent reads them; any
 * ("*") where it cannot: a file page's parent has an opaque origin, which no message can name. */
export function host_origin() {
  let named = location.ancestorOrigins?.[0] ?? "";
  if (!named && document.referrer) {
    try {
      named = new URL(document.referrer).origin;
    } catch {
      named = "";
    }
  }
  return /^https?:\/\//.test(named) ? named : "*";
}

function tell(a, message) {
  if (framed(a)) window.parent.postMessage(message, host_origin());
}

/** The page's height, as the page's own message (examples/course_page.html reads it) and as LTI tools send
 * Canvas's `lti.frameResize`: a JSON text, which Canvas, Moodle's message handler and Sakai all read. */
export function tell_height(a, height) {
  const h = Math.ceil(height);
  tell(a, { softmax_explainer_height: h });
  tell(a, JSON.stringify({ subject: "lti.frameResize", height: h }));
}

/** The lesson as its link (the keys after "#" or "?"): `ready` once it is drawn, `state` after each gesture
 * that changed it, so a host can keep where its learner is and open it again. */
export function tell_lesson(a, kind, s) {
  if (kind === "ready") lms_start(a, s); // a SCORM 1.2 platform, when one launched the page (scorm.mjs)
  tell(a, { softmax_explainer: kind, link: link_of(s, a.strings, a.rules) });
}

/** An xAPI statement (1.0.3's shape) of a step of the guided path: `completed` when its task is done, `answered`
 * when a prediction is chosen (with whether it was right). It has no actor: the platform that stores it knows its
 * learner. Told only when the lesson's link asks (xapi=1), and only to the parent. */
export function tell_statement(a, s, verb, step, result) {
  if (verb === "completed") lms_completed(s, s.step);
  if (!s.xapi) return;
  const title = plain_text(a.strings[s.lang].tour_steps[step.id].title);
  tell(a, {
    softmax_explainer: "xapi",
    statement: {
      verb: { id: VERBS[verb], display: { "en-US": verb } },
      object: {
        objectType: "Activity",
        id: `urn:softmax-explainer:step:${step.id}`,
        definition: { name: { [s.lang]: title }, type: "http://adlnet.gov/expapi/activities/interaction" },
      },
      result,
      context: { extensions: { "urn:softmax-explainer:link": link_of(s, a.strings, a.rules) } },
      timestamp: new Date().toISOString(),
    },
  });
}
