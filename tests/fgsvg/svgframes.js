// svgframes.js: the frames of an SVG that fgsvg drew, as the SVG's script
// reads them in the browser, for the node tests (script.js, search.js):
// frames(svg text) gives {cfg (its fgcfg), F (per frame in preorder: m
// grey, l hides narrow children, dl its data-l, name, n, x, y, w, d)}.
'use strict';
function unxml(s) {
	return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
		.replace(/&apos;/g, "'").replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}
// The frames as the script reads them in the browser.
function frames(svg) {
	const cfg = new Function(svg.match(/^var fgcfg = .*$/m)[0] + '; return fgcfg;')();
	const F = [];
	let rooty = null;
	const re = /^<(?:g|a)( class="m")?(?: data-l="([^"]*)")?[^>]*><title>([^<]*)<\/title><rect x="([^"]+)" y="([^"]+)" width="([^"]+)"/gm;
	let m;
	while ((m = re.exec(svg)) !== null) {
		const info = unxml(m[3]), t = /^([\s\S]*) \(([\d,.]+) [^()]*\)$/.exec(info);
		const f = { m: !!m[1], l: m[2] !== undefined, dl: m[2] === undefined ? null : m[2],
			name: t ? t[1] : info, n: t ? parseFloat(t[2].replace(/,/g, '')) : 0,
			x: parseFloat(m[4]), y: parseFloat(m[5]), w: parseFloat(m[6]) };
		if (rooty === null) rooty = f.y;
		f.d = Math.round((cfg.inv ? f.y - rooty : rooty - f.y) / cfg.fh);
		f.l = f.l && !f.m;
		F.push(f);
	}
	return { cfg, F };
}
module.exports = { frames };
