//! The fixed version: the lock guards the additions only.

use crate::{fetch_item, item_digest, Tally};

/// Fetches the item and computes its digest first, then holds the lock
/// for the additions.
#[inline(never)]
pub fn add(t: &Tally, item: u64) {
    let d = item_digest(fetch_item(item));
    t.sums.lock().unwrap().add(d);
}
