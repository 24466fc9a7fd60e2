// bench/fnview.js SVG NAME RUNS: in headless Chromium (playwright-core from
// tests/browser), opens SVG, waits until its script has read the call
// tree (as it does while the page is idle), then opens the function view
// of NAME and goes back to the full graph RUNS times, each timed from the
// call until the frame that shows it is painted (the first task after the
// next animation frame). Prints "load MS", "search MS", "zoom MS",
// "open MS..." and "close MS...".
'use strict';
const path = require('path');
const { chromium } = require(path.join(__dirname, '../tests/browser/node_modules/playwright-core'));

(async () => {
	const [svg, name, runs] = process.argv.slice(2);
	const browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
			'--disable-component-update', '--disable-sync', '--no-first-run'],
	});
	const page = await browser.newPage();
	const t0 = Date.now();
	await page.goto('file://' + path.resolve(svg));
	await page.waitForFunction(() => window.fg && window.fg.frames.length > 0, null, { timeout: 120000 });
	console.log(`load ${Date.now() - t0}`);
	// a search of a third of the frames, and a zoom, each until painted
	const paint = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
	let t1 = Date.now();
	await page.evaluate(() => window.fg.search('method_3[0-9]'));
	await paint();
	console.log(`search ${Date.now() - t1}`);
	t1 = Date.now();
	await page.evaluate(() => window.fg.zoom(1));
	await paint();
	console.log(`zoom ${Date.now() - t1}`);
	await page.evaluate(() => { window.fg.clear(); window.fg.unzoom(); });
	await page.waitForFunction(() => window.fg.ready, null, { timeout: 120000 });
	const painted = (what) => page.evaluate(([w, n]) => new Promise((done) => {
		const t = performance.now();
		if (w === 'open') window.fg.fnview(n); else window.fg.close();
		requestAnimationFrame(() => setTimeout(() => done(Math.round(performance.now() - t)), 0));
	}), [what, name]);
	const open = [], close = [];
	for (let k = 0; k < +runs; k++) {
		open.push(await painted('open'));
		close.push(await painted('close'));
	}
	console.log(`open ${open.join(' ')}`);
	console.log(`close ${close.join(' ')}`);
	await browser.close();
})().catch((e) => { console.error(String(e)); process.exit(1); });
