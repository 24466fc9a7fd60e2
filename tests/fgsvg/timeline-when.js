// timeline-when.js SVG TIMELINE.js COMM NAME...: for the thread named
// COMM in an SVG's timeline, per NAME the first and last bin whose
// samples have a frame of that name, "NAME FIRST LAST" a line ("NAME -"
// when none), read with the page's own tllib (TIMELINE.js); exit 1 when
// the SVG has no timeline or no such thread.
'use strict';
const fs = require('fs');
const path = require('path');
const [svg, lib, comm, ...names] = process.argv.slice(2);
const tl = require(path.resolve(lib));
const m = /var fgtl = (\{[\s\S]*?\});\n/.exec(fs.readFileSync(svg, 'utf8'));
if (!m) { console.log('no timeline in ' + svg); process.exit(1); }
const TL = Function('return ' + m[1])();
const row = TL.R.find((r) => r[2] === comm);
if (!row) { console.log(`no thread ${comm}: ${TL.R.map((r) => r[2]).join(', ')}`); process.exit(1); }
const T = tl.tree(TL.T), c = tl.cells(row[5]);
for (const name of names) {
	const id = TL.N.indexOf(name), under = new Uint8Array(T.n);
	for (let i = 0; i < T.n; i++) under[i] = T.M[i] === id || (T.P[i] >= 0 && under[T.P[i]]) ? 1 : 0;
	let lo = -1, hi = -1;
	for (let i = 0; i < c.b.length; i++)
		for (let j = c.e0[i]; j < c.e1[i]; j++)
			if (under[c.node[j]]) { if (lo < 0) lo = c.b[i]; hi = c.b[i]; }
	console.log(lo < 0 ? `${name} -` : `${name} ${lo} ${hi}`);
}
