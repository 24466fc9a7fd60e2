//! alloc-loop, fixed version: a linear scan, no allocation. For lists this
//! short, comparing every pair costs less than building a map.

/// Returns the first pair (i, j) with `v[i] + v[j] == target`, or `None`.
#[inline(never)]
pub fn find_pair(v: &[i32], target: i64) -> Option<(usize, usize)> {
    for j in 1..v.len() {
        for i in 0..j {
            if v[i] as i64 + v[j] as i64 == target {
                return Some((i, j));
            }
        }
    }
    None
}
