/*
 * The script embedded in every SVG that fgsvg writes (make turns this file
 * into a C array): hover details, click to zoom, Reset Zoom, regex search
 * with the "Matched" share (a nested match counted once), Ctrl-F/F3, Esc
 * and Ctrl-I, the function view (Ctrl+click or "f" on a frame: its callers
 * above it, its callees below it, merged over all its stacks), and the
 * state kept in the URL (#f=NAME&z=FRAME&s=REGEX&cs=1; a pattern from a
 * link is at most 256 characters), and a deep graph opened at its roots
 * with its controls kept in the window (mkpins and reveal). A search cannot freeze the page,
 * whoever wrote its pattern: one that could backtrack for long is matched
 * as text, each name is tested once, names too long for the pattern are
 * left out, and the search stops after 50 ms (fglib.vet and find). It
 * reads the frames from the document: they come in preorder, each a <g>
 * (or <a>) holding <title> and <rect>, in the nested <svg id="fv">; fgcfg,
 * written before it, gives the geometry.
 *
 * fglib holds the functions that need no document; under node (no
 * document, a module object) the file exports them, for the unit test.
 *
 * It must never contain the three characters that end a CDATA section
 * (make refuses it).
 */
"use strict";
var fglib = (function () {
	/*
	 * The label of a name for a width w, with font size fs and width
	 * per character fw (of the font size): as much of the name as fits,
	 * ".." where it is cut; "" below three characters.
	 */
	function label(name, w, fs, fw) {
		var chars = Math.floor(w / (fs * fw));
		if (chars < 3) return "";
		if (name.length <= chars) return name;
		return name.substring(0, chars - 2) + "..";
	}
	/*
	 * A frame's data-l, "[U^]NAME[*SELF] ...", as a flat array of
	 * (depth, name, self): the frames merged into a grey one, or too
	 * narrow to be drawn under another; null for "-", the frames that
	 * passed the size budget and were left out.
	 */
	function parsel(a) {
		if (a === null || a === "-") return null;
		/* by char codes: split and slice took most of a first search */
		var L = [], d = -1, n = a.length, i = 0, c = 0, v, s, self;
		while (i < n) {
			d++;
			v = 0;
			while (i < n && (c = a.charCodeAt(i)) >= 48 && c <= 57) { v = v * 10 + c - 48; i++; }
			if (i < n && c === 94) {
				d -= v; i++; v = 0;
				while (i < n && (c = a.charCodeAt(i)) >= 48 && c <= 57) { v = v * 10 + c - 48; i++; }
			}
			if (d < 0) d = 0;
			self = 0;
			if (i < n && a.charCodeAt(i) === 42) {
				s = ++i;
				while (i < n && a.charCodeAt(i) !== 32) i++;
				self = +a.substring(s, i);
			}
			L.push(d, v, self);
			i++;
		}
		return L;
	}
	/*
	 * A regular expression runs by backtracking, and a pattern from a
	 * link is someone else's: vet(s) (s compiles) weighs the work of one
	 * test against a name of length L before it runs. It refuses, with
	 * why, a back-reference and a group repeated a varying number of
	 * times with a choice inside ((a*)*, (a|a)*: exponential); else
	 * work(L) bounds the ways a match can be tried: a choice of the
	 * quantifiers' lengths (L+1 for * and +, 2 for ?) times the
	 * alternatives, per start, so that .?.?.?... and (.|.)(.|.)... are
	 * 2^n and .*.*.* is about L^4/24. lfit is the longest name whose
	 * work stays within WORK; a pattern whose lfit is under 64 is
	 * refused.
	 */
	var WORK = 2e6, LFIT_MIN = 64, LFIT_MAX = 1 << 20;
	function vet(s) {
		var i = 0, n = s.length;
		function refuse(why) { throw { why: why }; }
		/* a node: {alts: [[{g (a group's node) or null, lo, hi, caret}]]} */
		function alt() {
			var alts = [seq()];
			while (i < n && s[i] === "|") { i++; alts.push(seq()); }
			return { alts: alts };
		}
		function seq() {
			var items = [], c, g, m, lo, hi, caret;
			while (i < n && (c = s[i]) !== "|" && c !== ")") {
				g = null;
				caret = c === "^";
				if (c === "(") {
					i++;
					m = /^\?(?::|=|!|<=|<!|<[^>]*>)?/.exec(s.slice(i, i + 40));
					if (m) i += m[0].length;
					g = alt();
					i++;			/* ")" */
				} else if (c === "[") {
					/* to the first "]" not escaped: [] is an empty class */
					for (i++; i < n && s[i] !== "]"; i++)
						if (s[i] === "\\") i++;
					i++;
				} else if (c === "\\") {
					if (/[1-9k]/.test(s[i + 1] || "")) refuse("a back-reference");
					i += 2;
				} else i++;
				lo = hi = 1;
				if (i < n && (c = s[i]) === "*") { lo = 0; hi = Infinity; i++; }
				else if (c === "+") { hi = Infinity; i++; }
				else if (c === "?") { lo = 0; i++; }
				else if (c === "{" && (m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(i)))) {
					lo = +m[1];
					hi = m[2] === undefined ? lo : m[3] === "" ? Infinity : +m[3];
					i += m[0].length;
				}
				if (hi !== lo && i < n && s[i] === "?") i++;
				if (g && hi !== lo && choice(g)) refuse("a repeated group with a choice inside");
				items.push({ g: g, lo: lo, hi: hi, caret: caret });
			}
			return items;
		}
		function choice(g) {
			return g.alts.length > 1 || g.alts[0].some(function (t) {
				return t.hi !== t.lo || (t.g !== null && choice(t.g));
			});
		}
		function work(g, L) {
			var sum = 0;
			for (var a = 0; a < g.alts.length; a++) {
				var p = 1, items = g.alts[a];
				for (var k = 0; k < items.length; k++) {
					var t = items[k], b = t.g ? work(t.g, L) : 1;
					if (t.hi === t.lo) p *= Math.pow(b, t.lo);
					else p *= b * Math.max(Math.min(t.hi, L) - t.lo + 1, 1);
				}
				sum += p;
			}
			return sum;
		}
		try {
			var root = alt();
		} catch (e) {
			if (e && e.why) return { why: e.why, lfit: LFIT_MAX };
			throw e;
		}
		/*
		 * At the top, the start and the ends of the u items repeated
		 * without bound are positions in order in 0..L: at most
		 * C(L+u+1, u+1) of them (C(L+u, u) after a ^), times the
		 * choices of the other items.
		 */
		function total(L) {
			var sum = 0;
			for (var a = 0; a < root.alts.length; a++) {
				var items = root.alts[a], u = 0, b = 1, k;
				for (k = 0; k < items.length; k++) {
					var t = items[k];
					if (t.hi === Infinity && (t.g === null || !choice(t.g))) u++;
					else b *= work({ alts: [[t]] }, L);
				}
				var start = items.length > 0 && items[0].caret ? 0 : 1;
				for (k = 1; k <= u + start; k++) b *= (L + k) / k;
				sum += b;
			}
			return sum;
		}
		if (!(total(LFIT_MIN) <= WORK))
			return { why: "too many repeats and choices", lfit: LFIT_MAX };
		var lo = LFIT_MIN, hi = LFIT_MAX;
		while (lo < hi) {
			var mid = Math.ceil((lo + hi) / 2);
			if (total(mid) <= WORK) lo = mid; else hi = mid - 1;
		}
		return { why: null, lfit: lo };
	}
	/* s as a pattern that matches itself as text */
	function quote(s) { return s.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&"); }
	/* s, or s quoted when vet refuses it */
	function tame(s) {
		try { new RegExp(s); } catch (e) { return quote(s); }
		return vet(s).why === null ? s : quote(s);
	}
	/* s less a leading and a trailing .* (test() is the same without them) */
	function strip(s) {
		var t = s.replace(/^(?:\.\*\??)+/, "");
		var m = /(\\*)\.\*\??$/.exec(t);
		if (m && m[1].length % 2 === 0) t = t.slice(0, m.index + m[1].length);
		return t;
	}
	/*
	 * The search of pattern s (ic: ignoring case) over the frames, as
	 * count takes them: each distinct name is tested once, the names
	 * longer than vet's lfit are not (skipped counts them: the sum is a
	 * lower bound), and the search stops when the tests have taken
	 * budget ms (by now(), in ms; the walk over the frames, as long for
	 * any pattern, is not counted). Returns count's answer with
	 * why (the pattern was refused: searched as text), skipped and lfit;
	 * or {bad: true} for a pattern that does not compile; or {stopped:
	 * ms} when it ran out of time.
	 */
	var STOP = {};
	function find(s, ic, F, N, scale, getL, stop, now, budget) {
		var src = strip(s), fl = ic ? "i" : "", re, v, r;
		try { re = new RegExp(src, fl); } catch (e) { return { bad: true }; }
		v = vet(src);
		if (v.why !== null) re = new RegExp(quote(s), fl);
		var memo = new Map(), skipped = 0, spent = 0;
		var m = { test: function (x) {
			var h = memo.get(x), t;
			if (h !== undefined) return h;
			if (x.length > v.lfit) { skipped++; h = false; }
			else {
				t = now();
				h = re.test(x);
				if ((spent += now() - t) > budget) throw STOP;
			}
			memo.set(x, h);
			return h;
		} };
		try {
			r = count(F, m, N, scale, getL, stop);
		} catch (e) {
			if (e !== STOP) throw e;
			return { stopped: Math.round(spent) };
		}
		r.why = v.why;
		r.skipped = skipped;
		r.lfit = v.lfit;
		return r;
	}
	/*
	 * The search's count over frames F in preorder, each {name, n, d, m
	 * (grey), l (hides narrow children)}: the time of the frames whose
	 * name re matches, a nested match counted once, plus the own time
	 * of the frames hidden in grey ones and under l ones that lie on a
	 * matching path (getL(g) gives g's parsel array, names N its names,
	 * times scale; or, for the function view's frames, {t, hid}: the
	 * frame's narrow children, hid, whose call tree t nodes' subtrees
	 * are walked in place, as if in parsel's form with t's name ids). Only frames before stop add to the sum. Returns
	 * {sum, part (some data-l left out), hit (per frame, 1 to colour)}.
	 */
	function count(F, re, N, scale, getL, stop) {
		var sum = 0, cover = -1, part = false;
		var nm = new Int8Array(N.length), st = [], hit = new Uint8Array(F.length);
		/* a merged subtree: the own time of its frames on a matching path */
		function merged(g) {
			var L = getL(g), t = 0;
			if (L === null) { part = true; return 0; }
			if (!Array.isArray(L)) return under(L.t, L.hid);
			for (var k = 0; k + 2 < L.length; k += 3) {
				var d = L[k], x = L[k + 1];
				if (nm[x] === 0) nm[x] = re.test(N[x]) ? 1 : 2;
				var h = nm[x] === 1 || (d > 0 && st[d - 1]);
				st[d] = h;
				if (h) t += L[k + 2];
			}
			return t;
		}
		/* the same over call tree t's subtrees of the merged nodes hid,
		   walked in place (a copy of them can be millions long) */
		function under(t, hid) {
			var D = t.D, ID = t.ID, S = t.S, E = t.E, s = 0;
			var a, i, j, m, e, b, d, x, h;
			for (a = 0; a < hid.length; a++)
				for (m = hid[a].mem, i = 0; i < m.length; i++)
					for (j = m[i], e = E[j], b = D[j]; j < e; j++) {
						d = D[j] - b;
						x = ID[j];
						if (nm[x] === 0) nm[x] = re.test(N[x]) ? 1 : 2;
						h = nm[x] === 1 || (d > 0 && st[d - 1]);
						st[d] = h;
						if (h) s += S[j];
					}
			return s;
		}
		for (var j = 0; j < F.length; j++) {
			var g = F[j], t = 0, on = j < stop;
			if (cover >= 0 && g.d <= cover) cover = -1;
			var h = !g.m && re.test(g.name);
			/* a grey frame, or the narrow children a frame hides */
			if ((g.m || g.l) && !h && cover < 0 && scale > 0) {
				t = merged(g) * scale;
				if (g.m) h = t > 0;
				if (on) sum += t;
			}
			hit[j] = h ? 1 : 0;
			if (h && !g.m && cover < 0 && on) { sum += g.n; cover = g.d; }
		}
		return { sum: sum, part: part, hit: hit };
	}
	/*
	 * The whole call tree, from the frames drawn (F as for count) and
	 * the frames they hide: per node in preorder its depth D, name id
	 * ID (into names, ids the reverse), total I and own time S, all in
	 * F's unit, its parent P (-1 for a root), E, the end of its
	 * subtree, and O, the part of I spent off the CPU. part: some frames
	 * were left out of the search data, and their time is their
	 * parent's own. wall: the graph holds on- and off-CPU time (--wall).
	 */
	function tree(F, N, scale, getL) {
		var names = [], ids = new Map(), nmap = new Int32Array(N.length).fill(-1);
		var part = false, n = 0, j, k, g, L;
		function nid(s) {
			var v = ids.get(s);
			if (v === undefined) { v = names.length; names.push(s); ids.set(s, v); }
			return v;
		}
		for (j = 0; j < F.length; j++) {
			g = F[j];
			L = (g.m || g.l) ? getL(g) : null;
			n += (!g.m || L === null ? 1 : 0) + (L === null ? 0 : L.length / 3);
		}
		var D = new Int32Array(n), ID = new Int32Array(n), V = new Float64Array(n);
		var vis = new Uint8Array(n), i = 0;
		for (j = 0; j < F.length; j++) {
			g = F[j];
			L = (g.m || g.l) ? getL(g) : null;
			if (L === null && (g.m || g.l)) part = true;
			if (!g.m || L === null) { D[i] = g.d; ID[i] = nid(g.name); V[i] = g.n; vis[i++] = 1; }
			if (L === null) continue;
			var base = g.m ? g.d : g.d + 1;
			for (k = 0; k + 2 < L.length; k += 3) {
				var x = L[k + 1];
				if (nmap[x] < 0) nmap[x] = nid(N[x]);
				D[i] = base + L[k]; ID[i] = nmap[x]; V[i++] = L[k + 2] * scale;
			}
		}
		var I = new Float64Array(n), S = new Float64Array(n), acc = [0];
		var P = new Int32Array(n), E = new Int32Array(n), st = [];
		for (j = n - 1; j >= 0; j--) {
			var d = D[j], c = acc[d + 1] || 0;
			acc[d + 1] = 0;
			I[j] = vis[j] ? V[j] : V[j] + c;
			S[j] = vis[j] ? Math.max(V[j] - c, 0) : V[j];
			acc[d] = (acc[d] || 0) + I[j];
		}
		for (j = 0; j < n; j++) {
			while (st.length && D[st[st.length - 1]] >= D[j]) E[st.pop()] = j;
			P[j] = st.length ? st[st.length - 1] : -1;
			st.push(j);
		}
		while (st.length) E[st.pop()] = n;
		/* off-CPU time: an [off-cpu] node's and what lies above it, summed
		   down to the root (under --reverse it is near the root) */
		var O = new Float64Array(n), u = new Uint8Array(n), off = -1, on = 0, tot = 0;
		for (j = 0; j < names.length; j++) if (names[j] === "[off-cpu]") off = j;
		for (j = 0; off >= 0 && j < n; j++)
			u[j] = ID[j] === off || (P[j] >= 0 && u[P[j]]) ? 1 : 0;
		for (j = n - 1; off >= 0 && j >= 0; j--) {
			if (u[j]) O[j] = I[j];
			if (P[j] >= 0) O[P[j]] += O[j];
			else { on += O[j]; tot += I[j]; }
		}
		return { D: D, ID: ID, I: I, S: S, P: P, E: E, O: O, names: names, ids: ids,
		    part: part, wall: on > 0 && on < tot * (1 - 1e-9) };
	}
	/*
	 * A node of a merged tree: name id, time v and its off-CPU part o,
	 * the nodes of the call tree merged into it (mem; for the callers,
	 * the caller reached and the time it carries, w, and its off-CPU
	 * part, wo) and, once expanded, its children k by name; null when
	 * not expanded or a leaf.
	 */
	function node(id) { return { id: id, v: 0, o: 0, mem: [], w: null, wo: null, k: null }; }
	/* Expands nd one level: callees (the children of its nodes) or, up,
	   callers (the parents of its nodes, up to depth 1). */
	function expand(t, nd, up) {
		var by = new Map(), m = nd.mem, i, c, a, e, x;
		for (i = 0; i < m.length; i++) {
			if (up) {
				if ((a = t.P[m[i]]) < 0 || t.D[a] < 1) continue;
				if ((x = by.get(t.ID[a])) === undefined) {
					by.set(t.ID[a], x = node(t.ID[a]));
					x.w = [];
					x.wo = [];
				}
				x.mem.push(a);
				x.w.push(nd.w[i]);
				x.wo.push(nd.wo[i]);
				x.v += nd.w[i];
				x.o += nd.wo[i];
				continue;
			}
			for (c = m[i] + 1, e = t.E[m[i]]; c < e; c = t.E[c]) {
				if ((x = by.get(t.ID[c])) === undefined)
					by.set(t.ID[c], x = node(t.ID[c]));
				x.mem.push(c);
				x.v += t.I[c];
				x.o += t.O[c];
			}
		}
		var names = t.names;
		nd.k = Array.from(by.values()).sort(function (p, q) {
			p = names[p.id]; q = names[q.id];
			return p < q ? -1 : p > q ? 1 : 0;
		});
	}
	function grow(t, nd, up, minv) {
		expand(t, nd, up);
		for (var i = 0; i < nd.k.length; i++)
			if (nd.k[i].v >= minv) grow(t, nd.k[i], up, minv);
	}
	/*
	 * The function view of name id over tree t: total, the time of the
	 * stacks that hold it (a stack holding it twice counted once), self,
	 * the time of those where it is the leaf, and two merged trees rooted
	 * at it: down, the drawing's subtrees of it merged, and up, the
	 * drawing's ancestors (depth 0, "all", left out). Without rev they
	 * are its callees and its callers; rev: the stacks were drawn
	 * reversed (leaf first), and they are its callers and callees. Only
	 * the nodes of at least minfrac of its total are expanded (0: all).
	 */
	function merge(t, id, rev, minfrac) {
		var D = t.D, ID = t.ID, I = t.I, S = t.S, n = D.length;
		var down = node(id), up = node(id), at = -1, total = 0, off = 0, self = 0, i, d;
		up.w = [];
		up.wo = [];
		for (i = 0; i < n; i++) {
			d = D[i];
			if (at >= 0 && d <= at) at = -1;
			if (ID[i] !== id) continue;
			if (!rev) self += S[i];
			else if (d === 1) self += I[i];
			if (at >= 0) continue;
			at = d;
			total += I[i];
			off += t.O[i];
			down.mem.push(i);
			up.mem.push(i);
			up.w.push(I[i]);
			up.wo.push(t.O[i]);
		}
		down.v = up.v = total;
		down.o = up.o = off;
		var minv = minfrac * total;
		grow(t, down, false, minv);
		grow(t, up, true, minv);
		return { total: total, self: self, part: t.part, down: down, up: up,
		    callees: rev ? up : down, callers: rev ? down : up };
	}
	/*
	 * Lays a merged tree out as frames, for a width of w units per the
	 * root's time, from x: each {id, v, o, d (0 the root), x, w, hid}, in
	 * preorder, children by name. A child narrower than minw is not
	 * drawn; it goes into its parent's hid.
	 */
	function layout(root, x, w, minw) {
		var out = [], k = root.v > 0 ? w / root.v : 0;
		function walk(nd, d, x0) {
			var f = { id: nd.id, v: nd.v, o: nd.o, d: d, x: x0, w: nd.v * k, hid: null };
			out.push(f);
			if (nd.k === null) return;
			for (var i = 0, cx = x0; i < nd.k.length; i++) {
				var c = nd.k[i];
				if (c.v * k >= minw && c.k !== null) walk(c, d + 1, cx);
				else if (c.v * k >= minw) out.push({ id: c.id, v: c.v, o: c.o, d: d + 1, x: cx, w: c.v * k, hid: null });
				else (f.hid || (f.hid = [])).push(c);
				cx += c.v * k;
			}
		}
		walk(root, 0, x);
		return out;
	}
	/* The deepest level of the frames laid out (0: the root alone). */
	function depth(out) {
		var m = 0;
		for (var i = 0; i < out.length; i++) if (out[i].d > m) m = out[i].d;
		return m;
	}
	return { label: label, parsel: parsel, vet: vet, tame: tame, find: find,
	    count: count, tree: tree, merge: merge, layout: layout, depth: depth };
})();
if (typeof module === "object" && module && module.exports)
	module.exports = fglib;
else (function () {
	var C = fgcfg, NS = "http://www.w3.org/2000/svg";
	var F = [], zoomed = -1, term = null, ignorecase = true;
	var framesEl, details, unzoomBtn, searchBtn, icBtn, matchedTxt;
	var fv, fvbox, fvh, labels, zlabels;
	/* the full graph's, kept while the function view shows */
	var main = null, view = null, calltree = null, hover = null;

	function addlabel(to, f, x, w) {
		var s = fglib.label(f.name, w, C.fs, C.fw);
		if (s === "") return;
		var t = document.createElementNS(NS, "text");
		t.setAttribute("x", (x + 3).toFixed(2));
		t.setAttribute("y", String(f.y + (C.fh - 1) / 2 + 3));
		t.textContent = s;
		to.appendChild(t);
	}
	/*
	 * Zoom moves no frame: the frames sit in a nested <svg> (#fv) whose
	 * viewBox is narrowed to the zoomed frame, which the browser scales
	 * at once however many frames there are; what lies outside is
	 * clipped. Only the labels are redrawn, in #zlabels, for the frames
	 * wide enough to carry one, while the labels written with the file
	 * (#labels) are hidden. Ancestors are dimmed with class "parent".
	 */
	var parents = [];
	function zoom(i) {
		var f = F[i], end = i + 1, j, g, md, w;
		if (!f || !(f.w > 0)) return;
		while (end < F.length && F[end].d > f.d) end++;
		for (j = 0; j < parents.length; j++) parents[j].e.classList.remove("parent");
		parents = [];
		for (j = i - 1, md = f.d; j >= 0 && md > 0; j--)
			if (F[j].d < md) {
				md = F[j].d;
				F[j].e.classList.add("parent");
				parents.push(F[j]);
			}
		var k = (C.W - 2 * C.xpad) / f.w, min = 3 * C.fs * C.fw;
		var frag = document.createDocumentFragment();
		for (j = 0; j < parents.length; j++)
			addlabel(frag, parents[j], C.xpad, C.W - 2 * C.xpad);
		for (j = i; j < end; j++) {
			g = F[j];
			if ((w = g.w * k) >= min) addlabel(frag, g, C.xpad + (g.x - f.x) * k, w);
		}
		fv.setAttribute("viewBox", f.x0 + " 0 " + f.w0 + " " + fvh);
		zlabels.textContent = "";
		zlabels.appendChild(frag);
		labels.style.display = "none";
		zoomed = i;
		unzoomBtn.classList.remove("hide");
		reveal(f);
		save();
	}
	function unzoom() {
		for (var j = 0; j < parents.length; j++) parents[j].e.classList.remove("parent");
		parents = [];
		fv.setAttribute("viewBox", fvbox);
		zlabels.textContent = "";
		labels.style.display = "";
		zoomed = -1;
		if (!view) unzoomBtn.classList.add("hide");
		save();
	}
	/*
	 * The function view: the frames of the whole graph (A) are hidden,
	 * and a nested <svg> of the same geometry shows the function's
	 * merged callers above it and callees below it, as frames that zoom
	 * and search use as they use A's (F is the frames on show). The
	 * call tree under A, search data included, is read once.
	 */
	var A = [], home = null;
	/* An amount as the tooltips write it: a count and C.cn, a time (tn 1)
	   or bytes (tn 2). */
	function amount(n) {
		if (C.tn === 2) {
			var b = [[1073741824, " GiB"], [1048576, " MiB"], [1024, " KiB"]], k = 0;
			while (k < 3 && Math.abs(n) < b[k][0]) k++;
			return k < 3 ? (n / b[k][0]).toFixed(2) + b[k][1] : Math.round(n) + " B";
		}
		if (C.tn) {
			var u = [[1e9, " s"], [1e6, " ms"], [1e3, " us"]], i = 0;
			while (i < 3 && Math.abs(n) < u[i][0]) i++;
			return i < 3 ? (n / u[i][0]).toFixed(2) + u[i][1] : Math.round(n) + " ns";
		}
		var s = Math.abs(n - Math.round(n)) < 1e-6 ? String(Math.round(n)) : n.toFixed(2);
		/* C.cn1: the name for a count of 1 ("1 sample") */
		return s.replace(/^(\d+)/, function (d) { return d.replace(/\B(?=(\d{3})+$)/g, ","); }) +
		    " " + (s === "1" ? C.cn1 : C.cn);
	}
	function fillof(name) {
		if (calltree.fills === undefined) {
			calltree.fills = new Map();
			for (var j = 0; j < A.length; j++)
				if (!A[j].m && !calltree.fills.has(A[j].name))
					calltree.fills.set(A[j].name, A[j].fill);
		}
		return calltree.fills.get(name) || "rgb(200,200,200)";
	}
	function loadtree() {
		if (calltree === null)
			calltree = fglib.tree(A, names(), total() > 0 ? A[0].n / total() : 0, getL);
	}
	function pct(v) { return (100 * v / A[0].n).toFixed(1); }
	function openview(name) {
		if (!A.length || !(A[0].n > 0)) return;
		if (view) closeview(true);
		if (zoomed >= 0) unzoom();
		loadtree();
		var id = calltree.ids.get(name);
		if (id === undefined || name === A[0].name) {
			matchedTxt.textContent = "No function " + name + " in this graph";
			matchedTxt.classList.remove("hide");
			return;
		}
		var w = C.W - 2 * C.xpad, minw = 0.5, rev = !!C.rev;
		var r = fglib.merge(calltree, id, rev, minw / w), names = calltree.names;
		var down = fglib.layout(r.down, C.xpad, w, minw);
		var up = fglib.layout(r.up, C.xpad, w, minw);
		var hc = fglib.depth(rev ? down : up), hd = fglib.depth(rev ? up : down);
		var root = document.documentElement, bg = document.querySelector("rect[fill='url(#background)']");
		var top = C.fs * 3 + (document.getElementById("subtitle") ? C.fs * 2 : 0) + (C.tt || 0);
		var pad2 = C.fs * 2 + 10, H = +home.fvh;
		var need = top + (hc + 1 + hd) * C.fh + pad2;
		var vb = root.getAttribute("viewBox");
		view = { name: name, part: r.part, stop: down.length, grown: need > H,
		    sx: window.scrollX, sy: window.scrollY,
		    vb: vb, title: document.getElementById("title").textContent };
		if (need > H) {
			H = need;
			root.setAttribute("height", String(H));
			if (vb) root.setAttribute("viewBox", vb.split(" ").slice(0, 3).join(" ") + " " + H);
			if (bg) bg.setAttribute("height", String(H));
			details.setAttribute("y", String(H - pad2 / 2));
			matchedTxt.setAttribute("y", String(H - pad2 / 2));
		}
		var sv = nested(w, H), g = document.createElementNS(NS, "g");
		var lb = document.createElementNS(NS, "g"), V = [], j, f, e, rc, row;
		sv.id = "fnv";
		g.id = "fnframes";
		lb.id = "fnlabels";
		for (j = 0; j < down.length + up.length - 1; j++) {
			f = j < down.length ? down[j] : up[j - down.length + 1];
			/* callers above, callees below */
			row = (j < down.length) !== rev ? hc + f.d : hc - f.d;
			/* its tooltip (<title>) is made when it is first hovered */
			e = document.createElementNS(NS, "g");
			rc = document.createElementNS(NS, "rect");
			var o = {
				e: e, r: rc, hit: false, m: false, name: names[f.id], n: f.v,
				x: f.x, w: f.w, x0: f.x.toFixed(2), w0: f.w.toFixed(2),
				y: top + row * C.fh, d: f.d, l: j < down.length && f.hid !== null,
				hid: j < down.length ? f.hid : null, tip: false
			};
			o.fill = fillof(o.name);
			/* in a graph of on- and off-CPU time (--wall), both */
			o.info = o.name + " (" + amount(o.n) + ", " + pct(o.n) + "%" +
			    (calltree.wall ? "; on-CPU " + amount(Math.max(0, f.v - f.o)) +
			    ", off-CPU " + amount(f.o) : "") +
			    (j === 0 ? "; self " + pct(r.self) + "%" : "") + ")";

			putframe(g, lb, o, j);
			V.push(o);
		}
		mount(sv, g, lb, home, w, H);
		document.getElementById("title").textContent = "Function: " + name + ", " +
		    (r.part ? "\u2265 " : "") + pct(r.total) + "% of all (self " + pct(r.self) + "%)";
		view.sv = sv;
		view.lb = lb;
		F = V;
		framesEl = g;
		fv = sv;
		fvbox = sv.getAttribute("viewBox");
		fvh = String(H);
		labels = lb;
		unzoomBtn.classList.remove("hide");
		reveal(V[0]);
		if (term !== null) search(term); else save();
	}
	/* Frame o (its e and r made) as the j-th of group g, its label in lb. */
	function putframe(g, lb, o, j) {
		var rc = o.r;
		rc.setAttribute("x", o.x0);
		rc.setAttribute("y", String(o.y));
		rc.setAttribute("width", o.w0);
		rc.setAttribute("height", String(C.fh - 1));
		rc.setAttribute("fill", o.fill);
		o.e.appendChild(rc);
		o.e.fgi = j;
		g.appendChild(o.e);
		addlabel(lb, o, o.x, o.w);
	}
	/* The frames on show are A, in home's nested <svg>. */
	function athome() {
		F = A;
		framesEl = home.framesEl;
		fv = home.fv;
		fvbox = home.fvbox;
		fvh = home.fvh;
		labels = home.labels;
	}
	/* A nested <svg> for frames of the graph's geometry, w wide and H high. */
	function nested(w, H) {
		var sv = document.createElementNS(NS, "svg");
		sv.setAttribute("x", String(C.xpad));
		sv.setAttribute("y", "0");
		sv.setAttribute("width", String(w));
		sv.setAttribute("height", String(H));
		sv.setAttribute("viewBox", C.xpad + " 0 " + w + " " + H);
		sv.setAttribute("preserveAspectRatio", "none");
		return sv;
	}
	/* Shows frames g in sv and labels lb in place of those of h, hidden. */
	function mount(sv, g, lb, h, w, H) {
		var root = document.documentElement;
		sv.appendChild(g);
		root.insertBefore(sv, zlabels);
		root.insertBefore(lb, zlabels);
		g.addEventListener("click", onclick);
		g.addEventListener("mouseover", onover);
		g.addEventListener("mouseout", onout);
		h.fv.setAttribute("viewBox", (-4 * C.W) + " 0 " + w + " " + H);
		h.labels.setAttribute("transform", "translate(" + (-4 * C.W) + ",0)");
	}
	/* Back to the whole graph; quiet: a new view follows at once. */
	function closeview(quiet) {
		if (!view) return;
		if (zoomed >= 0) unzoom();
		var root = document.documentElement;
		root.removeChild(view.sv);
		root.removeChild(view.lb);
		if (view.grown) {
			var H = home.fvh, pad2 = C.fs * 2 + 10;
			var bg = document.querySelector("rect[fill='url(#background)']");
			root.setAttribute("height", H);
			if (view.vb) root.setAttribute("viewBox", view.vb);
			if (bg) bg.setAttribute("height", H);
			details.setAttribute("y", String(+H - pad2 / 2));
			matchedTxt.setAttribute("y", String(+H - pad2 / 2));
		}
		document.getElementById("title").textContent = view.title;
		home.fv.setAttribute("viewBox", home.fvbox);
		home.labels.removeAttribute("transform");
		athome();
		if (!quiet) window.scrollTo(view.sx, view.sy);
		view = null;
		pin();
		unzoomBtn.classList.add("hide");
		if (quiet) return;
		if (term !== null) search(term); else save();
	}
	/*
	 * The timeline's hook (timeline.js): frames fr, each {name, n, s (own
	 * time), d, x, w, y, fill, L (the search data of what it hides, in
	 * parsel's form, ids into N) or null, o (its off-CPU time, in a graph
	 * of on- and off-CPU time) or undefined}, in preorder, drawn in place of
	 * the graph the file holds, titled ttl; fr null: that graph again.
	 * Zoom, search, the function view and the link then work on them;
	 * with h (a link's fragment) their state comes from it.
	 */
	var own = null, base = null, extra = null;
	function rebase(fr, N, ttl, h) {
		var vn = view ? view.name : null, root = document.documentElement;
		var j, f, e, rc, o, V = [], t = term, title = document.getElementById("title");
		if (view) closeview(true);
		if (zoomed >= 0) unzoom();
		for (j = 0; j < A.length; j++)
			if (A[j].hit) { A[j].r.setAttribute("fill", A[j].fill); A[j].hit = false; }
		if (own === null) own = { A: A, home: home, title: title.textContent };
		if (base !== null) { root.removeChild(base.sv); root.removeChild(base.lb); }
		base = null;
		if (fr === null) {
			A = own.A;
			home = own.home;
			home.fv.setAttribute("viewBox", home.fvbox);
			home.labels.removeAttribute("transform");
			title.textContent = own.title;
		} else {
			var w = C.W - 2 * C.xpad, H = own.home.fvh;
			var sv = nested(w, H), g = document.createElementNS(NS, "g");
			var lb = document.createElementNS(NS, "g");
			g.id = "tlframes";
			for (j = 0; j < fr.length; j++) {
				f = fr[j];
				e = document.createElementNS(NS, "g");
				rc = document.createElementNS(NS, "rect");
				o = { e: e, r: rc, hit: false, m: false, name: f.name, n: f.n,
				    x: f.x, w: f.w, x0: f.x.toFixed(2), w0: f.w.toFixed(2), y: f.y,
				    d: f.d, l: f.L !== null, L: f.L, hid: null, tip: false,
				    fill: f.fill };
				/* f.o: its off-CPU part, in a graph of both (--wall) */
				o.info = f.name + " (" + amount(f.n) + ", " +
				    (100 * f.n / fr[0].n).toFixed(2) + "%" + (f.o !== undefined ?
				    "; on-CPU " + amount(Math.max(0, f.n - f.o)) + ", off-CPU " + amount(f.o) : "") +
				    (j > 0 ? "; self " + amount(f.s) + ", " + (100 * f.s / fr[0].n).toFixed(2) + "%" : "") + ")";
				putframe(g, lb, o, j);
				V.push(o);
			}
			mount(sv, g, lb, own.home, w, H);
			base = { sv: sv, lb: lb, N: N, T: fr.length ? fr[0].n : 0 };
			A = V;
			home = { fv: sv, fvbox: sv.getAttribute("viewBox"), fvh: H, labels: lb, framesEl: g };
			title.textContent = ttl;
		}
		athome();
		calltree = null;
		if (h !== undefined) {
			term = null;
			try { history.replaceState(null, "", h || location.pathname + location.search); } catch (x) { /* as it is */ }
			load();
			if (term === null && t !== null) { term = t; clearsearch(); }
			return;
		}
		if (vn !== null) openview(vn); else if (term !== null) search(term); else save();
	}
	/* The names and total the search data of the frames on show refer to. */
	function names() { return base ? base.N : C.N || []; }
	function total() { return base ? base.T : C.T; }
	var REMAX = 256;
	function getL(g) {
		if (g.L === undefined)
			g.L = g.hid ? { t: calltree, hid: g.hid } :
			    fglib.parsel(g.e.getAttribute("data-l"));
		return g.L;
	}
	/* how long a search may run, in ms, before it stops and says so */
	var BUDGET = 50;
	function clock() {
		return typeof performance === "object" ? performance.now() : Date.now();
	}
	function search(s, fromlink) {
		if (fromlink && s.length > REMAX) {
			matchedTxt.textContent = "Search in the link not run: over " +
			    REMAX + " characters";
			matchedTxt.classList.remove("hide");
			return;
		}
		/* in the function view: the share of its time, callee side */
		var r = view ? fglib.find(s, ignorecase, F, calltree.names, 1, getL,
		    view.stop, clock, BUDGET) :
		    fglib.find(s, ignorecase, F, names(), total() > 0 && F.length ?
		    F[0].n / total() : 0, getL, F.length, clock, BUDGET);
		if (r.bad) {
			matchedTxt.textContent = "Bad regular expression";
			return;
		}
		term = s;
		var j, g, hit;
		for (j = 0; j < F.length; j++) {
			g = F[j];
			hit = r.hit !== undefined && r.hit[j] === 1;
			if (hit !== g.hit) {
				g.r.setAttribute("fill", hit ? C.sc : g.fill);
				g.hit = hit;
			}
		}
		if (r.stopped !== undefined)
			matchedTxt.textContent = "Search stopped after " + r.stopped +
			    " ms: pattern too costly";
		else {
			var sum = r.sum, part = r.part || r.skipped > 0 ||
			    (view !== null && view.part);
			var pct = F.length && F[0].n > 0 ? 100 * sum / F[0].n : 0;
			if (pct > 100) pct = 100;
			matchedTxt.textContent = "Matched: " + (part ? "\u2265 " : "") +
			    (pct === 100 ? "100" : pct.toFixed(1)) + "%" +
			    (r.why !== null ? " (pattern refused, searched as text: " +
			    r.why + ")" : r.skipped > 0 ? " (" + r.skipped +
			    " names over " + r.lfit + " characters not searched: " +
			    "pattern too costly for them)" : "");
		}
		matchedTxt.classList.remove("hide");
		if (r.hit !== undefined) revealhit(r.hit);
		searchBtn.textContent = "Reset Search";
		searchBtn.classList.add("show");
		save();
	}
	function clearsearch() {
		for (var j = 0; j < F.length; j++) {
			var g = F[j];
			if (g.hit) { g.r.setAttribute("fill", g.fill); g.hit = false; }
		}
		term = null;
		matchedTxt.textContent = " ";
		searchBtn.textContent = "Search";
		searchBtn.classList.remove("show");
		save();
	}
	function ask() {
		var s = prompt("Search for a regular expression" +
		    (ignorecase ? ", ignoring case" : ", matching case") +
		    " (Ctrl-I toggles case, Esc clears)", term === null ? "" : term);
		if (s !== null && s !== "") search(s);
	}
	function togglecase() {
		ignorecase = !ignorecase;
		icBtn.classList.toggle("show", ignorecase);
		if (term !== null) search(term); else save();
	}
	function save() {
		var p = extra ? extra() : [];
		if (view) p.push("f=" + encodeURIComponent(view.name));
		if (zoomed >= 0) p.push("z=" + zoomed);
		if (term !== null) p.push("s=" + encodeURIComponent(term));
		if (!ignorecase) p.push("cs=1");
		var h = p.length ? "#" + p.join("&") : "";
		if (h === location.hash || (h === "" && location.hash === "#")) return;
		try {
			history.replaceState(null, "", h === "" ?
			    location.pathname + location.search : h);
		} catch (e) {
			location.hash = h;
		}
	}
	function load() {
		var h = location.hash.replace(/^#/, ""), z = -1, s = null, cs = false;
		var qx = null, qy = null, fn = null;
		/* flamegraph.pl's links: ?x=RECTX&y=RECTY&s=REGEX */
		(location.search.replace(/^\?/, "") + "&" + h).split("&").forEach(function (kv) {
			var i = kv.indexOf("="), k = i < 0 ? kv : kv.slice(0, i);
			var v = i < 0 ? "" : kv.slice(i + 1);
			try { v = decodeURIComponent(v); } catch (e) { return; }
			if (k === "x") qx = v;
			else if (k === "y") qy = v;
			else if (k === "z") z = parseInt(v, 10);
			else if (k === "s") s = v;
			else if (k === "f") fn = v;
			else if (k === "cs") cs = v !== "0";
		});
		if (z < 0 && qx !== null && qy !== null)
			for (var i = 0; i < F.length; i++)
				if (parseFloat(F[i].x0) === parseFloat(qx) &&
				    F[i].y === parseFloat(qy)) { z = i; break; }
		if (cs === ignorecase) {
			ignorecase = !cs;
			icBtn.classList.toggle("show", ignorecase);
		}
		if (fn !== null && fn !== "") { if (!view || view.name !== fn) openview(fn); }
		else if (view) closeview();
		if (z >= 0 && z < F.length) { if (z !== zoomed) zoom(z); }
		else if (zoomed >= 0) unzoom();
		if (s !== null && s !== "") { if (s !== term) search(s, true); }
		else if (term !== null) clearsearch();
	}
	function frameof(el) {
		while (el && el.parentNode !== framesEl) el = el.parentNode;
		return el && el.fgi !== undefined ? F[el.fgi] : null;
	}
	/* Click zooms; Ctrl+click opens the function view (and on a link,
	   which a plain click follows, does not follow it). */
	function onclick(ev) {
		var f = frameof(ev.target);
		if (!f) return;
		if (ev.ctrlKey || ev.metaKey) {
			ev.preventDefault();
			if (!f.m) openview(f.name);
			return;
		}
		if (f.e.localName === "a") return;
		zoom(f.e.fgi);
	}
	function onover(ev) {
		var f = frameof(ev.target), t;
		if (f) details.textContent = C.nt + " " + f.info;
		if (f && f.tip === false) {
			t = document.createElementNS(NS, "title");
			t.textContent = f.info;
			f.e.insertBefore(t, f.r);
			f.tip = true;
		}
		hover = f;
	}
	function onout() {
		details.textContent = " ";
		hover = null;
	}
	function init() {
		framesEl = document.getElementById("frames");
		details = document.getElementById("details");
		unzoomBtn = document.getElementById("unzoom");
		searchBtn = document.getElementById("search");
		icBtn = document.getElementById("ignorecase");
		matchedTxt = document.getElementById("matched");
		fv = document.getElementById("fv");
		fvbox = fv.getAttribute("viewBox");
		fvh = fv.getAttribute("height");
		labels = document.getElementById("labels");
		zlabels = document.getElementById("zlabels");
		/* "NAME (COUNT COUNTNAME, 5.6%)", or with a time "NAME (12.50 ms, 5.6%)"
		   or bytes "NAME (1.50 MiB, 5.6%)": times are read back in ns and
		   bytes in bytes, the unit of the counts (the root's
		   exactly: T, the total), so that shares add up whatever unit
		   each shows. */
		var kids = framesEl.children, rooty = null, re = /^([\s\S]*) \(([\d,.]+) ([^()]*)\)$/;
		var unit = { "s,": 1e9, "ms,": 1e6, "us,": 1e3, "ns,": 1,
		    "GiB,": 1073741824, "MiB,": 1048576, "KiB,": 1024, "B,": 1 };
		for (var i = 0; i < kids.length; i++) {
			var e = kids[i], c, title = null, r = null;
			for (c = e.firstElementChild; c; c = c.nextElementSibling) {
				if (c.localName === "title") title = c;
				else if (c.localName === "rect") r = c;
			}
			if (!r) continue;
			var info = title ? title.textContent : "", m = re.exec(info);
			var f = {
				e: e, r: r, info: info, hit: false,
				x0: r.getAttribute("x"), w0: r.getAttribute("width"),
				fill: r.getAttribute("fill"), m: e.classList.contains("m"),
				name: m ? m[1] : info,
				n: m ? parseFloat(m[2].replace(/,/g, "")) : 0
			};
			if (m && C.tn) {
				f.n *= unit[m[3].split(" ")[0]] || 1;
				if (!F.length && Math.abs(f.n - C.T) < 0.01 * C.T) f.n = C.T;
			}
			f.x = parseFloat(f.x0);
			f.w = parseFloat(f.w0);
			f.y = parseFloat(r.getAttribute("y"));
			if (rooty === null) rooty = f.y;
			f.d = Math.round((C.inv ? f.y - rooty : rooty - f.y) / C.fh);
			if (!m && F.length) f.n = F[0].n * f.w / F[0].w;
			f.l = e.hasAttribute("data-l");
			if (f.l ? e.getAttribute("data-l") === "-" : f.m)
				f.info += " [names inside not searched: over the size budget]";
			e.fgi = F.length;
			F.push(f);
		}
		A = F;
		home = { fv: fv, fvbox: fvbox, fvh: fvh, labels: labels, framesEl: framesEl };
		framesEl.addEventListener("click", onclick);
		framesEl.addEventListener("mouseover", onover);
		framesEl.addEventListener("mouseout", onout);
		unzoomBtn.addEventListener("click", function () {
			/* in the function view: out of a zoom first, then out of it */
			if (view && zoomed < 0) closeview(); else unzoom();
		});
		searchBtn.addEventListener("click", function () {
			if (term !== null) clearsearch(); else ask();
		});
		icBtn.addEventListener("click", togglecase);
		window.addEventListener("keydown", function (ev) {
			if (ev.key === "F3" || ((ev.ctrlKey || ev.metaKey) &&
			    (ev.key === "f" || ev.key === "F"))) {
				ev.preventDefault();
				ask();
			} else if (ev.key === "Escape") {
				if (view) closeview();
				else if (term !== null) clearsearch();
			} else if ((ev.key === "f" || ev.key === "F") && !ev.ctrlKey &&
			    !ev.metaKey && !ev.altKey && hover && !hover.m) {
				openview(hover.name);
			} else if ((ev.ctrlKey || ev.metaKey) &&
			    (ev.key === "i" || ev.key === "I")) {
				ev.preventDefault();
				togglecase();
			}
		});
		window.addEventListener("hashchange", load);
		mkpins();
		revealroots();
		load();
		window.fg = { zoom: zoom, unzoom: unzoom, search: search,
		    clear: clearsearch, fnview: openview, close: closeview,
		    get frames() { return F; }, get view() { return view && view.name; },
		    get ready() { return calltree !== null; },
		    rebase: rebase, save: save, set extra(fn) { extra = fn; },
		    get term() { return term; } };
		setTimeout(warm, 50, 0);
	}
	/* Reads the search data in slices while the page is idle, so that the
	   first search does not wait for it (search reads what is left), and
	   then the call tree, for the function view. */
	function warm(j) {
		var t = Date.now();
		for (; j < A.length && Date.now() - t < 12; j++)
			if (A[j].m || A[j].l) getL(A[j]);
		if (j < A.length) setTimeout(warm, 0, j);
		else setTimeout(loadtree, 0);
	}
	/*
	 * The graph in the window. A graph taller than the window opens
	 * scrolled to its roots (an icicle's are at the top already), and
	 * the controls stay on screen however the window scrolls: the title
	 * row (title, subtitle, Reset Zoom, Search, ic) and the bottom row
	 * (details, Matched) are moved after the frames, so that they paint
	 * over them, and when their place in the graph is out of the window
	 * they follow its edge, on a band of the background (as CSS's sticky
	 * does in HTML): at the left, the middle or the right of the part of
	 * the width on show. A window narrower than the graph shows it scaled
	 * to its width (never larger than drawn). A search brings its widest match into view, a
	 * zoom its frame, the function view its function; leaving the view
	 * scrolls back to where it was opened. Nothing moves in print (a
	 * print rule undoes the moves) nor in an <img>, where no script runs.
	 */
	var pins = null;
	/*
	 * Moves the controls into two groups after the frames, the title row
	 * and the bottom row, each on a band, and pins them. A scroll moves
	 * the groups alone, by a CSS transform on their own compositing
	 * layer (without it, a step of a scroll took 100 ms on a graph of
	 * 27,000 frames; with it 30 to 50 ms, against 17 without pins): so
	 * on a graph of over PINEACH frames they follow once the scroll
	 * pauses, and the scroll itself stays as smooth as without them.
	 */
	var PINEACH = 10000;
	function onscroll() {
		if (A.length <= PINEACH) { pin(); return; }
		clearTimeout(pins.t);
		pins.t = setTimeout(pin, 100);
	}
	function mkpins() {
		var root = document.documentElement, g = document.createElementNS(NS, "g");
		var stops = document.querySelectorAll("#background stop");
		var st = document.createElementNS(NS, "style"), sub = document.getElementById("subtitle");
		function row(k, fill, h) {
			var r = document.createElementNS(NS, "rect"), e = document.createElementNS(NS, "g");
			r.setAttribute("fill", stops[k] ? stops[k].getAttribute("stop-color") : fill);
			r.setAttribute("class", "hide");
			r.setAttribute("height", String(h));
			e.style.willChange = "transform";
			e.appendChild(r);
			g.appendChild(e);
			return { g: e, band: r, h: h, dy: 0 };
		}
		g.id = "fgpins";
		pins = { rows: [row(0, "#eeeeee", C.fs * 3 + (sub ? C.fs * 2 : 0)),
		    row(1, "#eeeeb0", C.fs * 2 + 10)], parts: [], key: "" };
		/* [id, where across (l, c, r), 0 for the title row or 1 for the bottom] */
		[["title", "c", 0], ["subtitle", "c", 0], ["unzoom", "l", 0], ["search", "r", 0],
		    ["ignorecase", "r", 0], ["details", "l", 1], ["matched", "r", 1]].forEach(function (p) {
			var e = document.getElementById(p[0]);
			if (!e) return;
			pins.rows[p[2]].g.appendChild(e);
			pins.parts.push({ e: e, a: p[1] });
		});
		st.textContent = "@media screen { :root { max-width: 100%; height: auto; } } " +
		    "@media print { #fgpins * { transform: none !important; } " +
		    "#fgpins rect { display: none; } }";
		root.appendChild(st);
		root.appendChild(g);
		window.addEventListener("scroll", onscroll, { passive: true });
		window.addEventListener("resize", function () { onshow(true); pin(); });
		pin();
	}
	/*
	 * What of the graph the window shows, in the graph's units; k: pixels
	 * per unit. The sizes are measured once per size of window or graph
	 * (fresh: measure again): a scroll reads the scroll offsets alone,
	 * which need no layout.
	 */
	function onshow(fresh) {
		var root = document.documentElement, H = +root.getAttribute("height") || 1, m = pins && pins.m;
		if (fresh || !m || m.H !== H || m.iw !== window.innerWidth || m.ih !== window.innerHeight) {
			var b = root.getBoundingClientRect();
			m = { H: H, iw: window.innerWidth, ih: window.innerHeight,
			    k: b.height > 0 ? b.height / H : 1, x: b.left + window.scrollX, y: b.top + window.scrollY,
			    vw: root.clientWidth || window.innerWidth, vh: root.clientHeight || window.innerHeight };
			if (pins) pins.m = m;
		}
		var k = m.k, top = m.y - window.scrollY, left = m.x - window.scrollX;
		return { H: H, k: k, vw: m.vw, vh: m.vh, top: Math.max(0, -top / k),
		    bot: Math.min(H, (m.vh - top) / k), left: Math.max(0, -left / k),
		    right: Math.min(C.W, (m.vw - left) / k) };
	}
	/* Puts the two rows where the window shows them; across, only when
	   what shows of the width, or the height of the graph, changed. */
	function pin() {
		if (!pins) return;
		var v = onshow(), w = v.right - v.left, key = [v.H, v.left, v.right].join(" ");
		if (!(w > 0)) return;
		if (key !== pins.key) {
			pins.key = key;
			pins.parts.forEach(function (p) {
				var dx = p.a === "l" ? v.left : p.a === "r" ? v.right - C.W : (v.left + v.right - C.W) / 2;
				if (dx === 0) p.e.removeAttribute("transform");
				else p.e.setAttribute("transform", "translate(" + dx + ",0)");
			});
			pins.rows.forEach(function (r, i) {
				r.band.setAttribute("x", String(v.left));
				r.band.setAttribute("y", String(i ? v.H - r.h : 0));
				r.band.setAttribute("width", String(w));
			});
		}
		[v.top, v.bot - v.H].forEach(function (dy, i) {
			var r = pins.rows[i];
			if (dy === r.dy) return;
			if ((dy === 0) !== (r.dy === 0)) r.band.classList.toggle("hide", dy === 0);
			r.g.style.transform = dy === 0 ? "" : "translate(0px," + dy + "px)";
			r.dy = dy;
		});
	}
	/* Scrolls frame f into the part of the window the controls leave free,
	   its middle to the middle, unless it is there already. */
	function reveal(f) {
		if (!f || !f.r || !pins) return;
		var v = onshow(), r = f.r.getBoundingClientRect();
		var hi = pins.rows[0].h * v.k, lo = v.vh - pins.rows[1].h * v.k, dx = 0, dy = 0;
		if (r.top < hi || r.bottom > lo) dy = (r.top + r.bottom - hi - lo) / 2;
		if (r.right < C.xpad * v.k || r.left > v.vw - C.xpad * v.k) dx = r.left - C.xpad * v.k;
		if (dx !== 0 || dy !== 0) window.scrollBy(dx, dy);
		pin();
	}
	/* At open: to the roots, at the bottom of a flame graph. */
	function revealroots() {
		if (C.inv) return;
		var v = onshow();
		window.scrollTo(window.scrollX, Math.max(0, (v.H - v.vh / v.k) * v.k));
		pin();
	}
	/* The widest frame on show of those that hit[] marks, into view. */
	function revealhit(hit) {
		var lo = 0, hi = F.length, best = -1, bw = 0, j, w;
		if (zoomed >= 0) {
			lo = zoomed;
			for (hi = lo + 1; hi < F.length && F[hi].d > F[lo].d; hi++)
				;
		}
		for (j = lo; j < hi; j++)
			if (hit[j] === 1 && (w = F[j].w) > bw) { best = j; bw = w; }
		/* the dimmed ancestors of a zoom are as wide as it */
		for (j = 0; j < parents.length && zoomed >= 0; j++)
			if (hit[parents[j].e.fgi] === 1 && F[zoomed].w > bw) {
				best = parents[j].e.fgi;
				bw = F[zoomed].w;
			}
		if (best >= 0) reveal(F[best]);
	}
	if (document.readyState === "loading")
		document.addEventListener("DOMContentLoaded", init);
	else
		init();
})();
