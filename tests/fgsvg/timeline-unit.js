// timeline-unit.js TIMELINE.js: the timeline script's pure parts under
// node (tllib): the tree and cells it reads, the selection of a range and
// of threads, the totals, the layout of the selection into frames (the
// merge: own time left, narrow frames hidden with their search data), the
// off-CPU marks, and the fragment's range. Prints PASS and FAIL lines.
'use strict';
const tl = require(require('path').resolve(process.argv[2]));
let bad = 0;
function check(what, got, want) {
	const g = JSON.stringify(got), w = JSON.stringify(want);
	if (g === w) console.log('PASS ' + what);
	else { console.log(`FAIL ${what}: got ${g}, want ${w}`); bad++; }
}
// all(0) > main(1) > f(2) > x(3); main > g(4); all > [off-cpu] leaf under main: "0 1 2 3 2^4 5"
// ids: 0 all, 1 main, 2 f, 3 x, 4 g, 5 [off-cpu]
const t = tl.tree('0 1 2 3 2^4 5');
check('tree: depths', t.D, [0, 1, 2, 3, 2, 3]);
check('tree: parents', t.P, [-1, 0, 1, 2, 1, 4]);
check('tree: names', t.M, [0, 1, 2, 3, 4, 5]);
// numbers in base-64 VLQ, as timeline.c's put_vlq writes them
check('vlq: five bits a character, low first, 32 for more', tl.vlq('ofAB///DfhB+BC'), [1000, 0, 1, 0x1ffff, 31, 33, 62, 2]);
check('vlq: unvlq is its inverse', tl.vlq(tl.unvlq([0, 31, 32, 1023, 1024, 4294967296])), [0, 31, 32, 1023, 1024, 4294967296]);
check('vlq: a character out of the alphabet ends it', tl.vlq('BC"D'), [1, 2]);
// two rows; cells (BIN-STEP OFF K (NODE-STEP W)*K): bin 0 (f 3, x 1), bin 1 (x 4, [off-cpu] 5, off 5)
const r1 = tl.cells(tl.unvlq([0, 0, 2, 2, 3, 1, 1, 1, 5, 2, 3, 4, 2, 5])), r2 = tl.cells(tl.unvlq([3, 0, 1, 4, 2]));
check('cells: bins, offs and totals', [r1.b, r1.off, r1.w], [[0, 1], [0, 5], [4, 9]]);
check('cells: entries', [r1.e0, r1.e1, r1.node, r1.nw], [[0, 2], [2, 4], [2, 3, 3, 5], [3, 1, 4, 5]]);
// bins 0 and 1 of both rows: f 3, x 1+4, off-cpu 5 (bin 3 of r2, g, left out)
let self = tl.select([r1, r2], t.n, 0, 2);
check('select: a range of bins over threads', Array.from(self), [0, 0, 3, 5, 0, 5]);
check('select: one thread, one bin', Array.from(tl.select([r2], t.n, 3, 4)), [0, 0, 0, 0, 2, 0]);
check('select: an empty range', Array.from(tl.select([r1, r2], t.n, 2, 3)), [0, 0, 0, 0, 0, 0]);
self = tl.select([r1, r2], t.n, 0, 9);
const tot = tl.totals(t, self);
check('totals: own time and below', Array.from(tot), [15, 15, 8, 5, 7, 5]);
// layout over 150 px: 10 px per unit; f's own 3 left of x
let L = tl.layout(t, self, tot, 10, 150, 0.1, 99, 0);
check('layout: frames in preorder, own time left of children',
    L.map((f) => [f.node, f.d, f.x, f.w, f.s]),
    [[0, 0, 10, 150, 0], [1, 1, 10, 150, 0], [2, 2, 10, 80, 3], [3, 3, 40, 50, 5], [4, 2, 90, 70, 2], [5, 3, 110, 50, 5]]);
L = tl.layout(t, self, tot, 10, 150, 0.1, 99, 1);
check('layout: own time right with the weight sort', L.map((f) => f.x), [10, 10, 10, 10, 90, 90]);
// narrow: a minimum of 60 px hides x (50) under f and g's [off-cpu]; g (70) stays
L = tl.layout(t, self, tot, 10, 150, 60, 99, 0);
check('layout: narrow frames hidden, their search data with their parent',
    L.map((f) => [f.node, f.L]), [[0, null], [1, null], [2, [0, 3, 5]], [4, [0, 5, 5]]]);
// too deep: below depth 1, all is hidden under main, f's subtree in preorder
L = tl.layout(t, self, tot, 10, 150, 0.1, 1, 0);
check('layout: frames past the rows that fit hidden with their subtree',
    L.map((f) => [f.node, f.L]), [[0, null], [1, [0, 2, 3, 1, 3, 5, 0, 4, 2, 1, 5, 5]]]);
check('layout: nothing selected, no frame', tl.layout(t, new Float64Array(6), new Float64Array(6), 10, 150, 0.1, 9, 0), []);
check('offcpu: [off-cpu] and a node all of whose time it is', Array.from(tl.offcpu(t, self, tot, 5)), [0, 0, 0, 0, 0, 1]);
const s2 = Float64Array.from([0, 0, 0, 0, 0, 5]);
check('offcpu: callers all of whose time is off-CPU', Array.from(tl.offcpu(t, s2, tl.totals(t, s2), 5)), [1, 1, 0, 0, 1, 1]);
check('range: bins of under a millisecond get six decimals', tl.rangestr(1, 3, 5e5), '0.000500-0.001500');
check('range: the fragment to bins and back', [tl.range('0.010-0.030', 1e7, 100), tl.rangestr(1, 3, 1e7)], [[1, 3], '0.010-0.030']);
check('range: a bad or empty one is none', [tl.range('x', 1e7, 100), tl.range('0.5-0.2', 1e7, 100), tl.range('', 1e7, 10)], [null, null, null]);
check('range: clipped to the run', tl.range('0-99', 1e9, 10), [0, 10]);
check('tick: 1, 2 or 5 times a power of ten', [tl.tick(10, 10), tl.tick(3.1, 10), tl.tick(0.07, 10)], [1, 0.5, 0.01]);
process.exit(bad ? 1 : 0);
