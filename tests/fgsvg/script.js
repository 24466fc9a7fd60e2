// script.js SCRIPT.js DIR: the SVG script's pure functions (fglib) under
// node, without a browser. Label fitting and the pattern taming against
// hand-written cases; the function view's merge and the search count
// against the same figures worked out here from folded stacks, on SVGs
// that fgsvg draws in DIR with frames merged grey and hidden (so that the
// search data carries part of the answer), plain, inverted and reversed.
// Prints one line per case, "PASS name" or "FAIL name: why".
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const [script, dir] = process.argv.slice(2);
const fg = require(path.resolve(script));

function check(name, fn) {
	let why;
	try { why = fn(); } catch (e) { why = String(e && e.stack || e).split('\n').slice(0, 3).join(' | '); }
	console.log(why ? `FAIL ${name}: ${why}` : `PASS ${name}`);
}
const eq = (a, b) => JSON.stringify(a) === JSON.stringify(b) ? '' :
	`got ${JSON.stringify(a)}, want ${JSON.stringify(b)}`;

check('label fits a name to a width', () => {
	// font size 10, 0.5 of it per character: 5 pixels a character
	return eq([fg.label('abcdefgh', 40, 10, 0.5), fg.label('abcdefgh', 39, 10, 0.5),
		fg.label('abcdefgh', 15, 10, 0.5), fg.label('abcdefgh', 14.9, 10, 0.5),
		fg.label('ab', 100, 10, 0.5)],
	['abcdefgh', 'abcde..', 'a..', '', 'ab']);
});
check('parsel reads depths, names and own times', () => {
	return eq([fg.parsel('3*5 7 1^2*1.5 0 4'), fg.parsel('-'), fg.parsel(null)],
		[[0, 3, 5, 1, 7, 0, 1, 2, 1.5, 2, 0, 0, 3, 4, 0], null, null]);
});
check('tame keeps a plain pattern and quotes one that backtracks', () => {
	return eq([fg.tame('parse_.*line'), fg.tame('(a+)+$'), fg.tame('(x)\\1')],
		['parse_.*line', '\\(a\\+\\)\\+\\$', '\\(x\\)\\\\1']);
});

// Stacks with recursion (rec calls itself through mid), a function that is
// both caller and callee (mid), and many narrow stacks that fgsvg merges
// into grey frames or hides under their parent.
const stacks = [];
let seed = 7;
const rnd = () => (seed = seed * 16807 % 2147483647) / 2147483647;
stacks.push(['main', 'rec', 'mid', 'rec', 'leaf', 300]);
stacks.push(['main', 'rec', 'leaf', 200]);
stacks.push(['main', 'rec', 400]);
stacks.push(['main', 'other', 'mid', 'leaf', 150]);
stacks.push(['main', 'other', 'mid', 100]);
stacks.push(['main', 'io', 'rec', 'mid', 80]);
for (let i = 0; i < 300; i++) {
	const s = ['main', 'many' + (i % 40)];
	for (let d = 0, n = 1 + Math.floor(rnd() * 5); d < n; d++)
		s.push(['mid', 'rec', 'leaf', 'w' + Math.floor(rnd() * 30)][Math.floor(rnd() * 4)]);
	s.push(1 + Math.floor(rnd() * 3));
	stacks.push(s);
}
const folded = path.join(dir, 'view.folded');
fs.writeFileSync(folded, stacks.map((s) => s.slice(0, -1).join(';') + ' ' + s[s.length - 1]).join('\n') + '\n');
const all = stacks.reduce((t, s) => t + s[s.length - 1], 0);

// What the function view should show for name, from the stacks: total,
// self and the merged trees as "PATH=VALUE" sorted; occurrence: the first
// from the root, or for a reversed drawing the first from the leaf.
function truth(name, rev) {
	let total = 0, self = 0;
	const down = new Map(), up = new Map();
	const add = (m, k, v) => m.set(k, (m.get(k) || 0) + v);
	for (const s of stacks) {
		const fr = s.slice(0, -1), c = s[s.length - 1];
		const k = rev ? fr.lastIndexOf(name) : fr.indexOf(name);
		if (k < 0) continue;
		total += c;
		if (fr[fr.length - 1] === name) self += c;
		for (let j = k; j < fr.length; j++) add(down, fr.slice(k, j + 1).join(';'), c);
		for (let j = k; j >= 0; j--) add(up, fr.slice(j, k + 1).reverse().join(';'), c);
	}
	const list = (m) => Array.from(m, ([k, v]) => `${k}=${v}`).sort();
	return { total, self, callees: list(down), callers: list(up) };
}
// A merged tree as "PATH=VALUE" sorted: each node's time, or its off-CPU
// part with f 'o'.
function flat(nd, names, f = 'v') {
	const out = [];
	(function walk(n, p) {
		const k = p === '' ? names[n.id] : p + ';' + names[n.id];
		out.push(`${k}=${Math.round(n[f] * 1000) / 1000}`);
		if (n.k) for (const c of n.k) walk(c, k);
	})(nd, '');
	return out.sort();
}
const { frames } = require('./svgframes.js');
const getL = (g) => (g.L === undefined ? (g.L = fg.parsel(g.dl)) : g.L);
// The search data under a function view's frame, written out: the
// subtrees of the call tree nodes merged into its narrow children hid,
// in parsel's form with the tree's name ids. The page hands count
// {t, hid} instead and walks them in place; this copy is what that walk
// must count.
function hidden(t, hid) {
	const L = [];
	for (const h of hid)
		for (const m of h.mem)
			for (let j = m; j < t.E[m]; j++)
				L.push(t.D[j] - t.D[m], t.ID[j], t.S[j]);
	return L;
}

for (const opts of [[], ['--inverted'], ['--reverse']]) {
	const svg = execFileSync('fgsvg', ['--minwidth', '4', ...opts, folded]).toString();
	const { cfg, F } = frames(svg);
	const tag = opts.length ? ` (${opts[0]})` : '';
	check('the SVG has grey frames and hidden ones' + tag, () => {
		const grey = F.filter((f) => f.m).length, hid = F.filter((f) => f.l).length;
		return grey > 0 && hid > 0 && F.length > 5 ? '' : `${F.length} frames, ${grey} grey, ${hid} hiding`;
	});
	const t = fg.tree(F, cfg.N, F[0].n / cfg.T, getL);
	for (const name of ['rec', 'mid', 'leaf', 'other', 'w3']) {
		check(`function view of ${name}: share, self, callers, callees${tag}`, () => {
			const id = t.ids.get(name);
			if (id === undefined) return `no ${name} in the tree`;
			const r = fg.merge(t, id, !!cfg.rev, 0), want = truth(name, !!cfg.rev);
			return eq({ total: r.total, self: r.self, callees: flat(r.callees, t.names),
				callers: flat(r.callers, t.names).map((s) => s.replace(/;all=/, '=')) }, want) ||
				(Math.abs(r.total / F[0].n * all - want.total) < 1e-9 ? '' : 'root is not all');
		});
	}
	for (const pat of ['^rec$', 'w1', 'other|io']) {
		check(`search counts /${pat}/ once per stack${tag}`, () => {
			const re = new RegExp(pat);
			const want = stacks.filter((s) => s.slice(0, -1).some((n) => re.test(n)))
				.reduce((a, s) => a + s[s.length - 1], 0);
			const r = fg.count(F, re, cfg.N, F[0].n / cfg.T, getL, F.length);
			return Math.abs(r.sum - want) < 1e-6 && !r.part ? '' : `sum ${r.sum}, want ${want}`;
		});
	}
}
// A graph of on- and off-CPU time (--wall): an off-CPU stack ends in
// [off-cpu]. Each node of the function view's merged trees carries the
// off-CPU part of its time (the tooltips say on- and off-CPU time), as
// worked out here from the stacks; a graph of CPU time alone is no --wall
// graph.
// (fgsvg shows such a graph in time units: under 1 us in all, every
// frame is in ns, which svgframes.js reads as the page does.)
const wstacks = [['main', 'rec', 'leaf', 300], ['main', 'rec', 'leaf', '[off-cpu]', 200],
	['main', 'rec', 'mid', '[off-cpu]', 50], ['main', 'other', 'rec', 70],
	['main', 'other', 'rec', '[off-cpu]', 30], ['main', 'io', '[off-cpu]', 300]];
const wfolded = path.join(dir, 'wall.folded');
fs.writeFileSync(wfolded, wstacks.map((s) => s.slice(0, -1).join(';') + ' ' + s[s.length - 1]).join('\n') + '\n');
function offtruth(name, rev) {
	const down = new Map(), up = new Map();
	const add = (m, k, v) => m.set(k, (m.get(k) || 0) + v);
	for (const s of wstacks) {
		const fr = s.slice(0, -1), c = fr[fr.length - 1] === '[off-cpu]' ? s[s.length - 1] : 0;
		const k = rev ? fr.lastIndexOf(name) : fr.indexOf(name);
		if (k < 0) continue;
		for (let j = k; j < fr.length; j++) add(down, fr.slice(k, j + 1).join(';'), c);
		for (let j = k; j >= 0; j--) add(up, fr.slice(j, k + 1).reverse().join(';'), c);
	}
	const list = (m) => Array.from(m, ([k, v]) => `${k}=${v}`).sort();
	return { callees: list(down), callers: list(up) };
}
for (const opts of [[], ['--reverse']]) {
	const tag = opts.length ? ` (${opts[0]})` : '';
	check('function view of a --wall graph: the off-CPU part of each frame' + tag, () => {
		const { cfg, F } = frames(execFileSync('fgsvg', [...opts, wfolded]).toString());
		const t = fg.tree(F, cfg.N, F[0].n / cfg.T, getL);
		const plain = frames(execFileSync('fgsvg', [folded]).toString());
		if (!t.wall || fg.tree(plain.F, plain.cfg.N, 1, getL).wall)
			return 'the --wall graph is not told from a graph of CPU time';
		for (const name of ['rec', 'leaf', 'other']) {
			const r = fg.merge(t, t.ids.get(name), !!cfg.rev, 0), want = offtruth(name, !!cfg.rev);
			const why = eq({ callees: flat(r.callees, t.names, 'o'),
				callers: flat(r.callers, t.names, 'o').map((s) => s.replace(/;all=/, '=')) }, want);
			if (why) return `${name}: ${why}`;
		}
		return '';
	});
}
check('layout: the root full width, children by name, narrow ones hidden, their search data kept', () => {
	const { cfg, F } = frames(execFileSync('fgsvg', [folded]).toString());
	const t = fg.tree(F, cfg.N, F[0].n / cfg.T, getL);
	const r = fg.merge(t, t.ids.get('main'), false, 20 / 1000);
	const out = fg.layout(r.down, 10, 1000, 20);
	const kids = out.filter((f) => f.d === 1).map((f) => t.names[f.id]);
	const hid = out[0].hid || [];
	const L = hidden(t, hid);
	let hv = 0, lv = 0;
	for (const c of hid) hv += c.v;
	for (let i = 2; i < L.length; i += 3) lv += L[i];
	return out[0].x === 10 && Math.abs(out[0].w - 1000) < 1e-9 && eq(kids, kids.slice().sort()) === '' &&
		out.every((f) => f.d === 0 || f.w >= 20) && hid.length > 0 && Math.abs(hv - lv) < 1e-6 ? '' :
		`root ${out[0].x} ${out[0].w}, children ${kids}, ${hid.length} hidden of ${hv}, data ${lv}`;
});
// The function view's frames hand the search their hidden call tree
// nodes as {t, hid}, walked in place: it must count what the copy
// (hidden) counts, frame by frame, for the view of every name.
check('search in the function view: the call tree walked in place counts as its copy', () => {
	const { cfg, F } = frames(execFileSync('fgsvg', [folded]).toString());
	const t = fg.tree(F, cfg.N, F[0].n / cfg.T, getL);
	let views = 0, withhid = 0;
	for (const [name, id] of t.ids) {
		const r = fg.merge(t, id, false, 40 / 1000);
		const V = fg.layout(r.down, 0, 1000, 40).map((f) => ({
			name: t.names[f.id], n: f.v, d: f.d, m: false, l: f.hid !== null, hid: f.hid }));
		withhid += V.some((f) => f.l) ? 1 : 0;
		for (const pat of ['^rec$', 'w1', 'other|io', 'leaf']) {
			const re = new RegExp(pat);
			const a = fg.count(V, re, t.names, 1, (g) => hidden(t, g.hid), V.length);
			const b = fg.count(V, re, t.names, 1, (g) => ({ t: t, hid: g.hid }), V.length);
			if (Math.abs(a.sum - b.sum) > 1e-9 || eq(Array.from(a.hit), Array.from(b.hit)))
				return `view of ${name}, /${pat}/: in place ${b.sum}, copy ${a.sum}`;
		}
		views++;
	}
	return views > 3 && withhid > 1 ? '' : `${views} views, ${withhid} with hidden frames`;
});
