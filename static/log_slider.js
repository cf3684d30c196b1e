// A log slider's label: its track holds log10 of the field, the label the field itself to 3 significant digits,
// the value a slide gives (static/controls.mjs slider_value): "T = 0.501".
return `${symbol} = ${Number((10 ** tick).toPrecision(3))}`;
