// headless.js: headless Chromium for the hostile-link scripts (regexlink.js,
// thlink.js): withChromium(fn) runs fn(ctx) in a fresh profile directory,
// closes the browser and removes the directory; a failure is printed in
// one line and exits 1.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

exports.withChromium = (fn) => (async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fgsvg-link-'));
	const ctx = await chromium.launchPersistentContext(dir, {
		executablePath: '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu',
			'--no-first-run', '--disable-background-networking',
			'--disable-component-update', '--disable-sync'],
	});
	try {
		await fn(ctx);
	} finally {
		await ctx.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
})().catch((e) => { console.error(String(e && e.message || e)); process.exit(1); });
