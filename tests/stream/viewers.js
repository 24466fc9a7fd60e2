// tests/stream/viewers.js: how two viewers that import perf script text
// take a file, by their rules as we read them in their sources (the rules
// are restated here in our words; no code of theirs is copied).
//
//   node viewers.js firefox FILE     prints "perf N", "folded" or "json"
//   node viewers.js speedscope FILE  prints "perf N EVENT"
//
// N is the number of samples with at least one frame that the importer
// keeps. The facts:
//
// The Firefox Profiler (firefox-devtools/profiler: process-profile.ts,
// unserializeProfileOfArbitraryFormat; import/linux-perf.ts,
// isPerfScriptFormat; import/flame-graph.ts, isFlameGraphFormat) takes a
// file that is not gzip, JSON slabs, an ART trace or simpleperf data as
// text, decodes at most its first 4096 bytes up to the second newline, and
// asks in this order:
//   1. perf script? Yes when the text starts with "# ========" and a
//      newline (the line perf script --header opens with); no when it
//      starts with "{"; otherwise yes when its first line (up to the first
//      newline) is shaped like a sample head: a non-blank character, then
//      anything, white space, an optional "DIGITS/", DIGITS, white space,
//      an optional "[DIGITS]" and white space, then digits and dots and a
//      colon.
//   2. folded stacks? Yes when it does not start with "{" and its first
//      line holds, anywhere, a space followed by a digit (the pattern is
//      not anchored): so "# fgrecord 1" is folded stacks.
//   3. otherwise JSON.
// Its perf parser skips every empty line and every line that starts with
// "#", wherever it is; a sample is a line with "SPACE DIGITS-AND-DOTS:"
// after a "SPACE [DIGITS/]DIGITS", then frame lines ("ADDR SYMBOL (DSO)")
// up to a blank line.
//
// speedscope (jlfwong/speedscope: import/index.ts, import/linux-tools-
// perf.ts) tries perf script text before folded stacks, for any file name
// not of its own: it cuts the text at empty lines into events, drops each
// event's lines that start with white space and "#", and reads the first
// line left as the head: a name, white space, DIGITS with an optional
// "/DIGITS", white space; a time "DIGITS.DIGITS:" followed by white
// space; the event is the last word before a final colon. It keeps the
// events that have a time and the same event as the first one it kept,
// each weighed by the time half-way to its neighbours, not by its period.
'use strict';
const fs = require('fs');

const [mode, file] = process.argv.slice(2);
const text = fs.readFileSync(file, 'latin1');

function firstLine(t) {
	const nl = t.indexOf('\n');
	return nl < 0 ? '' : t.slice(0, nl);
}

function firefoxIsPerf(t) {
	if (t.startsWith('# ========\n'))
		return true;
	if (t.startsWith('{'))
		return false;
	return /^\S.*?\s+(?:\d+\/)?\d+\s+(?:\[\d+\]\s+)?[\d.]+:/.test(firstLine(t));
}

function firefoxIsFolded(t) {
	return !t.startsWith('{') && / [0-9]/.test(firstLine(t));
}

function firefoxSamples(t) {
	const lines = t.split('\n');
	let n = 0;
	for (let i = 0; i < lines.length; ) {
		const head = lines[i++];
		if (head === '' || head.startsWith('#'))
			continue;
		const m = /^(.*)\s+[\d.]+:/.exec(head);
		if (!m || !/^.*\s+(?:\d+\/)?\d+\b/.test(m[1]))
			continue;
		let frames = 0;
		while (i < lines.length && lines[i].trim() !== '') {
			if (/^\s*\w+\s*.+ \([^)]*\)/.test(lines[i++]))
				frames++;
		}
		if (frames > 0)
			n++;
	}
	return n;
}

function speedscope(t) {
	const events = [[]];
	let ev = null, n = 0;

	for (const l of t.split('\n')) {
		if (l === '')
			events.push([]);
		else
			events[events.length - 1].push(l);
	}
	for (const block of events) {
		const lines = block.filter((l) => !/^\s*#/.test(l));
		if (lines.length === 0 || !/^\S.+?\s+\d+(?:\/?\d+)?\s+/.test(lines[0]))
			continue;
		if (!/\s+\d+\.\d+:\s+/.test(lines[0]))
			continue;
		const e = /(\S+):\s*$/.exec(lines[0]);
		const name = e ? e[1] : '';
		if (ev !== null && name !== ev)
			continue;
		ev = name;
		if (lines.slice(1).some((l) => /^\s*\w+\s*.+ \(\S*\)/.test(l)))
			n++;
	}
	return `perf ${n} ${ev}`;
}

if (mode === 'firefox') {
	if (firefoxIsPerf(text.slice(0, 4096)))
		console.log(`perf ${firefoxSamples(text)}`);
	else
		console.log(firefoxIsFolded(text.slice(0, 4096)) ? 'folded' : 'json');
} else if (mode === 'speedscope') {
	console.log(speedscope(text));
} else {
	console.error('usage: node viewers.js firefox|speedscope FILE');
	process.exit(2);
}
