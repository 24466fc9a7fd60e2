// timeline-browser.js PHASES.svg PHASES.sym WALL.svg KNOWN NOTE.svg [BIG.svg BIGF.svg]:
// fgsvg's timeline in headless Chromium, driven as a user would (drag,
// click, link, search, function view, Esc). PHASES is a recording of
// tests/record/phases.c, KNOWN what it measured of its own first phase
// (each thread's CPU time there): the shares in a range are checked
// against those, within 5%, and against the symbolized stream itself,
// binned as the page bins it. NOTE.svg is PHASES drawn with its detail
// reduced (the page says so). BIG and BIGF: tests/fgsvg/timeline-big.js.
// Prints PASS, FAIL and INFO lines, as tests/browser/fgsvg.js does.
'use strict';
const fs = require('fs');
const path = require('path');

const [svgPath, symPath, wallPath, knownPath, notePath, bigPath, bigfPath] = process.argv.slice(2);
const { results, info, step, session } = require(path.join(__dirname, '../browser/steps.js'));

// The stream's samples: time (ns), thread, period, and the functions on
// the stack, to count what a range holds.
function samples(file) {
	const out = [];
	let cur = null;
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		if (line.startsWith('#')) continue;
		if (line === '') { if (cur) out.push(cur); cur = null; continue; }
		if (/^\s/.test(line)) {
			if (cur) { const m = /^\s+\S+ ([^+ ]+)/.exec(line); if (m) cur.fn.add(m[1]); }
			continue;
		}
		const m = /^(.*?)\s+(\d+)\/(\d+)\s+(?:\[\d+\]\s+)?(\d+)\.(\d+):\s+(\d+)\s+(\S+):/.exec(line);
		if (!m) continue;
		const frac = (m[5] + '000000000').slice(0, 9);
		cur = { t: BigInt(m[4]) * 1000000000n + BigInt(frac), tid: +m[3], fn: new Set() };
	}
	if (cur) out.push(cur);
	return out;
}
// Per function, its share of the samples with bins [b0, b1) of threads th.
function truth(S, t0, bw, b0, b1, th, names) {
	let all = 0;
	const n = {};
	for (const s of S) {
		const b = Number((s.t - t0) / BigInt(bw));
		if (b < b0 || b >= b1 || (th && !th.includes(s.tid))) continue;
		all++;
		for (const f of names) if (s.fn.has(f)) n[f] = (n[f] || 0) + 1;
	}
	const r = {};
	for (const f of names) r[f] = all ? (n[f] || 0) / all : 0;
	r.all = all;
	return r;
}
// The graph on show: share of each name (a nested name counted once per
// frame set: the names checked here are not nested in themselves).
function shares(page, names) {
	return page.evaluate((names) => {
		const F = fg.frames, r = {};
		for (const nm of names) r[nm] = F.filter((f) => f.name === nm).reduce((a, f) => a + f.n, 0) / F[0].n;
		r.root = F[0].n;
		r.title = document.getElementById('title').textContent;
		return r;
	}, names);
}
// Clicks the timeline label that reads text, with Ctrl when ctrl.
async function label(page, text, ctrl) {
	const b = await page.evaluate((t) => {
		const e = Array.from(document.querySelectorAll('#timeline .tlname')).find((x) => x.textContent === t);
		if (!e) return null;
		const r = e.getBoundingClientRect();
		return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
	}, text);
	if (!b) throw new Error('no label ' + text);
	if (ctrl) await page.keyboard.down('Control');
	await page.mouse.click(b.x, b.y);
	if (ctrl) await page.keyboard.up('Control');
}
const close = (a, b) => Math.abs(a - b) <= 0.05 * Math.max(b, 0.01);

(async () => {
	const S0 = await session('fgsvg-timeline-');
	const { ctx, page, errors } = S0;
	const url = 'file://' + path.resolve(svgPath);
	const S = samples(symPath);
	// the CPU seconds phases.c measured: phase_one's, and steady's over the same span
	const K = {};
	for (const l of fs.readFileSync(knownPath, 'utf8').split('\n')) { const m = /^(\S+) ([\d.]+)$/.exec(l); if (m) K[m[1]] = +m[2]; }
	const known = { phase_one: K.phase_one / (K.phase_one + K.steady), steady: K.steady / (K.phase_one + K.steady), phase_two: 0 };
	const names = ['phase_one', 'phase_two', 'steady'];
	await page.goto(url);
	const TL = await page.evaluate(() => ({ t0: fgtl.t0, bw: fgtl.bw, nb: fgtl.nb,
		R: fgtl.R.map((r) => [r[0], r[2]]), X0: fgtimeline.X0, bpx: fgtimeline.bpx }));
	const t0 = BigInt(TL.t0);
	const tidOf = (comm) => (TL.R.find((r) => r[1] === comm) || [])[0];
	const A = tidOf('worker-a'), B = tidOf('worker-b');
	let whole = null;

	await step('timeline: a row per thread, named, busiest first, with bars', async () => {
		const r = await page.evaluate(() => ({
			labels: Array.from(document.querySelectorAll('#timeline .tlname'), (t) => t.textContent),
			paths: document.querySelectorAll('#timeline path').length,
			frames: fg.frames.length, title: document.getElementById('title').textContent }));
		whole = r;
		if (A === undefined || B === undefined) return 'no worker-a or worker-b row: ' + r.labels.join(', ');
		if (!r.labels.some((l) => l === 'worker-a ' + A)) return 'labels ' + r.labels.join(', ');
		if (r.paths < 2) return r.paths + ' bar paths';
		if (r.title !== 'Flame Graph') return 'title ' + r.title;
	});
	// the first phase: from the start to the last bin of worker-a that holds phase_one
	let b1 = 0;
	for (const s of S) if (s.tid === A && s.fn.has('phase_one'))
		b1 = Math.max(b1, Number((s.t - t0) / BigInt(TL.bw)));
	// stop a little before its end, so that no phase_two shares the last bin
	const end = Math.max(2, b1 - 1);
	let sel = null;
	await step('drag over the first phase: phase_one and steady, no phase_two, within 5% of the shares the program measured', async () => {
		const y = await page.evaluate(() => { const r = document.querySelector('.tlbg').getBoundingClientRect(); return r.y + r.height / 2; });
		await page.mouse.move(TL.X0 + 0.5, y);
		await page.mouse.down();
		await page.mouse.move(TL.X0 + (end - 0.5) * TL.bpx, y, { steps: 6 });
		await page.mouse.up();
		sel = await page.evaluate(() => fgtimeline.sel);
		const g = await shares(page, names);
		const want = truth(S, t0, TL.bw, sel.b0, sel.b1, null, names);
		info(`first phase bins ${sel.b0}-${sel.b1}: graph ${names.map((n) => n + ' ' + (100 * g[n]).toFixed(1) + '%').join(', ')}; ` +
		    `stream ${names.map((n) => (100 * want[n]).toFixed(1) + '%').join(', ')} of ${want.all}; ` +
		    `known ${names.map((n) => (100 * known[n]).toFixed(1) + '%').join(', ')} (${K.phase_one} s and ${K.steady} s of CPU)`);
		if (sel.b0 !== 0 || sel.b1 < end - 1) return `selected bins ${sel.b0}-${sel.b1}, wanted 0-${end}`;
		if (!(g.phase_one > 0.2 && g.steady > 0.2)) return 'phase_one or steady missing';
		if (g.phase_two !== 0) return 'phase_two in the first phase: ' + g.phase_two;
		for (const n of ['phase_one', 'steady']) {
			if (!close(g[n], known[n])) return `${n} ${g[n]} where the program measured ${known[n]}`;
			if (!close(g[n], want[n])) return `${n} ${g[n]} where the stream has ${want[n]}`;
		}
		if (!/ to .*: [\d.]+% of all samples$/.test(g.title)) return 'title ' + g.title;
	});
	await step('the link keeps the range (#t=)', async () => {
		const h = await page.evaluate(() => location.hash);
		if (!/(^#|&)t=[\d.]+-[\d.]+/.test(h)) return 'hash ' + h;
	});
	await step('search in the range: Matched is the share of the range', async () => {
		S0.answer = 'phase_one';
		await page.keyboard.press('Control+f');
		S0.answer = null;
		const m = await page.evaluate(() => document.getElementById('matched').textContent);
		const g = await shares(page, ['phase_one']);
		const want = (100 * g.phase_one).toFixed(1);
		if (m !== 'Matched: ' + want + '%') return `${m}, the range's phase_one is ${want}%`;
	});
	await step('function view in the range: its share of the range, no phase_two', async () => {
		const box = await page.evaluate(() => {
			const f = fg.frames.find((x) => x.name === 'phase_one');
			const b = f.r.getBoundingClientRect();
			return { x: b.x + b.width / 2, y: b.y + b.height / 2, n: f.n / fg.frames[0].n };
		});
		await page.keyboard.down('Control');
		await page.mouse.click(box.x, box.y);
		await page.keyboard.up('Control');
		const r = await page.evaluate(() => ({ t: document.getElementById('title').textContent, v: fg.view,
			names: fg.frames.map((f) => f.name) }));
		if (r.v !== 'phase_one') return 'view ' + r.v + ', title ' + r.t;
		if (!r.t.startsWith('Function: phase_one, ' + (100 * box.n).toFixed(1) + '% of all')) return r.t;
		if (r.names.includes('phase_two') || r.names.includes('steady')) return 'other phases in the view';
	});
	await step('Esc closes the view, then the search, then the range', async () => {
		await page.keyboard.press('Escape');
		const a = await page.evaluate(() => [fg.view, fg.term]);
		await page.keyboard.press('Escape');
		const b = await page.evaluate(() => [fg.view, fg.term, fgtimeline.sel.b1]);
		await page.keyboard.press('Escape');
		const c = await page.evaluate(() => [document.getElementById('title').textContent,
			fg.frames.length, fgtimeline.sel.b1, location.hash]);
		if (a[0] !== null) return 'view still open';
		if (b[1] !== null || b[2] === TL.nb) return 'second Esc: ' + JSON.stringify(b);
		if (c[0] !== 'Flame Graph' || c[1] !== whole.frames || c[2] !== TL.nb) return 'third Esc: ' + JSON.stringify(c);
	});
	await step('click on worker-b: only steady, its title', async () => {
		await label(page, `worker-b ${B}`);
		const g = await shares(page, names);
		const want = truth(S, t0, TL.bw, 0, TL.nb, [B], names);
		info(`worker-b: graph steady ${(100 * g.steady).toFixed(1)}%, stream ${(100 * want.steady).toFixed(1)}% of ${want.all}`);
		if (g.phase_one !== 0 || g.phase_two !== 0) return 'phases of worker-a shown';
		if (!(g.steady > 0.8) || !close(g.steady, want.steady)) return 'steady ' + g.steady + ', stream ' + want.steady;
		if (!g.title.startsWith(`thread worker-b ${B}: `)) return 'title ' + g.title;
	});
	await step('Ctrl+click on worker-a adds it', async () => {
		await label(page, `worker-a ${A}`, true);
		const g = await shares(page, names);
		if (!(g.phase_one > 0 && g.phase_two > 0 && g.steady > 0)) return JSON.stringify(g);
		if (!g.title.startsWith('threads worker-b')) return 'title ' + g.title;
	});
	let link = null;
	await step('a link with #t=...&th=... reopens the same range, threads and zoom', async () => {
		await page.evaluate(() => fgtimeline.reset());
		await page.mouse.move(TL.X0 + 0.5, 50);
		const y = await page.evaluate(() => { const r = document.querySelector('.tlbg').getBoundingClientRect(); return r.y + r.height / 2; });
		await page.mouse.move(TL.X0 + 0.5, y);
		await page.mouse.down();
		await page.mouse.move(TL.X0 + (end - 0.5) * TL.bpx, y, { steps: 4 });
		await page.mouse.up();
		await label(page, `worker-a ${A}`);
		await page.evaluate(() => fg.zoom(fg.frames.findIndex((f) => f.name === 'phase_one')));
		const before = await page.evaluate(() => [location.hash, document.getElementById('title').textContent,
			fg.frames.map((f) => f.name + ' ' + f.n).join(';')]);
		link = url + before[0];
		await page.goto('about:blank');
		await page.goto(link);
		const after = await page.evaluate(() => [location.hash, document.getElementById('title').textContent,
			fg.frames.map((f) => f.name + ' ' + f.n).join(';'),
			getComputedStyle(document.getElementById('unzoom')).display]);
		if (!/th=/.test(before[0]) || !/z=/.test(before[0])) return 'hash ' + before[0];
		if (after[1] !== before[1]) return `title ${after[1]}, was ${before[1]}`;
		if (after[2] !== before[2]) return 'other frames after the link';
		if (after[0] !== before[0]) return `hash ${after[0]}, was ${before[0]}`;
		if (after[3] === 'none') return 'not zoomed';
	});
	await step('hover on the timeline says time, thread and top of stack', async () => {
		// a bin of the first row's thread that holds samples
		const at = await page.evaluate(() => {
			const e = document.querySelector('.tlbg'), r = e.getBoundingClientRect();
			const c = tllib.cells(fgtl.R[e.fgrow][5]);
			return { y: r.y + r.height / 2, b: c.b[c.b.length >> 1] };
		});
		await page.mouse.move(TL.X0 + (at.b + 0.5) * TL.bpx, at.y);
		const d = await page.evaluate(() => document.getElementById('details').textContent);
		if (!/^[\d.]+ s to [\d.]+ s, thread .* \d+: .*top of stack \S+/.test(d)) return 'details: ' + d;
	});
	await step('"Whole run" and the note clear the axis labels', async () => {
		// a page whose detail was reduced (a note), a range selected (the button)
		const why = [];
		for (const [file, hash] of [[svgPath, '#t=0.100-0.400'], [notePath, '#t=0.100-0.400']]) {
			await page.goto('about:blank');
			await page.goto('file://' + path.resolve(file) + hash);
			const r = await page.evaluate(() => {
				const box = (e) => { const b = e.getBoundingClientRect(); return { x0: b.left, x1: b.right, y0: b.top, y1: b.bottom, t: e.textContent }; };
				const hit = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
				const btn = document.getElementById('tlreset'), note = document.getElementById('tlnote');
				const ticks = Array.from(document.querySelectorAll('#timeline .tlaxis')).filter((e) => e !== note).map(box);
				const rows = Array.from(document.querySelectorAll('#timeline .tlname, #timeline .tlbg')).map(box);
				// where tick labels may go, whatever the run's length: the
				// axis's width, a label's half width past its end, the labels' height
				const bg = box(document.querySelector('#timeline .tlbg'));
				ticks.push({ x0: bg.x0 - 20, x1: bg.x1 + 20, y0: Math.min(...ticks.map((t) => t.y0)),
					y1: Math.max(...ticks.map((t) => t.y1)), t: 'the tick labels\' row' });
				const out = [], shown = getComputedStyle(btn).display !== 'none';
				if (!shown) out.push('no Whole run button with a range selected');
				for (const [e, what] of [[btn, 'Whole run'], [note, 'the note']]) {
					if (!e) continue;
					const b = box(e);
					for (const t of ticks.concat(rows)) if (hit(b, t)) out.push(`${what} over "${t.t}"`);
				}
				if (note && hit(box(btn), box(note))) out.push('Whole run over the note');
				return { out, note: !!note, ticks: ticks.length };
			});
			if (file === notePath && !r.note) why.push('no note on ' + file);
			if (r.ticks < 4) why.push(r.ticks - 1 + ' tick labels');
			why.push(...r.out);
		}
		return why.join('; ');
	});
	await step('no script errors', async () => { if (errors.length) return errors.join('; '); });

	await step('--wall: the sleep is blue where it happened, and only there', async () => {
		await page.goto('file://' + path.resolve(wallPath));
		const r = await page.evaluate(() => {
			tllib.tree(fgtl.T);
			const T = tllib.tree(fgtl.T), nap = fgtl.N.indexOf('nap'), after = fgtl.N.indexOf('after_nap');
			const row = fgtl.R.findIndex((x) => x[2] === 'phases');
			const c = tllib.cells(fgtl.R[row][5]);
			// per bin: weight under nap, and under after_nap
			const under = (id) => { const u = new Uint8Array(T.n); for (let i = 0; i < T.n; i++) u[i] = T.M[i] === id || (T.P[i] >= 0 && u[T.P[i]]) ? 1 : 0; return u; };
			// on a busy machine the clock can tick while nap enters or
			// leaves its syscall: on-CPU time under nap, outside [off-cpu]
			const un = under(nap), ua = under(after), uo = under(fgtl.N.indexOf('[off-cpu]')), bins = [];
			for (let i = 0; i < c.b.length; i++) {
				let n = 0, a = 0, on = 0;
				for (let j = c.e0[i]; j < c.e1[i]; j++) {
					const k = c.node[j];
					if (un[k]) n += c.nw[j];
					if (un[k] && !uo[k]) on += c.nw[j];
					if (ua[k]) a += c.nw[j];
				}
				bins.push({ b: c.b[i], nap: n, napon: on, after: a, off: c.off[i], w: c.w[i] });
			}
			const blue = Array.from(document.querySelectorAll('#timeline path')).filter((p) => p.getAttribute('fill') === 'rgb(70,110,220)').length;
			return { bins, blue, bw: fgtl.bw };
		});
		const napb = r.bins.filter((x) => x.nap > 0), aft = r.bins.filter((x) => x.after > 0);
		if (!napb.length) return 'no nap in the timeline';
		if (!aft.length) return 'no after_nap in the timeline';
		const napw = napb.reduce((a, x) => a + x.nap, 0) * 1000;
		info(`nap: ${napb.length} bins, ${(napw / 1e9).toFixed(3)} s, bins ${napb[0].b}-${napb[napb.length - 1].b}; after_nap from bin ${aft[0].b}`);
		// the nap is off-CPU time, before after_nap, in bins next to each other
		if (napb.some((x) => x.off < (x.nap - x.napon) * 0.99)) return 'nap not off-CPU';
		if (napb[napb.length - 1].b > aft[aft.length - 1].b) return 'nap after after_nap';
		if (napb[napb.length - 1].b - napb[0].b + 1 > napb.length + 1) return 'nap not contiguous';
		// the program slept 0.3 s, then waited for a CPU (NAP_SECS is
		// both, as it measured them): a busy machine's wait is nap's too
		const napTop = Math.max(0.45e9, (Number(process.env.NAP_SECS) || 0) * 1e9 + 0.15e9);
		if (!(napw > 0.25e9 && napw < napTop)) return 'nap of ' + napw + ' ns, the program slept 0.3 s and measured ' + (process.env.NAP_SECS || '?') + ' s';
		if (r.blue < 1) return 'no blue bars';
		// its bins selected: the graph shows nap in blue
		const lo = napb[0].b, hi = napb[napb.length - 1].b + 1;
		await page.evaluate(([lo, hi]) => { location.hash = 't=' + tllib.rangestr(lo, hi, fgtl.bw); }, [lo, hi]);
		await page.waitForFunction(() => fg.frames.some((f) => f.name === 'nap'));
		const f = await page.evaluate(() => {
			const f = fg.frames.find((x) => x.name === 'nap');
			const o = fg.frames.find((x) => x.name === '[off-cpu]' && x.d > f.d && x.x >= f.x && x.x < f.x + f.w);
			return { nap: f.fill, off: o ? o.fill : null };
		});
		const isblue = (c) => { const m = /^#(..)(..)(..)$/.exec(c || ''); return !!m && parseInt(m[3], 16) > parseInt(m[1], 16); };
		// nap is blue when all its time in the range is off-CPU; with a
		// tick on-CPU it is warm, and the sleep above it blue
		const on = napb.reduce((a, x) => a + x.napon, 0);
		if (!isblue(f.off)) return 'the [off-cpu] frame above nap drawn in ' + f.off;
		if (on === 0 && !isblue(f.nap)) return 'nap drawn in ' + f.nap + ', all of its time off-CPU';
		if (on > 0 && isblue(f.nap)) return 'nap drawn in ' + f.nap + ', ' + on + ' of its weight on-CPU';
		if (on > 0) info('nap has ' + on + ' of ' + (napw / 1000) + ' on-CPU: drawn warm, the sleep above it blue');
	});
	if (bigPath) await require('./timeline-big.js').steps(ctx, step, info, bigPath, bigfPath);
	await ctx.close();
	console.log(results.join('\n'));
})().catch((e) => { console.log(results.join('\n')); console.log('FAIL browser: ' + e); process.exit(1); });
