// A log slider's label: its track holds log10 of the field, the label the field itself ("T = 0.50").
const value = 10 ** tick;
return `${symbol} = ${value < 1 ? value.toPrecision(2) : value.toPrecision(3)}`;
