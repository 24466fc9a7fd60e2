// timeline-big.js BIG.svg BIGF.svg: the timeline's big-profile check
// (issue 26) in headless Chromium. BIG.svg is a stream of 1,000,000
// samples drawn with its timeline, BIGF.svg the same profile drawn from
// folded stacks (tests/fgsvg/timeline-big.sh writes both): the first must
// open within 3 times the second's open, and a range must redraw in
// under 1.5 s (the figures are 1.5 times and 300 ms; the bounds
// are wider so that a busy machine passes, the figures are printed).
// timeline-browser.js runs its steps; alone, it prints PASS, FAIL and
// INFO lines as the other scripts do.
'use strict';
const path = require('path');

async function steps(ctx, step, info, bigPath, bigfPath) {
	// the time from asking for a file to its first paint with the script
	// ready, in a fresh tab
	const opened = async (file, ready) => {
		const p = await ctx.newPage();
		const t = Date.now();
		await p.goto('file://' + path.resolve(file));
		await p.waitForFunction(ready, null, { timeout: 120000 });
		await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
		return { ms: Date.now() - t, page: p };
	};
	let big = null;
	await step('big profile: it opens within 3 times the time of the folded graph', async () => {
		// each twice, in turns, the best of each: a busy machine slows
		// one open, seldom both
		let f = null;
		for (let i = 0; i < 2; i++) {
			const a = await opened(bigfPath, () => window.fg && window.fg.frames.length > 0);
			await a.page.close();
			f = f && f.ms <= a.ms ? f : a;
			const b = await opened(bigPath, () => window.fgtimeline !== undefined && window.fg.frames.length > 0);
			if (big) await (big.ms <= b.ms ? b : big).page.close();
			big = big && big.ms <= b.ms ? big : b;
		}
		const d = await big.page.evaluate(() => ({ nb: fgtl.nb, rows: fgtl.R.length, note: fgtl.note }));
		info(`big profile: opened in ${big.ms} ms, ${(big.ms / f.ms).toFixed(2)} times the ${f.ms} ms of the ` +
		    `same graph from folded stacks; ${d.nb} bins, ${d.rows} threads; ${d.note || 'no detail reduced'}`);
		if (!(big.ms <= 3 * f.ms)) return `${big.ms} ms, the folded graph's ${f.ms} ms`;
	});
	await step('big profile: a range redraws in under 1.5 s', async () => {
		if (!big) return 'not opened';
		const ms = await big.page.evaluate(async () => {
			const r = [];
			for (const [a, b] of [[0, 0.25], [0.3, 0.6], [0.5, 1], [0.1, 0.9], [0.7, 0.75]]) {
				const t = performance.now();
				fgtimeline.set(Math.floor(a * fgtl.nb), Math.ceil(b * fgtl.nb));
				await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
				r.push(performance.now() - t);
			}
			return r;
		});
		const med = ms.slice().sort((a, b) => a - b)[ms.length >> 1];
		info(`big profile: ranges redrawn and painted in ${ms.map((x) => x.toFixed(0)).join(', ')} ms (median ${med.toFixed(0)})`);
		if (!(med < 1500)) return 'range redraw ' + med.toFixed(0) + ' ms';
	});
}
module.exports = { steps };

if (require.main === module) {
	const S = require(path.join(__dirname, '../browser/steps.js'));
	(async () => {
		const ctx = await S.launch('fgsvg-big-');
		try {
			await steps(ctx, S.step, S.info, process.argv[2], process.argv[3]);
		} finally {
			await ctx.close();
			console.log(S.results.join('\n'));
		}
	})().catch((e) => { console.log('FAIL browser: ' + e); process.exit(1); });
}
