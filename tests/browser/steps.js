// steps.js: what the Chromium scripts (fgsvg.js, open.js) share: the
// lines they print, one per step (PASS step, FAIL step: why, INFO text),
// which tests/browser/steps.sh reads.
'use strict';
const results = [];
function pass(step) { results.push(`PASS ${step}`); }
function fail(step, why) { results.push(`FAIL ${step}: ${why}`); }
function info(text) { results.push(`INFO ${text}`); }
// Runs fn, a step: it returns '' (or nothing) when it passed, else why not.
async function step(name, fn) {
	try {
		const why = await fn();
		if (why) fail(name, why); else pass(name);
	} catch (e) {
		fail(name, String(e && e.message || e).split('\n')[0]);
	}
}
module.exports = { results, pass, fail, info, step };
