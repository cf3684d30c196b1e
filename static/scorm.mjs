// SCORM 1.2's runtime, spoken when a course platform offers it: the page packaged by `softmax-explainer export
// --scorm` (app/scorm.py) is a SCO, launched in a frame or a window of the platform, which puts its `API` object
// on one of the page's ancestors or on its opener. Where none offers one (the plain exported file, a web host, a
// course page, a notebook) the page finds none and does nothing else; a platform's call that throws is a call
// that failed, never the page's error.

const SESSION = Symbol.for("softmax_explainer.scorm"); // on the window: a SCO initializes once per window
const LEVELS = 7; // ADL's own search goes up seven parents at most

// The `API` of `win` or of its nearest ancestor that has one. A window of another origin throws when read: it is
// not the platform's (SCORM's API must be of the page's own origin), and the search goes on above it.
function api_above(win) {
  for (let level = 0; win && level <= LEVELS; level += 1) {
    try {
      if (win.API && typeof win.API.LMSInitialize === "function") return win.API;
    } catch {
      // another origin's window
    }
    let up = null;
    try {
      up = win.parent === win ? null : win.parent;
    } catch {
      up = null;
    }
    win = up;
  }
  return null;
}

/** The platform's SCORM 1.2 `API` for window `win`, or null: up its parents, then up its opener's (ADL's search). */
export function find_api(win) {
  const api = api_above(win);
  if (api) return api;
  try {
    return win.opener ? api_above(win.opener) : null;
  } catch {
    return null;
  }
}

// One call of the API, as text ("true", "false", a value), or null when it threw.
function call(api, name, ...args) {
  try {
    return String(api[name](...args));
  } catch {
    return null;
  }
}

// SCORM 1.2's CMITimespan: HHHH:MM:SS.SS.
function timespan(ms) {
  const s = Math.max(0, ms) / 1000;
  const hours = Math.min(9999, Math.floor(s / 3600));
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = (s % 60).toFixed(2).padStart(5, "0");
  return `${String(hours).padStart(4, "0")}:${String(minutes).padStart(2, "0")}:${seconds}`;
}

function set_status(session, status) {
  call(session.api, "LMSSetValue", "cmi.core.lesson_status", status);
  call(session.api, "LMSCommit", "");
}

/** At the page's first frame, state s: find the platform and begin. A lesson whose status the platform holds as
 * not attempted becomes "incomplete"; one with no guided path shown is the page itself, and "completed" at once. */
export function lms_start(a, s) {
  if (a.mode === "notebook" || Object.hasOwn(window, SESSION)) return;
  window[SESSION] = null;
  const api = find_api(window);
  if (!api || call(api, "LMSInitialize", "") !== "true") return;
  const status = call(api, "LMSGetValue", "cmi.core.lesson_status");
  // A lesson the platform holds as completed or passed stays so: nothing the page says lowers it.
  const session = { api, step: s.step, done: status === "completed" || status === "passed", began: Date.now() };
  window[SESSION] = session;
  if (!s.tour) lms_completed(s, s.step);
  else if (status === "not attempted" || status === "" || status === null) set_status(session, "incomplete");
  window.addEventListener("pagehide", () => {
    call(api, "LMSSetValue", "cmi.core.session_time", timespan(Date.now() - session.began));
    call(api, "LMSFinish", "");
  }, { once: true });
}

/** A step's task done by the learner (tour.mjs, through host.mjs): the lesson is completed when it is the step
 * the lesson opened at or a later one (an instructor's package opens at the step it asks for). */
export function lms_completed(s, step) {
  const session = window[SESSION];
  if (!session || session.done || step < session.step) return;
  session.done = true;
  set_status(session, "completed");
}
