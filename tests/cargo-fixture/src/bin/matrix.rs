//! matrix [ROUNDS]: a hot function of the crate's own that the compiler
//! inlines into main, and that spends its time in std's inlined helpers
//! and in its hash map: the widest leaves are std's, the hottest function
//! of the crate's own is slow_matrix_search.
use std::collections::HashMap;

/// The hot function: builds a map of a 64x64 matrix's cells, then looks
/// every cell up in it, on every call.
#[inline(always)]
fn slow_matrix_search(round: u64) -> u64 {
    let n: u64 = 64;
    let mut cells = HashMap::new();
    for i in 0..n {
        for j in 0..n {
            cells.insert(i * n + j, (i ^ j).wrapping_mul(round | 1));
        }
    }
    let mut sum: u64 = 0;
    for k in 0..n * n {
        let key = k.wrapping_mul(2654435761).wrapping_add(round) % (n * n);
        if let Some(v) = cells.get(&key) {
            sum = sum.wrapping_add(*v);
        }
    }
    sum
}

fn main() {
    let rounds: u64 = std::env::args()
        .nth(1)
        .map_or(300, |s| s.parse().expect("ROUNDS: a number"));
    let mut x: u64 = 0;
    for r in 0..rounds {
        x = x.rotate_left(5) ^ slow_matrix_search(r);
    }
    println!("matrix: {:016x}", x);
}
