"use strict";
(function () {
	var C = fgcfg, NS = "http://www.w3.org/2000/svg";
	var F = [], zoomed = -1, term = null, ignorecase = true;
	var framesEl, details, unzoomBtn, searchBtn, icBtn, matchedTxt;
	var fv, fvbox, fvh, labels, zlabels;

	/* A frame's label for a width: as much of the name as fits. */
	function label(f, w) {
		var chars = Math.floor(w / (C.fs * C.fw));
		if (chars < 3) return "";
		if (f.name.length <= chars) return f.name;
		return f.name.substring(0, chars - 2) + "..";
	}
	function addlabel(to, f, x, w) {
		var s = label(f, w);
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
		save();
	}
	function unzoom() {
		for (var j = 0; j < parents.length; j++) parents[j].e.classList.remove("parent");
		parents = [];
		fv.setAttribute("viewBox", fvbox);
		zlabels.textContent = "";
		labels.style.display = "";
		zoomed = -1;
		unzoomBtn.classList.add("hide");
		save();
	}
	/*
	 * A frame's data-l, "[U^]NAME[*SELF] ...", as (depth, name, self): the
	 * frames merged into a grey one, or too narrow to be drawn under
	 * another; "-" when they passed the size budget and were left out.
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
	/* A pattern from a link is someone else's: past 256 characters it
	   is not run, and one that could backtrack for ever (a repeated
	   group, a back-reference, more than two repeats) is matched as
	   text. A pattern typed in the box runs as typed. */
	var REMAX = 256;
	function tame(s) {
		var u = s.replace(/\\[^1-9k]/g, "");
		if (!/\)[*+{]|\\[1-9k]/.test(u) &&
		    (u.match(/[*+}]/g) || []).length <= 2) return s;
		return s.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
	}
	function search(s, fromlink) {
		var re, astext = false;
		if (fromlink) {
			if (s.length > REMAX) {
				matchedTxt.textContent = "Search in the link not run: over " +
				    REMAX + " characters";
				matchedTxt.classList.remove("hide");
				return;
			}
			astext = tame(s) !== s;
			s = tame(s);
		}
		try {
			re = new RegExp(s, ignorecase ? "i" : "");
		} catch (e) {
			matchedTxt.textContent = "Bad regular expression";
			return;
		}
		term = s;
		var sum = 0, cover = -1, part = false, N = C.N || [];
		var nm = new Int8Array(N.length), st = [];
		/* a merged subtree: the own time of its frames on a matching path */
		function merged(g) {
			if (g.L === undefined) g.L = parsel(g.e.getAttribute("data-l"));
			if (g.L === null) { part = true; return 0; }
			var L = g.L, t = 0;
			for (var k = 0; k + 2 < L.length; k += 3) {
				var d = L[k], x = L[k + 1];
				if (nm[x] === 0) nm[x] = re.test(N[x]) ? 1 : 2;
				var h = nm[x] === 1 || (d > 0 && st[d - 1]);
				st[d] = h;
				if (h) t += L[k + 2];
			}
			return t;
		}
		for (var j = 0; j < F.length; j++) {
			var g = F[j], t = 0;
			if (cover >= 0 && g.d <= cover) cover = -1;
			var hit = !g.m && re.test(g.name);
			/* a grey frame, or the narrow children a frame hides */
			if ((g.m || g.l) && !hit && cover < 0 && C.T > 0) {
				t = merged(g) * F[0].n / C.T;
				if (g.m) hit = t > 0;
				sum += t;
			}
			if (hit !== g.hit) {
				g.r.setAttribute("fill", hit ? C.sc : g.fill);
				g.hit = hit;
			}
			if (hit && !g.m && cover < 0) { sum += g.n; cover = g.d; }
		}
		var pct = F.length && F[0].n > 0 ? 100 * sum / F[0].n : 0;
		if (pct > 100) pct = 100;
		matchedTxt.textContent = "Matched: " + (part ? "\u2265 " : "") +
		    (pct === 100 ? "100" : pct.toFixed(1)) + "%" +
		    (astext ? " (the link's pattern, as text)" : "");
		matchedTxt.classList.remove("hide");
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
		var p = [];
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
		var qx = null, qy = null;
		/* flamegraph.pl's links: ?x=RECTX&y=RECTY&s=REGEX */
		(location.search.replace(/^\?/, "") + "&" + h).split("&").forEach(function (kv) {
			var i = kv.indexOf("="), k = i < 0 ? kv : kv.slice(0, i);
			var v = i < 0 ? "" : kv.slice(i + 1);
			try { v = decodeURIComponent(v); } catch (e) { return; }
			if (k === "x") qx = v;
			else if (k === "y") qy = v;
			else if (k === "z") z = parseInt(v, 10);
			else if (k === "s") s = v;
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
		if (z >= 0 && z < F.length) { if (z !== zoomed) zoom(z); }
		else if (zoomed >= 0) unzoom();
		if (s !== null && s !== "") { if (s !== term) search(s, true); }
		else if (term !== null) clearsearch();
	}
	function frameof(el) {
		while (el && el.parentNode !== framesEl) el = el.parentNode;
		return el && el.fgi !== undefined ? F[el.fgi] : null;
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
		var kids = framesEl.children, rooty = null, re = /^([\s\S]*) \(([\d,.]+) [^()]*\)$/;
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
		framesEl.addEventListener("click", function (ev) {
			var f = frameof(ev.target);
			if (!f) return;
			if (f.e.localName === "a") {
				if (!ev.ctrlKey) return;
				ev.preventDefault();
			}
			zoom(f.e.fgi);
		});
		framesEl.addEventListener("mouseover", function (ev) {
			var f = frameof(ev.target);
			if (f) details.textContent = C.nt + " " + f.info;
		});
		framesEl.addEventListener("mouseout", function () {
			details.textContent = " ";
		});
		unzoomBtn.addEventListener("click", unzoom);
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
				if (term !== null) clearsearch();
			} else if ((ev.ctrlKey || ev.metaKey) &&
			    (ev.key === "i" || ev.key === "I")) {
				ev.preventDefault();
				togglecase();
			}
		});
		window.addEventListener("hashchange", load);
		load();
		window.fg = { zoom: zoom, unzoom: unzoom, search: search,
		    clear: clearsearch, frames: F };
		setTimeout(warm, 50, 0);
	}
	/* Reads the search data in slices while the page is idle, so that the
	   first search does not wait for it; search reads what is left. */
	function warm(j) {
		var t = Date.now();
		for (; j < F.length && Date.now() - t < 12; j++)
			if ((F[j].m || F[j].l) && F[j].L === undefined)
				F[j].L = parsel(F[j].e.getAttribute("data-l"));
		if (j < F.length) setTimeout(warm, 0, j);
	}
	if (document.readyState === "loading")
		document.addEventListener("DOMContentLoaded", init);
	else
		init();
})();
