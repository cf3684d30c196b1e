// Both faces of the page's Hangul, loaded at once whatever the page's language. A face is otherwise loaded when
// Korean text first asks for it, and a heading drawn in English that then turned Korean (a link's `lang=ko`,
// the language menu) kept the fonts it had: on a machine with no Korean font its Hangul came out as boxes.
for (const weight of [400, 700]) document.fonts?.load(`${weight} 1em "SX Hangul"`, "\uac00");
