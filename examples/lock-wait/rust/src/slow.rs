//! The slow version: the fetch and the digest happen under the lock.

use crate::{fetch_item, item_digest, Tally};

/// Takes the lock, then fetches the item and computes its digest while
/// holding it: every other thread that wants to add waits on the lock
/// meanwhile.
#[inline(never)]
pub fn add(t: &Tally, item: u64) {
    let mut sums = t.sums.lock().unwrap();
    let d = item_digest(fetch_item(item));
    sums.add(d);
}
