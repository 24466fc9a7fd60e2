// search.js SCRIPT.js SVG PATTERN...: the SVG script's search (fglib.find,
// the code behind the page's search box and its #s= links) over the
// frames of an SVG that fgsvg drew, under node. Each pattern runs in a
// child node of its own, killed when it runs past a time limit, so that a
// pattern that backtracks for ever cannot hang the test. Prints per
// pattern one line, PATTERN<TAB>MS<TAB>WHAT, WHAT one of
//   matched PCT            searched as a regular expression
//   matched PCT skipped N  N names too long for the pattern left out
//   text PCT WHY           refused, searched as text
//   stopped MS             stopped by the script's time budget
//   killed                 still running after 30 s (a frozen tab)
// MS is the CPU time the search took inside the child, the figure the
// caller compares with a harmless pattern's; the children are killed after 30 s.
//
// A script without fglib.find (today's main) is searched the way it
// searched a link's pattern: count over new RegExp(tame(s), "i").
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const { frames } = require('./svgframes.js');

const [script, svgpath, ...patterns] = process.argv.slice(2);

if (process.env.FGSEARCH_CHILD) {
	const fg = require(path.resolve(script));
	const { cfg, F } = frames(fs.readFileSync(svgpath, 'utf8'));
	const getL = (g) => (g.L === undefined ? (g.L = fg.parsel(g.dl)) : g.L);
	const scale = cfg.T > 0 ? F[0].n / cfg.T : 0;
	for (const f of F) if (f.m || f.l) getL(f);	// as the page warms up
	const now = () => Number(process.hrtime.bigint()) / 1e6;
	// the CPU time the search took, not the wall time: on a busy machine
	// the child waits for a CPU, and the harmless search it is compared
	// with may not have
	const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };
	const p = patterns[0], t0 = cpu();
	let r;
	if (fg.find)
		r = fg.find(p, true, F, cfg.N || [], scale, getL, F.length, now, 50);
	else {
		const s = fg.tame(p);
		r = fg.count(F, new RegExp(s, 'i'), cfg.N || [], scale, getL, F.length);
		r.why = s !== p ? 'as text' : null;
	}
	const ms = cpu() - t0;
	const pct = (x) => (100 * x / F[0].n).toFixed(1);
	let what;
	if (r.bad) what = 'bad';
	else if (r.stopped !== undefined) what = `stopped ${r.stopped}`;
	else if (r.why) what = `text ${pct(r.sum)} ${r.why}`;
	else what = `matched ${pct(r.sum)}` + (r.skipped ? ` skipped ${r.skipped}` : '');
	console.log(`${ms.toFixed(1)}\t${what}`);
	process.exit(0);
}

// a guard against a hang, not a measure: the caller compares the times
const limit = 30000;
for (const p of patterns) {
	const t = spawnSync(process.execPath, [__filename, script, svgpath, p],
		{ env: { ...process.env, FGSEARCH_CHILD: '1' }, timeout: limit, encoding: 'utf8' });
	const out = (t.stdout || '').trim();
	console.log(`${p}\t${t.error || t.signal || out === '' ? `${limit}\tkilled` : out}`);
}
