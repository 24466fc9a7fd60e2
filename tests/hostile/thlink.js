// thlink.js SVG TIDS: open fgsvg's SVG in headless Chromium through a link
// whose #th= names the threads in the file TIDS (a comma-separated list),
// and print
//   THREADS-SELECTED<TAB>TITLE<TAB>MILLISECONDS
// A link whose cost grows with its length times the threads freezes the
// tab: the page then never answers, and the caller's timeout fails the
// test.
'use strict';
const fs = require('fs');
const path = require('path');
const { withChromium } = require('./headless.js');

const svg = process.argv[2];
const tids = fs.readFileSync(process.argv[3], 'utf8').trim();

withChromium(async (ctx) => {
	const page = await ctx.newPage();
	const t0 = Date.now();
	await page.goto('file://' + path.resolve(svg) + '#th=' + tids,
	    { timeout: 60000 });
	await page.waitForFunction(() => window.fgtimeline !== undefined,
	    null, { timeout: 60000 });
	const r = await page.evaluate(() => {
		const s = window.fgtimeline.sel;
		return [s.th === null ? 0 : s.th.length,
		    document.getElementById('title').textContent];
	}, null);
	console.log(`${r[0]}\t${r[1]}\t${Date.now() - t0}`);
	await page.close();
});
