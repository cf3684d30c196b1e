// Every face the page declares (its Hangul, static/hangul.css), loaded at once whatever the page's language. A
// face is otherwise loaded when Korean text first asks for it, and a heading drawn in English that then turned
// Korean (a link's `lang=ko`, the language menu) kept the fonts it had: on a machine with no Korean font its
// Hangul came out as boxes.
document.fonts?.forEach((face) => face.load());
