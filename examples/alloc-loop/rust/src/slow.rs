//! alloc-loop, slow version: a `HashMap` built, grown and dropped on every
//! call.

use std::collections::HashMap;

/// Returns the first pair (i, j) with `v[i] + v[j] == target`, or `None`.
#[inline(never)]
pub fn find_pair(v: &[i32], target: i64) -> Option<(usize, usize)> {
    let mut seen: HashMap<i32, usize> = HashMap::new();
    for (j, &x) in v.iter().enumerate() {
        if let Ok(want) = i32::try_from(target - x as i64) {
            if let Some(&i) = seen.get(&want) {
                return Some((i, j));
            }
        }
        seen.entry(x).or_insert(j);
    }
    None
}
