// regexlink.js SVG: open fgsvg's SVG in headless Chromium through links
// whose #s= pattern is hostile, and print what "Matched" says for each:
//   PATTERN<TAB>MATCHED-TEXT<TAB>MILLISECONDS
// A pattern that backtracks for ever freezes the tab: the page then never
// answers, and the caller's timeout fails the test.
'use strict';
const path = require('path');
const { withChromium } = require('./headless.js');

const svg = process.argv[2];
const patterns = process.argv.slice(3);

withChromium(async (ctx) => {
	for (const p of patterns) {
		const page = await ctx.newPage();
		const t0 = Date.now();
		await page.goto('file://' + path.resolve(svg) + '#s=' +
		    encodeURIComponent(p), { timeout: 20000 });
		await page.waitForFunction(() => window.fg && window.fg.frames.length > 0,
		    null, { timeout: 20000 });
		const m = await page.evaluate(() =>
		    document.getElementById('matched').textContent, null);
		console.log(`${p}\t${m}\t${Date.now() - t0}`);
		await page.close();
	}
});
