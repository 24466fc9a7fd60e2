// open.js DEEP.svg MID.svg ICICLE.svg: open deep graphs in headless Chromium
// in a 1200x1000 window (and an 800x600 one) and check what the first
// screen shows: the root frames, the details line, "Matched", the search's
// widest match, with a #s= link too; that the controls stay on screen
// however the window scrolls; that a zoom or the function view on a deep
// frame shows it; and that the graph still prints as written and still
// works in an <img> and an <object>. Prints one line per step:
//   PASS step
//   FAIL step: what went wrong
//   INFO text
// and exits 0 once every step has run (the shell test reads the lines).
//
// DEEP holds a stack of 1,000 frames (main;f1;...;f999) beside shallow
// ones (a, b;c, b;needle); MID is about 1,600 px high (main;g1;...;g95
// beside x;y and x;needle); ICICLE is DEEP drawn --inverted.
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const [deepPath, midPath, iciclePath] = process.argv.slice(2).map((p) => path.resolve(p));
const { results, pass, fail, info, step } = require('./steps');

// Where things are on the screen, computed in the page. seen(el): its box
// lies inside the window and the point at its middle is its own (no band
// or other element covers it); a text's box when it holds only a space is
// none, so its anchor (x, y) is used, mapped to the screen.
const probe = (page, what) => page.evaluate((w) => {
	const vw = document.documentElement.clientWidth || innerWidth;
	const vh = document.documentElement.clientHeight || innerHeight;
	function box(e) {
		const b = e.getBoundingClientRect();
		if (b.width > 0 && b.height > 0) return b;
		const p = new DOMPoint(+e.getAttribute('x'), +e.getAttribute('y'))
			.matrixTransform(e.getScreenCTM());
		return { left: p.x, right: p.x + 1, top: p.y - 1, bottom: p.y, width: 1, height: 1 };
	}
	function seen(e) {
		if (!e) return 'missing';
		const b = box(e), r = (n) => Math.round(n);
		const where = `[${r(b.left)},${r(b.top)} to ${r(b.right)},${r(b.bottom)}] in ${vw}x${vh}`;
		if (!(b.left >= -0.5 && b.right <= vw + 0.5 && b.top >= -0.5 && b.bottom <= vh + 0.5))
			return `outside the window: ${where}`;
		if (e.getBoundingClientRect().width > 0) {
			const at = document.elementFromPoint((b.left + b.right) / 2, (b.top + b.bottom) / 2);
			if (at !== e && !(at && e.contains(at)))
				return `covered by ${at ? at.localName + (at.id ? '#' + at.id : '') : 'nothing'}: ${where}`;
		}
		return '';
	}
	const F = window.fg.frames;
	const lit = F.filter((f) => f.hit);
	let widest = null;
	for (const f of lit) if (!widest || f.w > widest.w) widest = f;
	const out = { scroll: [scrollX, scrollY], matched: document.getElementById('matched').textContent, lit: lit.length };
	for (const k of w) {
		let why;
		if (k === 'roots') {
			// the root frame and every frame just above it (below, in an icicle)
			const roots = F.filter((f) => f.d <= 1);
			why = roots.length < 2 ? `${roots.length} root frames` :
				roots.map((f) => seen(f.r) && `${f.name}: ${seen(f.r)}`).filter((s) => s).join('; ');
		} else if (k === 'widest') why = widest ? seen(widest.r) && `${widest.name}: ${seen(widest.r)}` : 'no match lit';
		else if (k.startsWith('frame=')) {
			const f = F.find((g) => g.name === k.slice(6));
			why = f ? seen(f.r) && `${f.name}: ${seen(f.r)}` : `no frame ${k.slice(6)}`;
		} else why = seen(document.getElementById(k)) && `${k}: ${seen(document.getElementById(k))}`;
		out[k] = why;
	}
	return out;
}, what);
// The reasons of a probe, joined ('' when all is seen).
const whys = (p, keys) => keys.map((k) => p[k]).filter((s) => s).join('; ');
const ready = (page) => page.waitForFunction(() => window.fg && window.fg.frames.length > 0, null, { timeout: 60000 });
const index = (page, name) => page.evaluate((n) => window.fg.frames.findIndex((f) => f.name === n), name);

(async () => {
	const browser = await chromium.launch({
		executablePath: '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
			'--no-first-run', '--disable-background-networking',
			'--disable-component-update', '--disable-sync'],
	});
	const errors = [];
	async function open(file, hash, w, h) {
		const page = await browser.newPage({ viewport: { width: w || 1200, height: h || 1000 } });
		page.on('pageerror', (e) => errors.push(String(e)));
		await page.goto('file://' + file + (hash || ''));
		await ready(page);
		return page;
	}
	const graphs = [['deep (1,000 frames)', deepPath, 'f500', 'f500'],
		['1,600 px', midPath, 'needle', 'g60']];
	for (const [what, file, needle, deepname] of graphs) {
		const height = +/<svg[^>]* height="(\d+)"/.exec(fs.readFileSync(file, 'utf8').slice(0, 400))[1];
		info(`${what}: ${height} px high`);
		for (const [w, h] of [[1200, 1000], [800, 600]]) {
			const at = `${w}x${h}`;
			let page = await open(file, '', w, h);
			await step(`${what}, ${at}: opens with the root frames, the details line, Matched and Search in view`, async () => {
				const p = await probe(page, ['roots', 'details', 'matched', 'title', 'search']);
				info(`${what}, ${at}: opened scrolled to ${p.scroll}`);
				// and the mouse on the root shows its details in view (moved
				// there as a user would: page.hover would scroll to it first)
				const c = await page.evaluate(() => {
					const b = window.fg.frames[0].r.getBoundingClientRect();
					return [b.left + b.width / 2, b.top + b.height / 2];
				});
				await page.mouse.move(c[0], c[1]);
				const d = await probe(page, ['details']);
				const t = await page.evaluate(() => document.getElementById('details').textContent);
				return whys(p, ['roots', 'details', 'matched', 'title', 'search']) ||
					(/^Function: all /.test(t) ? d.details : `details: ${t}`);
			});
			await step(`${what}, ${at}: a search brings its widest match into view, and Matched`, async () => {
				await page.evaluate((n) => window.fg.search(n), needle);
				const p = await probe(page, ['widest', 'matched']);
				return whys(p, ['widest', 'matched']) || (p.lit ? '' : 'nothing lit');
			});
			await step(`${what}, ${at}: the controls stay in view however the window scrolls`, async () => {
				const bad = [];
				const H = await page.evaluate(() => document.documentElement.getBoundingClientRect().height);
				for (const y of [0, H / 2, H]) {
					await page.evaluate((v) => new Promise((r) => {
						window.scrollTo(0, v);
						requestAnimationFrame(() => requestAnimationFrame(r));
					}), y);
					const p = await probe(page, ['title', 'search', 'matched']);
					const s = whys(p, ['title', 'search', 'matched']);
					if (s) bad.push(`scrolled to ${p.scroll}: ${s}`);
				}
				return bad.join('; ');
			});
			await page.close();
			page = await open(file, '#s=' + needle, w, h);
			await step(`${what}, ${at}: a #s= link opens with its widest match and Matched in view`, async () => {
				const p = await probe(page, ['widest', 'matched', 'search']);
				return whys(p, ['widest', 'matched', 'search']) || (p.lit ? '' : 'nothing lit');
			});
			await page.close();
			if (w !== 1200) continue;
			page = await open(file, '', w, h);
			await step(`${what}, ${at}: a zoom on a deep frame shows it, from a link too`, async () => {
				const i = await index(page, deepname);
				const key = 'frame=' + deepname;
				await page.evaluate((k) => window.fg.zoom(k), i);
				const p = await probe(page, [key]);
				const p2 = await open(file, `#z=${i}`, w, h);
				const q = await probe(p2, [key, 'title']);
				await p2.close();
				return (p[key] && `zoomed: ${p[key]}`) || (q[key] && `from #z=: ${q[key]}`) || q.title;
			});
			await step(`${what}, ${at}: the function view of a deep frame shows it`, async () => {
				await page.evaluate((n) => window.fg.fnview(n), deepname);
				const v = await page.evaluate(() => window.fg.view);
				const q = await probe(page, ['frame=' + deepname, 'title']);
				return v !== deepname ? `view of ${v}` : whys(q, ['frame=' + deepname, 'title']);
			});
			await page.close();
		}
	}
	await step('icicle: opens with its roots, the details line and Matched in view', async () => {
		const page = await open(iciclePath, '');
		const p = await probe(page, ['roots', 'details', 'matched', 'title']);
		await page.close();
		return whys(p, ['roots', 'details', 'matched', 'title']);
	});
	await step('print shows the graph as written: title at the top, details at the bottom', async () => {
		const page = await open(deepPath, '#s=f500');
		await page.emulateMedia({ media: 'print' });
		const at = await page.evaluate(() => ['title', 'details', 'matched'].map((id) => {
			const e = document.getElementById(id);
			const b = new DOMPoint(+e.getAttribute('x'), +e.getAttribute('y')).matrixTransform(e.getScreenCTM());
			return [id, Math.round(b.y + scrollY), +e.getAttribute('y')];
		}));
		const pdf = await page.pdf({ width: '1200px', height: '1000px' });
		await page.close();
		const bad = at.filter((a) => Math.abs(a[1] - a[2]) > 1).map((a) => `${a[0]} at ${a[1]}, written at ${a[2]}`);
		return bad.join('; ') || (pdf.length > 1000 ? '' : `a PDF of ${pdf.length} bytes`);
	});
	await step('the graph works in an <img> and an <object>', async () => {
		const dir = path.dirname(deepPath);
		const html = path.join(dir, 'embed.html');
		fs.writeFileSync(html, `<!DOCTYPE html><html><body><object data="${path.basename(deepPath)}" ` +
			`type="image/svg+xml" width="1000" height="600"></object>` +
			`<img id="i" src="${path.basename(deepPath)}"></body></html>`);
		const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
		page.on('pageerror', (e) => errors.push(String(e)));
		await page.goto('file://' + html);
		await page.waitForFunction(() => document.getElementById('i').complete, null, { timeout: 60000 });
		const img = await page.evaluate(() => [document.getElementById('i').naturalWidth, document.getElementById('i').naturalHeight]);
		const frame = page.frames().find((f) => f.url().endsWith('.svg'));
		if (!frame) return 'the <object> has no document';
		await frame.waitForFunction(() => window.fg && window.fg.frames.length > 0, null, { timeout: 60000 });
		await frame.evaluate(() => window.fg.search('f500'));
		const m = await frame.evaluate(() => document.getElementById('matched').textContent);
		await page.close();
		const height = +/<svg[^>]* height="(\d+)"/.exec(fs.readFileSync(deepPath, 'utf8').slice(0, 400))[1];
		if (img[0] !== 1200 || img[1] !== height) return `<img> is ${img[0]}x${img[1]}`;
		return /^Matched: /.test(m) ? '' : `in the <object>: ${m}`;
	});
	await step('no script errors', async () => errors.join('; '));
	await browser.close();
	console.log(results.join('\n'));
})().catch((e) => {
	console.log(results.join('\n'));
	console.log(`FAIL browser: ${String(e && e.message || e).split('\n')[0]}`);
	process.exit(0);
});
