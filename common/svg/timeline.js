/*
 * The timeline's script (made into C by make, written after svgscript.js
 * in a graph drawn from a sample stream): a strip above the graph with a
 * row per thread, busiest first (the rest in one row that pages through
 * them), each bin's on-CPU weight in warm colours and off-CPU weight in
 * blue, and a time axis in seconds from the first sample. Drag on it to
 * select a range, click a row's label to keep only that thread (Ctrl
 * adds one): the graph below is drawn again from what is selected, its
 * share in the title, through svgscript's rebase hook, so that zoom,
 * search, Matched and the function view work on it. Esc or "Whole run"
 * goes back; the fragment keeps it (#t=A-B&th=TID,TID beside #z= #s=
 * #f=). Hovering says the time, the thread and the top of its stack.
 *
 * fgtl, written before it, holds the data (svg/timeline.h): N the names,
 * C and B their colours (B: off-CPU's blue), T the tree of the graph's
 * nodes in preorder ("[U^]NAME" as in the search data), and R the rows
 * [TID, PID, COMM, ON, OFF, CELLS], CELLS per bin that has samples its
 * bin, off-CPU weight, K, then K nodes and weights, weights in units of
 * q, in base-64 VLQ, bins and nodes as steps (cells()).
 *
 * tllib holds the functions that need no document; under node it is what
 * the file exports, for the unit test. It must never hold the three
 * characters that end a CDATA section.
 */
"use strict";
var tllib = (function () {
	/* The numbers of s, in base-64 VLQ (five bits a character, low first,
	   32 set on all but a number's last), as an array. */
	var V64 = new Int8Array(128).fill(-1);
	for (var d = 0; d < 64; d++)
		V64["ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".charCodeAt(d)] = d;
	function vlq(s) {
		var out = [], n = s.length, i = 0, v, sh, c;
		while (i < n) {
			v = 0; sh = 1;
			do {
				c = V64[s.charCodeAt(i++) & 127];
				if (c < 0) return out;
				v += (c & 31) * sh;
				sh *= 32;
			} while (c & 32 && i < n);
			out.push(v);
		}
		return out;
	}
	/* The numbers of a, in base-64 VLQ: the inverse of vlq. */
	function unvlq(a) {
		var A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", s = "";
		for (var i = 0; i < a.length; i++) {
			var v = a[i];
			do {
				var c = v % 32;
				v = Math.floor(v / 32);
				s += A[c + (v > 0 ? 32 : 0)];
			} while (v > 0);
		}
		return s;
	}
	/*
	 * The tree T ("[U^]NAME ...": each entry a child of the one before
	 * unless U says how many levels up from there): per node its depth
	 * D, name id M and parent P (-1 for the root), in preorder.
	 */
	function tree(T) {
		var D = [], M = [], P = [], st = [], d = -1, n = T.length, i = 0, v, c;
		while (i < n) {
			d++;
			v = 0;
			while (i < n && (c = T.charCodeAt(i)) >= 48 && c <= 57) { v = v * 10 + c - 48; i++; }
			if (i < n && c === 94) {
				d -= v; i++; v = 0;
				while (i < n && (c = T.charCodeAt(i)) >= 48 && c <= 57) { v = v * 10 + c - 48; i++; }
			}
			if (d < 0) d = 0;
			st[d] = D.length;
			P.push(d > 0 ? st[d - 1] : -1);
			D.push(d);
			M.push(v);
			i++;
		}
		return { D: D, M: M, P: P, n: D.length };
	}
	/*
	 * A row's cells (VLQ: per cell its bin's step from the cell before,
	 * its off-CPU weight, its number of entries, then per entry its node's
	 * step from the entry before and its weight) as arrays: per cell its
	 * bin b, off-CPU weight off, total weight w, and its entries from e0
	 * to e1 in node and nw.
	 */
	function cells(s) {
		var a = vlq(s), r = { b: [], off: [], w: [], e0: [], e1: [], node: [], nw: [] }, b = 0;
		for (var i = 0; i + 2 < a.length; ) {
			var k = a[i + 2], t = 0, nd = 0;
			b += a[i];
			r.b.push(b);
			r.off.push(a[i + 1]);
			r.e0.push(r.node.length);
			for (var j = 0; j < k; j++) {
				nd += a[i + 3 + 2 * j];
				r.node.push(nd);
				r.nw.push(a[i + 4 + 2 * j]);
				t += a[i + 4 + 2 * j];
			}
			r.e1.push(r.node.length);
			r.w.push(t);
			i += 3 + 2 * k;
		}
		return r;
	}
	/*
	 * The own weight per node (n nodes) of the rows rs (cells()' form)
	 * over bins b0 to b1 (b1 not included).
	 */
	function select(rs, n, b0, b1) {
		var self = new Float64Array(n);
		for (var r = 0; r < rs.length; r++) {
			var c = rs[r];
			for (var i = 0; i < c.b.length; i++) {
				if (c.b[i] < b0 || c.b[i] >= b1) continue;
				for (var j = c.e0[i]; j < c.e1[i]; j++) self[c.node[j]] += c.nw[j];
			}
		}
		return self;
	}
	/* Each node's total: its own weight and its descendants'. */
	function totals(t, self) {
		var tot = Float64Array.from(self);
		for (var i = t.n - 1; i > 0; i--) tot[t.P[i]] += tot[i];
		return tot;
	}
	/*
	 * Lays out the nodes with weight as frames, from x over width w:
	 * each {node, d, x, w, v (total), s (own), L}, in preorder, own time
	 * at the left of the children (right with sw), siblings in the
	 * tree's order. A frame narrower than minw or deeper than maxd is
	 * not drawn: it goes, with its subtree, into the nearest drawn
	 * ancestor's L, as (depth below its children, name id, own) triples
	 * (the search data's form).
	 */
	function layout(t, self, tot, x, w, minw, maxd, sw) {
		var out = [], n = t.n, k = tot[0] > 0 ? w / tot[0] : 0;
		var fx = new Float64Array(n), cur = new Float64Array(n), fi = new Int32Array(n).fill(-1);
		var own = new Int32Array(n).fill(-1), i, p, f, o;
		if (!(tot[0] > 0)) return out;
		fx[0] = x;
		cur[0] = x + (sw ? 0 : self[0] * k);
		fi[0] = 0;
		out.push({ node: 0, d: 0, x: x, w: w, v: tot[0], s: self[0], L: null });
		for (i = 1; i < n; i++) {
			if (!(tot[i] > 0)) continue;
			p = t.P[i];
			if (fi[p] < 0) {
				/* under a frame not drawn: in the same L */
				own[i] = own[p];
				o = out[fi[own[i]]];
				o.L.push(t.D[i] - t.D[own[i]] - 1, t.M[i], self[i]);
				continue;
			}
			fx[i] = cur[p];
			cur[p] += tot[i] * k;
			if (tot[i] * k < minw || t.D[i] > maxd) {
				own[i] = p;
				f = out[fi[p]];
				if (f.L === null) f.L = [];
				f.L.push(0, t.M[i], self[i]);
				continue;
			}
			cur[i] = fx[i] + (sw ? 0 : self[i] * k);
			fi[i] = out.length;
			own[i] = i;
			out.push({ node: i, d: t.D[i], x: fx[i], w: tot[i] * k, v: tot[i], s: self[i], L: null });
		}
		return out;
	}
	/* Per node: whether it is [off-cpu] (name id off) or above it (u),
	   and its off-CPU weight, its own and its descendants' (ow). */
	function offweights(t, self, off) {
		var under = new Uint8Array(t.n), ow = new Float64Array(t.n), i;
		for (i = 0; i < t.n; i++) {
			under[i] = t.M[i] === off || (t.P[i] >= 0 && under[t.P[i]]) ? 1 : 0;
			if (under[i]) ow[i] = self[i];
		}
		for (i = t.n - 1; i > 0; i--) ow[t.P[i]] += ow[i];
		return { u: under, ow: ow };
	}
	/* Which nodes are off-CPU time: [off-cpu] (name id off) and above it,
	   and those all of whose weight is. */
	function offcpu(t, self, tot, off) {
		var x = offweights(t, self, off), under = x.u, ow = x.ow, i;
		for (i = 0; i < t.n; i++)
			if (!under[i] && tot[i] > 0 && ow[i] >= tot[i] * (1 - 1e-9)) under[i] = 1;
		return under;
	}
	/* A step for a time axis of span seconds in about n ticks: 1, 2 or 5 times a power of ten. */
	function tick(span, n) {
		var raw = span / n, p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
		return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
	}
	/* The fragment's t=A-B (seconds) as bins [b0, b1) of bw ns, of nb; null when bad. */
	function range(s, bw, nb) {
		var m = /^(\d+(?:\.\d*)?)-(\d+(?:\.\d*)?)$/.exec(s || "");
		if (!m) return null;
		var b0 = Math.max(0, Math.round(+m[1] * 1e9 / bw)), b1 = Math.min(nb, Math.round(+m[2] * 1e9 / bw));
		return b1 > b0 ? [b0, b1] : null;
	}
	/* Bins [b0, b1) of bw ns as the fragment writes them, seconds. */
	function rangestr(b0, b1, bw) {
		var dec = bw < 1e6 ? 6 : 3;
		return (b0 * bw / 1e9).toFixed(dec) + "-" + (b1 * bw / 1e9).toFixed(dec);
	}
	return { vlq: vlq, unvlq: unvlq, tree: tree, cells: cells, select: select, totals: totals,
	    layout: layout, offweights: offweights, offcpu: offcpu, tick: tick, range: range, rangestr: rangestr };
})();
if (typeof module === "object" && module && module.exports)
	module.exports = tllib;
else (function () {
	var C = fgcfg, TL = fgtl, NS = "http://www.w3.org/2000/svg";
	var LW = 150, X0 = C.xpad + LW, X1 = C.W - C.xpad, RH = TL.rh;
	var bpx = (X1 - X0) / TL.nb;
	/* the fragment when the page opened: svgscript's first save drops t= */
	var hash0 = location.hash;
	var T = null, rows = null, grand = 0, offid = -1, tidrow = null;
	/* th: the tids kept, or null; a new array whenever it changes, so
	   that its set (inth) is made once per selection */
	var sel = { b0: 0, b1: TL.nb, th: null }, thset = { th: null, s: null };
	var page = 0, per = TL.R.length > TL.rows ? TL.rows - 1 : TL.rows;
	var G, details, drag = null, selRect, resetBtn, rowsG;

	function el(name, attrs, parent) {
		var e = document.createElementNS(NS, name);
		for (var k in attrs) e.setAttribute(k, String(attrs[k]));
		if (parent) parent.appendChild(e);
		return e;
	}
	function load() {
		if (T !== null) return;
		T = tllib.tree(TL.T);
		rows = TL.R.map(function (r) { return tllib.cells(r[5]); });
		for (var i = 0; i < TL.R.length; i++) grand += TL.R[i][3] + TL.R[i][4];
		offid = TL.N.indexOf("[off-cpu]");
	}
	function secs(b) { return (b * TL.bw / 1e9); }
	function fmt(s) { return s.toFixed(TL.bw * TL.nb < 1e10 ? 2 : 1) + " s"; }
	/* a thread's row, or the row of the threads past the budget (tid null) */
	function label(r) { return TL.R[r][0] === null ? TL.R[r][2] : TL.R[r][2] + " " + TL.R[r][0]; }
	/* the row of each tid, made once: links and labels look threads up by it */
	function rowof(tid) {
		if (tidrow === null) {
			tidrow = new Map();
			for (var i = 0; i < TL.R.length; i++)
				if (TL.R[i][0] !== null && !tidrow.has(TL.R[i][0])) tidrow.set(TL.R[i][0], i);
		}
		var r = tidrow.get(tid);
		return r === undefined ? -1 : r;
	}
	/* whether tid is in the selection: a set, not a search of the list per row */
	function inth(tid) {
		if (thset.th !== sel.th) thset = { th: sel.th, s: new Set(sel.th || []) };
		return sel.th === null || thset.s.has(tid);
	}
	/* the rows on show: thread indexes, and -1 for the rest folded */
	function shown() {
		var v = [], i;
		for (i = page * per; i < TL.R.length && v.length < per; i++) v.push(i);
		if (TL.R.length > TL.rows) v.push(-1);
		return v;
	}
	function others(v) {
		var o = [];
		for (var i = 0; i < TL.R.length; i++) if (v.indexOf(i) < 0) o.push(i);
		return o;
	}
	/* Draws the rows: per bin a bar, on-CPU warm below, off-CPU blue above. */
	function drawrows() {
		load();
		rowsG.textContent = "";
		var v = shown(), max = 0, r, i, c, k, y, on, off, h;
		var agg = [];
		for (r = 0; r < v.length; r++) {
			var ids = v[r] >= 0 ? [v[r]] : others(v), a = new Float64Array(2 * TL.nb);
			for (k = 0; k < ids.length; k++) {
				c = rows[ids[k]];
				for (i = 0; i < c.b.length; i++) { a[2 * c.b[i]] += c.w[i] - c.off[i]; a[2 * c.b[i] + 1] += c.off[i]; }
			}
			agg.push({ ids: ids, a: a, max: 0 });
			for (i = 0; i < TL.nb; i++)
				if (a[2 * i] + a[2 * i + 1] > agg[r].max) agg[r].max = a[2 * i] + a[2 * i + 1];
			if (v[r] >= 0 && agg[r].max > max) max = agg[r].max;
		}
		/* time: a thread's bin is full at the bin's width */
		if (TL.tn) max = TL.bw / TL.q;
		for (r = 0; r < v.length; r++) {
			y = TL.y + 4 + r * RH;
			var keep = sel.th === null || agg[r].ids.some(function (j) { return inth(TL.R[j][0]); });
			var lt = el("text", { x: C.xpad, y: y + RH - 3, "class": "tlname" + (keep ? "" : " tloff") }, rowsG);
			lt.textContent = v[r] >= 0 ? label(v[r]) : "+" + agg[r].ids.length + " other threads";
			lt.fgrow = v[r];
			el("rect", { x: X0, y: y, width: X1 - X0, height: RH - 1, fill: "rgb(250,250,250)", "class": "tlbg" }, rowsG).fgrow = v[r];
			var pon = "", poff = "";
			for (i = 0; i < TL.nb; i++) {
				on = agg[r].a[2 * i];
				off = agg[r].a[2 * i + 1];
				if (on + off <= 0) continue;
				var x = (X0 + i * bpx).toFixed(2), w = Math.max(bpx, 0.5).toFixed(2);
				var m = v[r] >= 0 ? max : agg[r].max;
				h = (RH - 2) * Math.min(1, on / m);
				if (on > 0) pon += "M" + x + " " + (y + RH - 1 - h).toFixed(2) + "h" + w + "v" + h.toFixed(2) + "h-" + w + "z";
				var h2 = (RH - 2) * Math.min(1 - h / (RH - 2), off / m);
				if (off > 0) poff += "M" + x + " " + (y + RH - 1 - h - h2).toFixed(2) + "h" + w + "v" + h2.toFixed(2) + "h-" + w + "z";
			}
			if (pon) el("path", { d: pon, fill: "rgb(230,110,30)", "pointer-events": "none" }, rowsG);
			if (poff) el("path", { d: poff, fill: "rgb(70,110,220)", "pointer-events": "none" }, rowsG);
		}
		showsel();
	}
	function axis() {
		var y = TL.y + 4 + TL.rows * RH, span = secs(TL.nb), st = tllib.tick(span, 10), g = el("g", {}, G);
		el("line", { x1: X0, y1: y, x2: X1, y2: y, stroke: "rgb(120,120,120)", "stroke-width": 0.5 }, g);
		for (var t = 0; t <= span + 1e-9; t += st) {
			var x = X0 + (X1 - X0) * t / span;
			el("line", { x1: x, y1: y, x2: x, y2: y + 3, stroke: "rgb(120,120,120)", "stroke-width": 0.5 }, g);
			el("text", { x: x, y: y + C.fs, "text-anchor": "middle", "class": "tlaxis" }, g).textContent =
			    +t.toFixed(6) + (t === 0 ? " s" : "");
		}
		/* the note on a line of its own, under the tick labels */
		if (TL.note) el("text", { x: C.xpad, y: y + 2 * C.fs, "class": "tlaxis", id: "tlnote" }, g).textContent = TL.note;
	}
	function showsel() {
		var on = sel.b0 > 0 || sel.b1 < TL.nb;
		selRect.setAttribute("x", (X0 + sel.b0 * bpx).toFixed(2));
		selRect.setAttribute("width", on ? ((sel.b1 - sel.b0) * bpx).toFixed(2) : "0");
		resetBtn.classList.toggle("hide", !on && sel.th === null);
	}
	/* The thread names of the selection, for the title: the first few. */
	function whose() {
		if (sel.th === null) return "";
		var n = sel.th.slice(0, 5).map(function (tid) {
			var r = rowof(tid);
			return r >= 0 ? label(r) : String(tid);
		});
		if (sel.th.length > n.length) n.push("and " + (sel.th.length - n.length) + " more");
		return (sel.th.length === 1 ? "thread " : "threads ") + n.join(", ");
	}
	/* Draws the graph from the selection, or the file's graph for the whole run. */
	function apply(h) {
		load();
		showsel();
		if (sel.b0 === 0 && sel.b1 === TL.nb && sel.th === null) {
			fg.rebase(null, null, null, h);
			return;
		}
		var ids = [];
		for (var i = 0; i < TL.R.length; i++)
			if (inth(TL.R[i][0])) ids.push(rows[i]);
		var self = tllib.select(ids, T.n, sel.b0, sel.b1), tot = tllib.totals(T, self);
		var H = +document.documentElement.getAttribute("height"), pad2 = C.fs * 2 + 10;
		var top = C.fs * 3 + (document.getElementById("subtitle") ? C.fs * 2 : 0) + (C.tt || 0);
		var maxd = Math.floor((H - pad2 - top) / C.fh) - 1;
		var L = tllib.layout(T, self, tot, C.xpad, C.W - 2 * C.xpad, 0.1, maxd, TL.sw);
		var off = tllib.offcpu(T, self, tot, offid), q = TL.q, fr = [];
		/* a graph of on- and off-CPU time (--wall): each frame's share of each */
		var ow = null;
		if (offid >= 0 && tot[0] > 0) {
			ow = tllib.offweights(T, self, offid).ow;
			if (!(ow[0] > 0 && ow[0] < tot[0])) ow = null;
		}
		for (i = 0; i < L.length; i++) {
			var f = L[i], id = T.M[f.node], col = off[f.node] && TL.B ? TL.B : TL.C, Ls = f.L;
			if (Ls !== null) for (var j = 2; j < Ls.length; j += 3) Ls[j] *= q;
			fr.push({ name: TL.N[id], n: f.v * q, s: f.s * q, d: f.d, x: f.x, w: f.w,
			    y: C.inv ? top + f.d * C.fh : H - pad2 - (f.d + 1) * C.fh + 1,
			    fill: "#" + col.substr(6 * id, 6), L: Ls, o: ow ? ow[f.node] * q : undefined });
		}
		var what = [], share = grand > 0 ? 100 * tot[0] / grand : 0;
		if (sel.b0 > 0 || sel.b1 < TL.nb) what.push(fmt(secs(sel.b0)) + " to " + fmt(secs(sel.b1)));
		if (sel.th !== null) what.push(whose());
		var ttl = what.join(", ") + ": " + share.toFixed(1) + "% of all " + (TL.tn ? "time" : C.cn);
		if (!fr.length) ttl = what.join(", ") + ": no samples";
		fg.rebase(fr, TL.N, ttl, h);
	}
	function state() {
		var p = [];
		if (sel.b0 > 0 || sel.b1 < TL.nb) p.push("t=" + tllib.rangestr(sel.b0, sel.b1, TL.bw));
		if (sel.th !== null) p.push("th=" + sel.th.join(","));
		return p;
	}
	/* t= and th= of fragment h into sel; returns whether they changed it. */
	function fromhash(h) {
		var t = null, th = null;
		h.replace(/^#/, "").split("&").forEach(function (kv) {
			var i = kv.indexOf("=");
			if (i < 0) return;
			if (kv.slice(0, i) === "t") t = tllib.range(kv.slice(i + 1), TL.bw, TL.nb);
			else if (kv.slice(0, i) === "th") {
				/* the threads the graph has, each once: a set and a map,
				   however long the link */
				var seen = new Set();
				th = kv.slice(i + 1).split(",").map(Number).filter(function (x) {
					if (seen.has(x) || rowof(x) < 0) return false;
					seen.add(x);
					return true;
				});
			}
		});
		if (th !== null && !th.length) th = null;
		var n = { b0: t ? t[0] : 0, b1: t ? t[1] : TL.nb, th: th };
		var same = n.b0 === sel.b0 && n.b1 === sel.b1 && String(n.th) === String(sel.th);
		sel = n;
		return !same;
	}
	function reset() {
		sel = { b0: 0, b1: TL.nb, th: null };
		drawrows();
		apply();
	}
	function svgx(ev) {
		var m = document.documentElement.getScreenCTM(), p = document.documentElement.createSVGPoint();
		p.x = ev.clientX;
		p.y = ev.clientY;
		p = p.matrixTransform(m.inverse());
		return p;
	}
	function binat(x) { return Math.max(0, Math.min(TL.nb - 1, Math.floor((x - X0) / bpx))); }
	function hover(ev) {
		var p = svgx(ev), t = ev.target, r = t.fgrow;
		if (drag) {
			var b = binat(p.x), lo = Math.min(drag.b, b), hi = Math.max(drag.b, b) + 1;
			selRect.setAttribute("x", (X0 + lo * bpx).toFixed(2));
			selRect.setAttribute("width", ((hi - lo) * bpx).toFixed(2));
			return;
		}
		if (r === undefined || t.localName !== "rect") return;
		load();
		var bin = binat(p.x), ids = r >= 0 ? [r] : others(shown()), w = 0, off = 0, best = new Map(), k, c, i, j;
		for (k = 0; k < ids.length; k++) {
			c = rows[ids[k]];
			for (i = 0; i < c.b.length; i++) {
				if (c.b[i] !== bin) continue;
				w += c.w[i];
				off += c.off[i];
				for (j = c.e0[i]; j < c.e1[i]; j++) best.set(c.node[j], (best.get(c.node[j]) || 0) + c.nw[j]);
			}
		}
		var top = -1, bw = 0;
		best.forEach(function (v, n) { if (v > bw) { bw = v; top = n; } });
		var who = r >= 0 ? (TL.R[r][0] === null ? "" : "thread ") + label(r) : ids.length + " other threads";
		details.textContent = fmt(secs(bin)) + " to " + fmt(secs(bin + 1)) + ", " + who + ": " +
		    (w > 0 ? (TL.tn ? (100 * (w - off) / w).toFixed(0) + "% on-CPU, " : (w * TL.q) + " " + (w * TL.q === 1 ? C.cn1 : C.cn) + ", ") +
		    "top of stack " + TL.N[T.M[top]] : "no samples");
	}
	function down(ev) {
		var t = ev.target;
		if (ev.button !== 0 || t.fgrow === undefined || t.localName !== "rect") return;
		ev.preventDefault();
		drag = { b: binat(svgx(ev).x) };
	}
	function up(ev) {
		if (!drag) return;
		var b = binat(svgx(ev).x), lo = Math.min(drag.b, b), hi = Math.max(drag.b, b) + 1;
		drag = null;
		if (hi - lo <= 1) { showsel(); return; }	/* a click, no range */
		sel.b0 = lo;
		sel.b1 = hi;
		apply();
	}
	function onlabel(ev) {
		var t = ev.target, r = t.fgrow;
		if (t.localName !== "text" || r === undefined) return;
		if (r < 0) {
			/* the row of the rest: the next page of threads */
			page = (page + 1) * per < TL.R.length ? page + 1 : 0;
			drawrows();
			return;
		}
		var tid = TL.R[r][0];
		if (tid === null) return;	/* the threads past the budget: no one thread */
		if ((ev.ctrlKey || ev.metaKey) && sel.th !== null) {
			var i = sel.th.indexOf(tid);
			sel.th = i < 0 ? sel.th.concat([tid]) : sel.th.filter(function (x) { return x !== tid; });
			if (!sel.th.length) sel.th = null;
		} else sel.th = sel.th !== null && sel.th.length === 1 && sel.th[0] === tid ? null : [tid];
		drawrows();
		apply();
	}
	function init() {
		details = document.getElementById("details");
		var st = document.createElementNS(NS, "style");
		st.textContent = ".tlname { cursor:pointer; } .tlname:hover { fill:rgb(0,0,200); } " +
		    ".tloff { fill:rgb(170,170,170); } .tlaxis { font-size:" + (C.fs - 2) + "px; fill:rgb(90,90,90); } " +
		    ".tlbg { cursor:crosshair; } #tlreset { cursor:pointer; }";
		document.documentElement.appendChild(st);
		G = el("g", { id: "timeline" }, document.documentElement);
		rowsG = el("g", {}, G);
		selRect = el("rect", { x: X0, y: TL.y + 2, width: 0, height: TL.rows * RH + 2,
		    fill: "rgba(60,120,255,0.15)", stroke: "rgb(60,120,255)", "stroke-width": 0.5,
		    "pointer-events": "none" }, G);
		/* in the labels' column, clear of the axis's tick labels */
		resetBtn = el("text", { id: "tlreset", x: C.xpad, y: TL.y + 4 + TL.rows * RH + C.fs,
		    "class": "hide" }, G);
		resetBtn.textContent = "Whole run";
		resetBtn.addEventListener("click", reset);
		axis();
		drawrows();
		G.addEventListener("mousedown", down);
		G.addEventListener("click", onlabel);
		G.addEventListener("mouseout", function () { if (!drag) details.textContent = " "; });
		window.addEventListener("mousemove", hover);
		window.addEventListener("mouseup", up);
		/* capture: before svgscript's Esc, which closes a view or a search first */
		window.addEventListener("keydown", function (ev) {
			if (ev.key === "Escape" && !fg.view && fg.term === null &&
			    (sel.b0 > 0 || sel.b1 < TL.nb || sel.th !== null))
				reset();
		}, true);
		window.addEventListener("hashchange", function () {
			if (fromhash(location.hash)) { drawrows(); apply(location.hash); }
		});
		fg.extra = state;
		window.fgtimeline = { get sel() { return { b0: sel.b0, b1: sel.b1, th: sel.th }; },
		    X0: X0, X1: X1, bpx: bpx, reset: reset,
		    set: function (b0, b1, th) { sel = { b0: b0, b1: b1, th: th || null }; drawrows(); apply(); } };
		if (fromhash(hash0)) { drawrows(); apply(hash0); }
	}
	if (document.readyState === "loading")
		document.addEventListener("DOMContentLoaded", init);
	else
		init();
})();
