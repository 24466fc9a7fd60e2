// steps.js: what the Chromium scripts (fgsvg.js, open.js, and
// tests/fgsvg/timeline-*.js) share: the lines they print, one per step
// (PASS step, FAIL step: why, INFO text), which tests/browser/steps.sh
// reads, and the headless Chromium they drive.
'use strict';
const results = [];
function pass(step) { results.push(`PASS ${step}`); }
function fail(step, why) { results.push(`FAIL ${step}: ${why}`); }
function info(text) { results.push(`INFO ${text}`); }
// Runs fn, a step: it returns '' (or nothing) when it passed, else why not.
async function step(name, fn) {
	try {
		const why = await fn();
		if (why) fail(name, why); else pass(name);
	} catch (e) {
		fail(name, String(e && e.message || e).split('\n')[0]);
	}
}
// Debian's headless Chromium with a fresh profile in a directory of
// TMPDIR named from prefix, removed by its close(), and nothing
// that goes to the network.
async function launch(prefix) {
	const fs = require('fs'), os = require('os'), path = require('path');
	const { chromium } = require('playwright-core');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	const ctx = await chromium.launchPersistentContext(dir, {
		executablePath: '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
			'--no-first-run', '--disable-background-networking',
			'--disable-component-update', '--disable-sync'],
	});
	const close = ctx.close.bind(ctx);
	ctx.close = async () => { await close(); fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 }); };
	return ctx;
}
// A launched Chromium and its first page, which records the page's
// script errors in errors and answers its prompts with s.answer (null:
// dismissed).
async function session(prefix) {
	const ctx = await launch(prefix);
	const page = ctx.pages()[0] || await ctx.newPage();
	const s = { ctx, page, errors: [], answer: null };
	page.on('pageerror', (e) => s.errors.push(String(e)));
	page.on('dialog', (d) => s.answer === null ? d.dismiss() : d.accept(s.answer));
	return s;
}
// What the user sees of every frame: name, tooltip, rect attributes,
// fill, classes, its box on the screen, and whether any of it shows in
// the graph's strip (x from 10 to 1190: the frames' nested <svg> clips
// the rest).
function frames(page) {
	return page.evaluate(() => Array.from(
		document.getElementById('frames').children, (g) => {
			const t = g.querySelector('title').textContent;
			const r = g.querySelector('rect');
			const b = r.getBoundingClientRect();
			return {
				name: t.replace(/ \([\d,.]+ [^()]*\)$/, ''), info: t,
				x: r.getAttribute('x'), y: r.getAttribute('y'), w: r.getAttribute('width'),
				fill: r.getAttribute('fill'), cls: g.getAttribute('class') || '',
				bx: b.x, bw: b.width, bh: b.height,
				shown: b.x + b.width > 10.5 && b.x < 1189.5,
				full: b.x <= 10.5 && b.x + b.width >= 1189.5,
			};
		}));
}
module.exports = { results, pass, fail, info, step, launch, session, frames };
