// timeline-png.js SVG PNG: the picture of a timeline for the README
// (tests/browser/timeline-png.sh draws SVG): opens SVG in headless
// Chromium at its own width, drags over worker-a's first phase (from the
// start to the last bin that holds phase_one, less one) on worker-a's
// row, clicks worker-a's name to keep that thread, and writes the
// window's picture, the SVG's full height, to PNG.
'use strict';
const path = require('path');
const { launch } = require('./steps');

const [svgPath, pngPath] = process.argv.slice(2);
(async () => {
	const ctx = await launch('fgsvg-png-');
	try {
		const page = ctx.pages()[0] || await ctx.newPage();
		await page.goto('file://' + path.resolve(svgPath));
		await page.waitForFunction(() => window.fgtimeline !== undefined);
		const size = await page.evaluate(() => ({ w: +document.documentElement.getAttribute('width'),
			h: +document.documentElement.getAttribute('height') }));
		await page.setViewportSize({ width: Math.ceil(size.w), height: Math.ceil(size.h) });
		const at = await page.evaluate(() => {
			const T = tllib.tree(fgtl.T), one = fgtl.N.indexOf('phase_one');
			const r = fgtl.R.findIndex((x) => x[2] === 'worker-a');
			if (r < 0 || one < 0) return null;
			const under = new Uint8Array(T.n);
			for (let i = 0; i < T.n; i++) under[i] = T.M[i] === one || (T.P[i] >= 0 && under[T.P[i]]) ? 1 : 0;
			const c = tllib.cells(fgtl.R[r][5]);
			let last = 0;
			for (let i = 0; i < c.b.length; i++)
				for (let j = c.e0[i]; j < c.e1[i]; j++) if (under[c.node[j]]) last = c.b[i];
			const bg = Array.from(document.querySelectorAll('#timeline .tlbg')).find((e) => e.fgrow === r);
			const name = Array.from(document.querySelectorAll('#timeline .tlname')).find((e) => e.fgrow === r);
			const b = bg.getBoundingClientRect(), n = name.getBoundingClientRect();
			return { y: b.y + b.height / 2, x0: fgtimeline.X0 + 0.5, x1: fgtimeline.X0 + (last - 0.5) * fgtimeline.bpx,
				nx: n.x + n.width / 2, ny: n.y + n.height / 2 };
		});
		if (!at) throw new Error('no worker-a or no phase_one in ' + svgPath);
		await page.mouse.move(at.x0, at.y);
		await page.mouse.down();
		await page.mouse.move(at.x1, at.y, { steps: 8 });
		await page.mouse.up();
		await page.mouse.click(at.nx, at.ny);
		// the pointer off the page: no hover details in the picture
		await page.mouse.move(size.w - 2, size.h - 2);
		await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
		await page.screenshot({ path: pngPath, animations: 'disabled', caret: 'initial' });
		console.log(`${pngPath}: ${await page.evaluate(() => document.getElementById('title').textContent)}`);
	} finally {
		await ctx.close();
	}
})().catch((e) => { console.error('timeline-png: ' + e); process.exit(1); });
