// fgsvg.js SVG BIG.svg MERGED.svg: open fgsvg's SVGs in headless Chromium and
// try what a user does: look, hover, click to zoom, search, clear, reset,
// reload a link with the state in its URL. Prints one line per step:
//   PASS step
//   FAIL step: what went wrong
//   INFO text
// and exits 0 once every step has run (the shell test reads the lines).
'use strict';
const fs = require('fs');
const path = require('path');

// bigPath is drawn with the default search budget, cappedPath from the same
// stacks with a budget too small; BIG_MATCHED is Matched for method_3[0-9]
// as computed from the folded file.
const [svgPath, bigPath, mergedPath, cappedPath, timePath, diffPath] = process.argv.slice(2);
const { results, pass, fail, info, step, session, frames } = require('./steps');

// The labels on show: those written with the file, or those of the zoom.
function labels(page) {
	return page.evaluate(() => {
		const l = document.getElementById('labels');
		const z = document.getElementById('zlabels');
		const on = getComputedStyle(l).display !== 'none' ? l : z;
		return Array.from(on.children, (t) => t.textContent);
	});
}
const near = (a, b) => Math.abs(a - b) < 0.6;
const find = (fs, name) => fs.find((f) => f.name === name);
const text = (page, id) => page.evaluate((i) => document.getElementById(i).textContent, id);

(async () => {
	const S0 = await session('fgsvg-chromium-');
	const { ctx, page, errors } = S0;
	const url = 'file://' + path.resolve(svgPath);
	let requests = 0;
	page.on('request', (r) => { if (!r.url().startsWith('file:')) requests++; });
	await page.goto(url);
	await page.waitForFunction(() => window.fg && window.fg.frames.length > 0);

	await step('frames render', async () => {
		const fs = await frames(page);
		const all = find(fs, 'all');
		if (fs.length < 20) return `only ${fs.length} frames`;
		if (!all || !(near(all.bw, 1180) && all.bh > 10)) return `root box ${all && all.bw}x${all && all.bh}`;
		const ls = await labels(page);
		if (!ls.includes('run') || !ls.includes('slow_matrix_search')) return `labels: ${ls.join(',')}`;
	});
	await step('hover shows name, count and self', async () => {
		await page.hover('#frames > g:nth-child(2) rect');
		const d = await text(page, 'details');
		if (!/^Function: app \(594 samples, 100.00%; self 0 samples, 0.00%\)$/.test(d))
			return `details: ${d}`;
	});
	await step('click zooms into a frame', async () => {
		const before = await frames(page);
		const idx = before.findIndex((f) => f.name === 'compute');
		await page.click(`#frames > g:nth-child(${idx + 1}) rect`);
		const fs = await frames(page);
		const c = find(fs, 'compute'), h = find(fs, 'hashbrown::map::HashMap<K,V,S>::insert');
		const s = find(fs, 'slow_matrix_search'), run = find(fs, 'run');
		if (!near(c.bx, 10) || !near(c.bw, 1180)) return `compute at ${c.bx} width ${c.bw}`;
		if (!(h.bw > 800 && h.shown)) return `child width ${h.bw}`;
		if (s.shown) return 'a sibling is still shown';
		if (!/parent/.test(run.cls) || !run.full) return 'the parent is not dimmed full width';
		const ls = await labels(page);
		if (!ls.some((l) => /HashMap<K,V,S>::insert/.test(l))) return `labels: ${ls.join(',')}`;
		if (!ls.includes('run') || ls.includes('slow_matrix_search')) return `labels: ${ls.join(',')}`;
		if (await page.evaluate(() => document.getElementById('unzoom').classList.contains('hide')))
			return 'Reset Zoom is hidden';
		const hash = await page.evaluate(() => location.hash);
		if (hash !== `#z=${idx}`) return `URL hash ${hash}`;
	});
	await step('clicking a dimmed ancestor zooms out to it', async () => {
		const idx = (await frames(page)).findIndex((f) => f.name === 'run');
		await page.click(`#frames > g:nth-child(${idx + 1}) rect`);
		const fs = await frames(page);
		const run = find(fs, 'run'), s = find(fs, 'slow_matrix_search');
		const c = find(fs, 'compute'), m = find(fs, 'main');
		if (!near(run.bx, 10) || !near(run.bw, 1180) || /parent/.test(run.cls))
			return `run at ${run.bx} width ${run.bw}, ${run.cls}`;
		if (!s.shown || !c.shown || c.full) return 'the siblings are not back';
		if (!/parent/.test(m.cls)) return 'main is not dimmed';
		if (find(fs, 'parse_args').shown) return 'a frame outside run is shown';
	});
	await step('Ctrl-F searches, case-insensitive; Matched counts nested frames once', async () => {
		S0.answer = 'COMPUTE|hashbrown|memcpy';
		await page.keyboard.press('Control+f');
		await page.waitForFunction(() => /Matched/.test(document.getElementById('matched').textContent));
		const fs = await frames(page);
		const m = await text(page, 'matched');
		const lit = fs.filter((f) => f.fill === 'rgb(230,0,230)').map((f) => f.name).sort();
		if (lit.join(',') !== 'compute,hashbrown::map::HashMap<K,V,S>::insert,memcpy')
			return `highlighted: ${lit.join(',')}`;
		// compute (167) holds the other two: 167 of 594
		if (m !== 'Matched: 28.1%') return m;
		const hash = await page.evaluate(() => location.hash);
		if (!/s=COMPUTE%7Chashbrown%7Cmemcpy/.test(hash)) return `URL hash ${hash}`;
	});
	await step('Esc clears the search', async () => {
		await page.keyboard.press('Escape');
		const fs = await frames(page);
		if (fs.some((f) => f.fill === 'rgb(230,0,230)')) return 'still highlighted';
		if ((await text(page, 'matched')).trim() !== '') return 'Matched still shown';
	});
	await step('F3 searches too; Matched of separate frames adds up', async () => {
		S0.answer = '^f';
		await page.keyboard.press('F3');
		const m = await text(page, 'matched');
		// f (5), f(int) (6), the second f (2, holding g) and fast_linear_search
		// (12): 25 of 594
		if (m !== 'Matched: 4.2%') return m;
	});
	await step('Reset Zoom restores every frame', async () => {
		await page.click('#unzoom');
		const fs = await frames(page);
		const c = find(fs, 'compute');
		if (!near(c.bx, 43.8) || !near(c.bw, 331.7)) return `compute at ${c.bx} width ${c.bw}`;
		if (fs.some((f) => !f.shown || /parent/.test(f.cls))) return 'frames still hidden or dimmed';
		const ls = await labels(page);
		// the label of the zoom is gone, the file's cut one is back
		if (!ls.includes('slow_matrix_search') || ls.includes('hashbrown::map::HashMap<K,V,S>::insert') ||
		    !ls.includes('hashbrown::map::HashMap<K,V,S>:..'))
			return `labels: ${ls.join(',')}`;
		const hash = await page.evaluate(() => location.hash);
		if (hash !== '#s=%5Ef') return `URL hash ${hash}`;
	});
	await step('a link with #z=...&s=... reopens the same view', async () => {
		const p2 = await ctx.newPage();
		p2.on('pageerror', (e) => errors.push(String(e)));
		const idx = (await frames(page)).findIndex((f) => f.name === 'slow_matrix_search');
		await p2.goto(`${url}#z=${idx}&s=inner`);
		await p2.waitForFunction(() => window.fg && window.fg.frames.length > 0);
		const fs = await frames(p2);
		const s = find(fs, 'slow_matrix_search'), i = find(fs, 'inner_loop');
		await p2.close();
		if (!near(s.bw, 1180)) return `zoomed frame width ${s.bw}`;
		if (i.fill !== 'rgb(230,0,230)') return 'search not restored';
	});
	await step('a flamegraph.pl link (?x=...&y=...&s=...) opens the same view', async () => {
		const p2 = await ctx.newPage();
		p2.on('pageerror', (e) => errors.push(String(e)));
		const c = find(await frames(page), 'compute');
		await p2.goto(`${url}?x=${c.x}&y=${c.y}&s=memcpy`);
		await p2.waitForFunction(() => window.fg && window.fg.frames.length > 0);
		const fs = await frames(p2);
		await p2.close();
		const z = find(fs, 'compute'), m = find(fs, 'memcpy');
		if (!near(z.bw, 1180)) return `zoomed frame width ${z.bw}`;
		if (m.fill !== 'rgb(230,0,230)') return 'search not restored';
	});
	// The function view of compute: its share and self share as the full
	// graph's tooltip of its one frame gives them, to one decimal.
	// hidden: no frame or label of the full graph lies inside the image
	// (whether the script hides them or moves them out of sight)
	const viewOf = (page) => page.evaluate(() => {
		const v = document.getElementById('fnframes');
		const box = document.documentElement.getBoundingClientRect();
		const shown = (sel) => Array.from(document.querySelectorAll(sel)).filter((e) => {
			const b = e.getBoundingClientRect();
			return b.width > 0 && b.right > box.left && b.left < box.right &&
			    b.bottom > box.top && b.top < box.bottom;
		}).length;
		return {
			title: document.getElementById('title').textContent,
			hidden: shown('#fv rect') === 0 && shown('#labels text') === 0,
			hash: location.hash,
			frames: v ? Array.from(v.children, (g) => ({
				name: window.fg.frames[g.fgi].info.replace(/ \([\d,.]+ [^()]*\)$/, ''),
				y: +g.querySelector('rect').getAttribute('y'),
				bw: g.querySelector('rect').getBoundingClientRect().width,
			})) : null,
		};
	});
	const fnhead = async (page, name) => {
		const info = await page.evaluate((n) => window.fg.frames.find((f) => f.name === n).info, name);
		const m = /, ([\d.]+)%; self [\d,.]+ \w+, ([\d.]+)%\)$/.exec(info);
		return `Function: ${name}, ${(+m[1]).toFixed(1)}% of all (self ${(+m[2]).toFixed(1)}%)`;
	};
	const wantCompute = await fnhead(page, 'compute');
	const checkCompute = (v) => {
		if (v.title !== wantCompute) return `header ${v.title}, not ${wantCompute}`;
		if (!v.hidden || !v.frames) return 'the full graph still shows';
		const y = (n) => (v.frames.find((f) => f.name === n) || {}).y;
		const c = v.frames.find((f) => f.name === 'compute');
		if (!c || !near(c.bw, 1180)) return `compute not at full width: ${c && c.bw}`;
		if (!(y('run') < c.y && y('main') < y('run') && y('app') < y('main')))
			return 'callers run, main, app not drawn above, in order';
		if (!(y('hashbrown::map::HashMap<K,V,S>::insert') > c.y && y('memcpy') > c.y))
			return 'callees not drawn below';
		const other = v.frames.filter((f) => !/^(compute|run|main|app|memcpy|hashbrown.*)$/.test(f.name));
		if (other.length) return `unrelated frames drawn: ${other.map((f) => f.name)}`;
	};
	await step('Ctrl+click opens the function view: share, callers above, callees below, nothing else', async () => {
		const fs = await frames(page);
		const i = fs.findIndex((f) => f.name === 'compute');
		await page.click(`#frames > *:nth-child(${i + 1}) rect`, { modifiers: ['Control'] });
		const v = await viewOf(page);
		const bad = checkCompute(v) || (!/^#f=compute(&|$)/.test(v.hash) ? `URL ${v.hash}` : '');
		if (bad) return bad;
		// hovering a frame of the view gives its tooltip and details
		const k = v.frames.findIndex((f) => f.name === 'memcpy');
		await page.hover(`#fnframes > *:nth-child(${k + 1}) rect`);
		const tip = await page.evaluate((n) => {
			const t = document.querySelector(`#fnframes > *:nth-child(${n}) title`);
			return [t ? t.textContent : null, document.getElementById('details').textContent];
		}, k + 1);
		if (!/^memcpy \(7 samples, [\d.]+%\)$/.test(tip[0]) || !tip[1].endsWith(tip[0]))
			return `hovered memcpy: tooltip ${tip[0]}, details ${tip[1]}`;
	});
	await step('search and Matched work in the function view', async () => {
		await page.evaluate(() => window.fg.search('^memcpy$'));
		const m = await text(page, 'matched');
		const lit = await page.evaluate(() => Array.from(document.querySelectorAll('#fnframes rect'))
			.filter((r) => r.getAttribute('fill') === 'rgb(230,0,230)').length);
		await page.evaluate(() => window.fg.clear());
		// memcpy: 7 of compute's 167 samples
		return m === 'Matched: 4.2%' && lit === 1 ? '' : `${m}, ${lit} frames lit`;
	});
	await step('zoom works in the function view, and Reset Zoom keeps the view', async () => {
		const i = await page.evaluate(() => window.fg.frames.findIndex((f) => f.name === 'memcpy'));
		if (i < 0) return 'no memcpy frame in the view';
		const before = await page.evaluate((k) => window.fg.frames[k].r.getBoundingClientRect().width, i);
		await page.click(`#fnframes > *:nth-child(${i + 1}) rect`);
		const after = await page.evaluate((k) => window.fg.frames[k].r.getBoundingClientRect().width, i);
		await page.click('#unzoom');
		const back = await page.evaluate((k) => ({ w: window.fg.frames[k].r.getBoundingClientRect().width,
			view: window.fg.view }), i);
		// and a second Reset Zoom closes the view, as Esc does
		await page.click('#unzoom');
		const closed = await page.evaluate(() => window.fg.view);
		await page.keyboard.press('Escape');
		await page.evaluate(() => window.fg.fnview('compute'));
		return before < 200 && near(after, 1180) && near(back.w, before) && back.view === 'compute' &&
			closed === null ? '' :
			`memcpy ${before} px, zoomed ${after} px, after Reset Zoom ${back.w} px in the view of ${back.view}, then ${closed}`;
	});
	await step('Esc returns to the full graph', async () => {
		await page.keyboard.press('Escape');
		const v = await viewOf(page);
		const n = (await frames(page)).filter((f) => f.shown).length;
		if (v.title !== 'Flame Graph' || v.hidden || v.frames !== null || /f=/.test(v.hash))
			return `title ${v.title}, hash ${v.hash}, view still there`;
		if (n < 10) return `${n} frames shown`;
	});
	await step('f on a hovered frame opens the function view', async () => {
		const fs = await frames(page);
		const i = fs.findIndex((f) => f.name === 'slow_matrix_search');
		await page.hover(`#frames > *:nth-child(${i + 1}) rect`);
		await page.keyboard.press('f');
		const v = await viewOf(page);
		const want = await page.evaluate(() => { window.fg.close(); return document.getElementById('title').textContent; });
		return v.frames && v.title.startsWith('Function: slow_matrix_search, ') &&
			v.frames.some((f) => f.name === 'inner_loop') && want === 'Flame Graph' ? '' :
			`title ${v.title}, after close ${want}`;
	});
	await step('a link with #f=NAME opens the function view', async () => {
		const p2 = await ctx.newPage();
		p2.on('pageerror', (e) => errors.push(String(e)));
		await p2.goto(`${url}#f=${encodeURIComponent('compute')}`);
		await p2.waitForFunction(() => window.fg && window.fg.view === 'compute');
		const why = checkCompute(await viewOf(p2));
		await p2.close();
		return why;
	});
	await step('no script errors and no network requests', async () => {
		if (errors.length) return errors.join('; ');
		if (requests) return `${requests} requests`;
	});

	if (mergedPath) {
		// 80,000 samples in "big"; 2,000 f$i (5 each, 2 in needle) and
		// 2,000 g$i;x;needle;needle (5 each): all narrow, one grey frame;
		// 100 h$i of 1,000, each hiding a needle of 6, too narrow to draw
		const p4 = await ctx.newPage();
		p4.on('pageerror', (e) => errors.push(String(e)));
		await p4.goto('file://' + path.resolve(mergedPath));
		await p4.waitForFunction(() => window.fg && window.fg.frames.length > 0);
		await step('search sees the names inside grey frames and hidden ones; Matched is exact', async () => {
			const got = [];
			for (const [re, want] of [['needle', 'Matched: 7.3%'], ['^x$', 'Matched: 5.0%'],
				['needle|^x$|^g1', 'Matched: 7.3%'], ['^f[0-9]{2,3}$', 'Matched: 2.5%'],
				['^f', 'Matched: 5.0%'], ['big|needle', 'Matched: 47.3%'], ['nowhere', 'Matched: 0.0%'],
				['^h', 'Matched: 50.0%'], ['^h1$', 'Matched: 0.5%'], ['needle|^h', 'Matched: 57.0%']]) {
				await p4.evaluate((r) => window.fg.search(r), re);
				const m = await text(p4, 'matched');
				if (m !== want) got.push(`${re}: ${m}, not ${want}`);
			}
			await p4.evaluate((r) => window.fg.search(r), 'needle');
			const grey = (await frames(p4)).filter((f) => /\bm\b/.test(f.cls));
			if (grey.length !== 1) got.push(`${grey.length} grey frames`);
			else if (grey[0].fill !== 'rgb(230,0,230)') got.push('the grey frame holding matches is not highlighted');
			await p4.evaluate(() => window.fg.search('nowhere'));
			if ((await frames(p4)).some((f) => f.fill === 'rgb(230,0,230)')) got.push('a frame is lit for no match');
			return got.join('; ');
		});
		await step('function view of a name inside grey and hidden frames counts them', async () => {
			await p4.evaluate(() => window.fg.search('^needle$'));
			const m = /([\d.]+)%/.exec(await text(p4, 'matched'))[1];
			await p4.evaluate(() => { window.fg.clear(); window.fg.fnview('needle'); });
			const t = await text(p4, 'title');
			await p4.evaluate(() => window.fg.close());
			// every needle is a leaf: self is all of it
			return t === `Function: needle, ${m}% of all (self ${m}%)` ? '' : `${t}, Matched ${m}%`;
		});
		await step('hover on a grey frame shows its count', async () => {
			const fs = await frames(p4);
			const idx = fs.findIndex((f) => /\bm\b/.test(f.cls));
			await p4.hover(`#frames > *:nth-child(${idx + 1}) rect`);
			const d = await text(p4, 'details');
			if (!/^Function: \[\d+ narrow frames\] \(20,000 samples, 10.00%\)$/.test(d)) return `details: ${d}`;
			if (errors.length) return errors.join('; ');
		});
		await p4.close();
	}
	if (bigPath) {
		const p3 = await ctx.newPage();
		const t0 = Date.now();
		await p3.goto('file://' + path.resolve(bigPath));
		// a guard against a frozen tab, not a measure: how fast it opens
		// is bench/fnview.sh's (make bench), not a test's on a shared machine
		await p3.waitForFunction(() => window.fg && window.fg.frames.length > 0, null, { timeout: 180000 });
		const tLoad = Date.now() - t0;
		const n = await p3.evaluate(() => window.fg.frames.length);
		// a person takes a moment before typing a search
		await p3.waitForTimeout(1000);
		const t1 = Date.now();
		await p3.evaluate(() => window.fg.search('method_3[0-9]'));
		const m = await p3.evaluate(() => document.getElementById('matched').textContent);
		const tSearch = Date.now() - t1;
		const t2 = Date.now();
		// a frame of 20 to 600 pixels, zoomed, fills the width
		const width = (k) => p3.evaluate((i) => window.fg.frames[i].r.getBoundingClientRect().width, k);
		const zi = await p3.evaluate(() => window.fg.frames.findIndex((f) => f.r &&
			f.r.getBoundingClientRect().width > 20 && f.r.getBoundingClientRect().width < 600));
		const w0 = zi < 0 ? -1 : await width(zi);
		await p3.evaluate((i) => window.fg.zoom(i), zi < 0 ? 1 : zi);
		await p3.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
		const tZoom = Date.now() - t2;
		const w1 = zi < 0 ? -1 : await width(zi);
		const omitted = await p3.evaluate(() => document.querySelectorAll('#frames > [data-l="-"]').length);
		const grey = await p3.evaluate(() => document.querySelectorAll('#frames > .m').length);
		// over 10,000 frames the controls follow a scroll once it pauses:
		// scrolled to the top, Matched comes back into the window
		await p3.evaluate(() => window.scrollTo(0, 0));
		const back = await p3.waitForFunction(() => {
			const e = document.getElementById('matched');
			const y = new DOMPoint(+e.getAttribute('x'), +e.getAttribute('y')).matrixTransform(e.getScreenCTM()).y;
			return y > 0 && y < innerHeight;
		}, null, { timeout: 10000 }).then(() => '', () => 'Matched stayed out of the window');
		await step('big profile: scrolled to the top, Matched comes back into the window', async () => back);
		if (omitted === 0 && m === `Matched: ${process.env.BIG_MATCHED}%`)
			pass('big profile: the search data fits, Matched is exact');
		else
			fail('big profile: the search data fits, Matched is exact',
			    `${omitted} frames without data, ${m}, expected Matched: ${process.env.BIG_MATCHED}%`);
		info(`big profile: ${fs.statSync(bigPath).size} bytes, ${n} frames (${grey} grey), ` +
			`load ${tLoad} ms, search ${tSearch} ms (${m}), zoom ${tZoom} ms`);
		// it opens, its search counts and its zoom widens the zoomed
		// frame; the times are printed, and measured by make bench
		if (n > 1000 && /^Matched: [\d.]+%$/.test(m) && w0 > 0 && near(w1, 1180))
			pass('big profile opens, searches and zooms');
		else
			fail('big profile opens, searches and zooms', `${n} frames, ${m}, frame ${zi} zoomed from ${w0} to ${w1} px`);
		// the function view of a method on many stacks, once the page has
		// read its call tree while idle (as it does after the search data),
		// timed from the call until the frame that shows it is painted
		// (the first task after the next animation frame), and back to
		// the full graph the same way; the medians of three
		await p3.waitForFunction(() => window.fg.ready, null, { timeout: 180000 });
		const painted = (fn) => p3.evaluate((f) => new Promise((done) => {
			const t = performance.now();
			if (f === 'open') window.fg.fnview('ns3::Class0::method_3'); else window.fg.close();
			requestAnimationFrame(() => setTimeout(() => done(Math.round(performance.now() - t)), 0));
		}), fn);
		const times = [], closes = [];
		for (let k = 0; k < 3; k++) {
			times.push(await painted('open'));
			if (k < 2) closes.push(await painted('close'));
		}
		const med = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
		const tView = med(times);
		const vn = await p3.evaluate(() => window.fg.frames.length);
		const vt = await p3.evaluate(() => document.getElementById('title').textContent);
		info(`big profile: function view of ns3::Class0::method_3 painted in ${tView} ms (median of ${times.join(', ')}; ${vn} frames; ${vt}); back to the full graph in ${closes.join(', ')} ms`);
		if (/^Function: ns3::Class0::method_3, [\d.]+% of all/.test(vt) && vn > 10)
			pass('big profile: the function view opens');
		else
			fail('big profile: the function view opens', `${tView} ms, ${vn} frames, ${vt}`);
		await p3.close();
		// The links of issue 23 that froze the tab: a #s= pattern that
		// backtracks for ever. The page must answer (an evaluate
		// returns) and say that the pattern was refused; the search
		// that the link started is timed again in the page, once it is
		// idle (the figure of issue 23: within 100 ms; the median of
		// three, printed). A frozen
		// tab is left behind unclosed: the context's close ends it.
		const hostile = [['(.|.) forty times', '(.|.)'.repeat(40) + '#'],
			['.? thirty times', '.?'.repeat(30) + '.'.repeat(30) + '#']];
		for (const [what, pat] of hostile) {
			const name = `big profile: a #s= link of ${what} answers, the pattern refused and said`;
			const ph = await ctx.newPage();
			let closed = false;
			await step(name, async () => {
				const t0 = Date.now();
				await ph.goto('file://' + path.resolve(bigPath) + '#s=' + encodeURIComponent(pat),
				    { timeout: Math.max(3 * tLoad, 20000) });
				const m = await Promise.race([
					ph.evaluate(() => window.fg && document.getElementById('matched').textContent),
					new Promise((r) => setTimeout(() => r(null), Math.max(3 * tLoad, 20000)))]);
				const tOpen = Date.now() - t0;
				if (m === null) return `no answer after ${tOpen} ms: the tab is frozen`;
				// timed again once the page has read its data while idle
				await ph.waitForFunction(() => window.fg.ready, null, { timeout: 180000 });
				const tIns = await ph.evaluate((q) => [0, 1, 2].map(() => {
					window.fg.clear();
					const t = performance.now();
					window.fg.search(q, true);
					return Math.round(performance.now() - t);
				}), pat);
				const tIn = tIns.slice().sort((x, y) => x - y)[1];
				const m2 = await ph.evaluate(() => document.getElementById('matched').textContent);
				info(`big profile: link of ${what} (${pat.length} characters): opened in ${tOpen} ms ` +
				    `(the plain open ${tLoad} ms), its search again ${tIn} ms (median of ${tIns.join(', ')}): ${m2}`);
				closed = true;
				if (!/^Matched: 0\.0% \(pattern refused, searched as text: /.test(m) || m2 !== m)
					return `${m} / ${m2}`;
				// stopped by its budget: within the time of the plain
				// search of the same profile, twenty times over and 200 ms
				return tIn <= 20 * tSearch + 200 ? '' : `search ${tIn} ms, the plain one ${tSearch} ms`;
			});
			if (closed) await ph.close();
		}
	}
	// An off-CPU graph, its counts ns and its tooltips times ("700.00 ms"):
	// the function view reads each frame's time in ns, whatever unit its
	// tooltip shows. lock is on 1 s of the 4 s (t290 draws it).
	// A differential graph (two counts a line): the view's share is of the
	// second profile, as its frames' widths are. lock is on 20 of 40.
	if (diffPath) {
		const p7 = await ctx.newPage();
		await p7.goto('file://' + path.resolve(diffPath) + '#f=lock');
		await p7.waitForFunction(() => window.fg && window.fg.view === 'lock');
		const t = await p7.evaluate(() => document.getElementById('title').textContent);
		const up = await p7.evaluate(() => window.fg.frames.filter((f) => f.name === 'b' || f.name === 'c').length);
		if (t === 'Function: lock, 50.0% of all (self 50.0%)' && up === 2)
			pass('differential graph: the function view opens with the second profile\'s share');
		else
			fail('differential graph: the function view opens with the second profile\'s share', `${t}; ${up} callers`);
		await p7.close();
	}
	if (timePath) {
		const p6 = await ctx.newPage();
		await p6.goto('file://' + path.resolve(timePath) + '#f=lock');
		await p6.waitForFunction(() => window.fg && window.fg.view === 'lock');
		const t = await p6.evaluate(() => document.getElementById('title').textContent);
		const c = await p6.evaluate(() => window.fg.frames.filter((f) => f.name === 'c').map((f) => f.info));
		if (t === 'Function: lock, 25.0% of all (self 0.0%)' && c.length === 1 &&
		    c[0] === 'c (300.00 ms, 7.5%)')
			pass('time-weighted graph: the function view reads times in any unit');
		else
			fail('time-weighted graph: the function view reads times in any unit', `${t}; caller c: ${c}`);
		await p6.close();
	}
	if (cappedPath) {
		const p5 = await ctx.newPage();
		await p5.goto('file://' + path.resolve(cappedPath));
		await p5.waitForFunction(() => window.fg && window.fg.frames.length > 0, null, { timeout: 60000 });
		await p5.evaluate(() => window.fg.search('method_3[0-9]'));
		const m = await p5.evaluate(() => document.getElementById('matched').textContent);
		const omitted = await p5.evaluate(() => document.querySelectorAll('#frames > [data-l="-"]').length);
		// the tooltip of a frame left out says that its hidden names were not searched
		const note = await p5.evaluate(() => {
			const e = document.querySelector('#frames > [data-l="-"]');
			return e === null ? null : window.fg.frames[e.fgi].info;
		});
		const lower = /^Matched: \u2265 ([\d.]+)%$/.exec(m);
		if (omitted > 0 && lower && +lower[1] < +process.env.BIG_MATCHED &&
		    /\[names inside not searched: over the size budget\]$/.test(note))
			pass('over the size budget, Matched says it is a lower bound');
		else
			fail('over the size budget, Matched says it is a lower bound',
			    `${omitted} frames without data, ${m}, tooltip: ${note}`);
		info(`capped: ${fs.statSync(cappedPath).size} bytes, ${omitted} frames over the search budget, ${m}`);
		await p5.close();
	}
	await ctx.close();
	console.log(results.join('\n'));
})().catch((e) => {
	console.log(results.join('\n'));
	console.log(`FAIL browser: ${String(e && e.message || e).split('\n')[0]}`);
	process.exit(0);
});
