// compare.js CMP.svg: open fgsvg --compare's SVG (t294's made-up runs:
// slow_search removed by the change, parse unchanged) in headless
// Chromium and try what a user does with it: read the title, hover the
// removed function, zoom into it, search for it, open its function view.
// Prints one line per step (PASS step, FAIL step: why, INFO text), as
// fgsvg.js does; no step asserts a time.
'use strict';
const path = require('path');
const [svgPath] = process.argv.slice(2);
const { results, info, step, session, frames } = require('./steps');

const GREY = 'rgb(210,210,210)', LIT = 'rgb(230,0,230)';
const rgb = (s) => (/^rgb\((\d+),(\d+),(\d+)\)$/.exec(s) || []).slice(1).map(Number);
const near = (a, b) => Math.abs(a - b) < 0.6;
const find = (fs, name) => fs.find((f) => f.name === name);
const text = (page, id) => page.evaluate((i) => document.getElementById(i).textContent, id);
const nth = (fs, name) => fs.findIndex((f) => f.name === name) + 1;

(async () => {
	const S = await session('fgsvg-compare-');
	const { ctx, page, errors } = S;
	await page.goto('file://' + path.resolve(svgPath));
	await page.waitForFunction(() => window.fg && window.fg.frames.length > 0);
	const title0 = await text(page, 'title');
	info(`title: ${title0}`);

	await step('the title says the runs a side and the whole run\'s verdict', async () => {
		if (!/^Comparison of 5 runs before, 5 after: the whole run faster, /.test(title0))
			return `title: ${title0}`;
	});
	await step('unchanged frames are grey, the removed one blue, the new one red', async () => {
		const fs = await frames(page);
		for (const n of ['parse', 'render', 'draw_text'])
			if (!find(fs, n) || find(fs, n).fill !== GREY) return `${n}: ${find(fs, n) && find(fs, n).fill}`;
		const s = find(fs, 'slow_search'), h = find(fs, 'hash_probe');
		if (!s || !s.shown || !(s.bw > 100)) return `slow_search: ${JSON.stringify(s)}`;
		const [r, , b] = rgb(s.fill), [r2, , b2] = rgb(h.fill);
		if (!(b > r + 50)) return `slow_search is ${s.fill}, not blue`;
		if (!(r2 > b2 + 30)) return `hash_probe is ${h.fill}, not red`;
	});
	await step('hovering the removed function shows its interval and verdict', async () => {
		const fs = await frames(page);
		await page.hover(`#frames > g:nth-child(${nth(fs, 'slow_search')}) rect`);
		const d = await text(page, 'details');
		if (!/^Function: slow_search \([\d.]+ ms wide, [\d.]+%; here [\d.]+ -> 0\.0 ms a run, .*total [\d.]+ -> 0\.0 ms a run, change -[\d.]+ ms, 95% interval -[\d.]+ to -[\d.]+: faster; self .*: faster\)$/.test(d))
			return `details: ${d}`;
	});
	await step('clicking the removed function zooms into it', async () => {
		let fs = await frames(page);
		const idx = nth(fs, 'slow_search');
		await page.click(`#frames > g:nth-child(${idx}) rect`);
		fs = await frames(page);
		const s = find(fs, 'slow_search'), l = find(fs, 'lookup');
		if (!near(s.bx, 10) || !near(s.bw, 1180)) return `slow_search at ${s.bx} width ${s.bw}`;
		if (find(fs, 'parse').shown) return 'parse is still shown';
		if (!/parent/.test(l.cls)) return 'its caller is not dimmed';
		const hash = await page.evaluate(() => location.hash);
		if (hash !== `#z=${idx - 1}`) return `URL hash ${hash}`;
	});
	await step('Reset Zoom brings every frame back', async () => {
		await page.click('#unzoom');
		const fs = await frames(page);
		if (fs.some((f) => !f.shown || /parent/.test(f.cls))) return 'frames still hidden or dimmed';
	});
	await step('search finds the removed function; Matched is its share of the width', async () => {
		S.answer = 'slow_';
		await page.keyboard.press('Control+f');
		await page.waitForFunction(() => /Matched/.test(document.getElementById('matched').textContent));
		const fs = await frames(page);
		const lit = fs.filter((f) => f.fill === LIT).map((f) => f.name);
		if (lit.join(',') !== 'slow_search') return `highlighted: ${lit.join(',')}`;
		const share = +/ wide, ([\d.]+)%/.exec(find(fs, 'slow_search').info)[1];
		const m = await text(page, 'matched');
		if (m !== `Matched: ${share.toFixed(1)}%`) return `${m}, the frame ${share}%`;
		await page.keyboard.press('Escape');
		if ((await frames(page)).some((f) => f.fill === LIT)) return 'still highlighted after Esc';
	});
	await step('Ctrl+click on the removed function opens its function view', async () => {
		const fs = await frames(page);
		await page.click(`#frames > g:nth-child(${nth(fs, 'slow_search')}) rect`, { modifiers: ['Control'] });
		const t = await text(page, 'title');
		if (!/^Function: slow_search, [\d.]+% of all/.test(t)) return `title: ${t}`;
		const names = await page.evaluate(() => Array.from(document.getElementById('fnframes').children,
			(g) => window.fg.frames[g.fgi].name));
		if (!names.includes('lookup') || !names.includes('main')) return `view: ${names.join(',')}`;
		await page.keyboard.press('Escape');
		const back = await text(page, 'title');
		if (back !== title0) return `title after Esc: ${back}`;
	});
	await step('no script errors', async () => {
		if (errors.length) return errors.join('; ');
	});
	await ctx.close();
	console.log(results.join('\n'));
})().catch((e) => {
	console.log(results.join('\n'));
	console.log(`FAIL browser: ${e && e.message}`);
	process.exit(0);
});
